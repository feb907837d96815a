// bug: no __syncthreads() between staging the inputs and halo and reading
// them: a thread may read a neighbour's slot (or the halo) before it is written
// expect: tests
// Book 5.5.2: stencilGmemCoef with the coefficients read through the
// read-only (texture) cache. `const float* __restrict__` promises the
// compiler that nothing else writes through another pointer to the same
// data during the kernel, and `__ldg` asks for the read-only path
// explicitly. Unlike the constant cache, the read-only cache serves lanes
// reading different addresses without serialising; for a coefficient every
// lane reads alike, both do the job.
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

  if (i < n) {
    float sum = 0.0f;
#pragma unroll
    for (int k = 1; k <= kRadius; ++k) {
      sum += __ldg(&coef[k - 1]) * (smem[s + k] - smem[s - k]);
    }
    out[i] = sum;
  }
}

}  // namespace wb::constant
