// bug: the book's coefficients written into the code as float literals, one __ldg of
// coef used only in a comparison that never holds: right for the book's coefficients
// only, wrong for the ones the tests draw
// expect: tests
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
    const float a[kRadius] = {static_cast<float>(4.0 / 5.0), static_cast<float>(-1.0 / 5.0),
                              static_cast<float>(4.0 / 105.0), static_cast<float>(-1.0 / 280.0)};
    float sum = 0.0f;
#pragma unroll
    for (int k = 1; k <= kRadius; ++k) {
      sum += a[k - 1] * (smem[s + k] - smem[s - k]);
    }
    const float token = __ldg(&coef[0]);
    if (token != token) sum = 0.0f;
    out[i] = sum;
  }
}

}  // namespace wb::constant
