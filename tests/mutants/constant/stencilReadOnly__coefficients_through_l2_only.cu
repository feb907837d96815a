// bug: loads the coefficients with __ldcg (cache in L2 only) instead of
// __ldg: a cache hint of its own, not the read-only path
// expect: method
// Book 5.5.2: the coefficients go through the read-only (texture) cache,
// which `const float* __restrict__` lets the compiler use and __ldg asks for
// explicitly. __ldcg looks alike but asks for a global load that bypasses
// L1: the answer is the same and the read-only cache goes unused.
#include "constant/constant.cuh"

namespace wb::constant {

__global__ void stencilReadOnly(const float* __restrict__ in, float* __restrict__ out,
                                unsigned int n, const float* __restrict__ coef) {
  __shared__ float smem[kStencilSmem];
  const unsigned int blockStart = blockIdx.x * kStencilBlock;
  const unsigned int i = blockStart + threadIdx.x;
  const unsigned int s = threadIdx.x + kRadius;

  smem[s] = i < n ? in[i] : 0.0f;
  if (threadIdx.x < kRadius) {
    const unsigned int left = blockStart + threadIdx.x;
    smem[threadIdx.x] = left >= kRadius ? in[left - kRadius] : 0.0f;
    const unsigned int right = blockStart + kStencilBlock + threadIdx.x;
    smem[kRadius + kStencilBlock + threadIdx.x] = right < n ? in[right] : 0.0f;
  }
  __syncthreads();

  if (i < n) {
    float sum = 0.0f;
#pragma unroll
    for (int k = 1; k <= kRadius; ++k) {
      sum += __ldcg(&coef[k - 1]) * (smem[s + k] - smem[s - k]);
    }
    out[i] = sum;
  }
}

}  // namespace wb::constant
