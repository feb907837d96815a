// bug: the left halo of block 0 reads in[-4..-1] instead of 0: elements
// before the input are not the contract's zeros
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
    smem[threadIdx.x] = in[static_cast<int>(left) - kRadius];
    const unsigned int right = blockStart + kStencilBlock + threadIdx.x;
    smem[kRadius + kStencilBlock + threadIdx.x] = right < n ? in[right] : 0.0f;
  }
  __syncthreads();

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
