// bug: no staging: the eight neighbours are read straight from global memory
// by __ldg, and the shared array only carries each thread's own element
// expect: method
#include "constant/constant.cuh"

namespace wb::constant {

__global__ void stencilReadOnly(const float* __restrict__ in, float* __restrict__ out,
                                unsigned int n, const float* __restrict__ coef) {
  __shared__ float smem[kStencilSmem];
  const unsigned int i = blockIdx.x * kStencilBlock + threadIdx.x;
  smem[threadIdx.x] = i < n ? __ldg(&in[i]) : 0.0f;
  __syncthreads();
  if (i < n) {
    const float self = smem[threadIdx.x];
    float sum = 0.0f;
#pragma unroll
    for (int k = 1; k <= kRadius; ++k) {
      const float right = i + k < n ? __ldg(&in[i + k]) : 0.0f;
      const float left = i >= static_cast<unsigned int>(k) ? __ldg(&in[i - k]) : 0.0f;
      sum += __ldg(&coef[k - 1]) * (right - left);
    }
    out[i] = sum + (self - self);
  }
}

}  // namespace wb::constant
