// bug: writes the coefficients into the code as literals instead of reading
// wbStencilCoef from constant memory: the right answer, without the technique
// expect: method
// The workbook's coefficients are fixed (constant_model.h: 4/5, -1/5,
// 4/105, -1/280), so a kernel that multiplies by those numbers directly
// passes every output test; but the exercise is to read them from the
// __constant__ array, as a program whose coefficients change at run time
// must.
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
    out[i] = sum;
  }
}

}  // namespace wb::constant
