// bug: the coefficients are indexed backwards, a4 with the nearest
// neighbours and a1 with the farthest
// expect: tests
// Book 5.5.1: stencilGmemCoef with its coefficients in constant memory. The
// contract defines `__constant__ float wbStencilCoef[4]` (the host sets it
// before the launch, as cudaMemcpyToSymbol would). Every thread of a warp
// reads the same coefficient at the same time: the constant cache serves
// that with one broadcast, and no global load is left in the loop.
#include "constant/constant.cuh"

namespace wb::constant {

__global__ void stencilConstant(const float* in, float* out, unsigned int n, const float* coef) {
  (void)coef;  // the coefficients come from constant memory
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
      sum += wbStencilCoef[kRadius - k] * (smem[s + k] - smem[s - k]);
    }
    out[i] = sum;
  }
}

}  // namespace wb::constant
