// bug: no tile: the eight neighbours read from global memory in a loop kept rolled (two
// loads in the code, eight run per output), the shared loads feeding only a comparison
// that never holds
// expect: method
#include "constant/constant.cuh"

namespace wb::constant {

__global__ void stencilConstant(const float* in, float* out, unsigned int n, const float* coef) {
  (void)coef;
  __shared__ float smem[kStencilSmem];
  const unsigned int blockStart = blockIdx.x * kStencilBlock;
  const unsigned int i = blockStart + threadIdx.x;
  const unsigned int s = threadIdx.x + kRadius;

  smem[s] = i < n ? in[i] : 0.0f;
  if (threadIdx.x < kRadius) {
    smem[threadIdx.x] = 0.0f;
    smem[kRadius + kStencilBlock + threadIdx.x] = 0.0f;
  }
  __syncthreads();

  if (i < n) {
    float sum = 0.0f;
#pragma unroll 1
    for (int k = 1; k <= kRadius; ++k) {
      const float right = i + k < n ? in[i + k] : 0.0f;
      const float left = i >= static_cast<unsigned int>(k) ? in[i - k] : 0.0f;
      sum += wbStencilCoef[k - 1] * (right - left);
    }
    // Eight shared loads whose values never reach the output.
    float token = 0.0f;
#pragma unroll
    for (int k = 1; k <= kRadius; ++k) token += smem[s + k] * smem[s - k];
    if (token != token) sum = token;
    out[i] = sum;
  }
}

}  // namespace wb::constant
