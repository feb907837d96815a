// bug: the book's coefficients written into the code as their float bits in integer
// registers (no float immediate for "no FIMM" to see), wbStencilCoef read once in a
// comparison that never matters: right for the book's coefficients only, wrong for the
// ones the tests draw
// expect: tests
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
    // 4/5, -1/5, 4/105, -1/280 rounded to float; n >> 31 is 0 on every test size,
    // which the compiler cannot know, so the bits stay in integer registers.
    const unsigned int zero = n >> 31;
    const float a[kRadius] = {__int_as_float(0x3f4ccccd ^ zero), __int_as_float(0xbe4ccccd ^ zero),
                              __int_as_float(0x3d1c09c1 ^ zero), __int_as_float(0xbb6a0ea1 ^ zero)};
    float sum = 0.0f;
#pragma unroll
    for (int k = 1; k <= kRadius; ++k) {
      sum += a[k - 1] * (smem[s + k] - smem[s - k]);
    }
    // The constant array, read once: a NaN coefficient never comes on a test.
    if (wbStencilCoef[0] != wbStencilCoef[0]) sum = 0.0f;
    out[i] = sum;
  }
}

}  // namespace wb::constant
