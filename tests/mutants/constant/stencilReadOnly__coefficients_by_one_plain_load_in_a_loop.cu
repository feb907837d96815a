// bug: the four coefficients are read by one L2-only load (__ldcg) in a loop
// kept rolled, not through the read-only cache: one plain load in the code
// expect: method
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
    // The four coefficients by ONE plain load instruction in a loop the compiler may not
    // unroll: __ldcg caches in L2 only (LDG.E.STRONG.GPU, not the read-only path), and
    // "at most 3 LDG.PLAIN" counts instructions in the code, not the four executions.
    float a[kRadius];
#pragma unroll 1
    for (int k = 0; k < kRadius; ++k) a[k] = __ldcg(&coef[k]);
    float sum = 0.0f;
#pragma unroll
    for (int k = 1; k <= kRadius; ++k) sum += a[k - 1] * (smem[s + k] - smem[s - k]);
    out[i] = sum;
  }
}

}  // namespace wb::constant
