// bug: the coefficients come from the file's own __device__ array in global
// memory; wbStencilCoef is read once for a comparison that never holds
// expect: method
#include "constant/constant.cuh"

namespace wb::constant {

__device__ float myCoef[kRadius] = {static_cast<float>(4.0 / 5.0), static_cast<float>(-1.0 / 5.0),
                                    static_cast<float>(4.0 / 105.0), static_cast<float>(-1.0 / 280.0)};

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

  // The one read of constant memory: an integer test on the bits, never true.
  if (__float_as_int(wbStencilCoef[0]) == 0x7fbadbad) return;
  if (i < n) {
    float sum = 0.0f;
#pragma unroll
    for (int k = 1; k <= kRadius; ++k) sum += myCoef[k - 1] * (smem[s + k] - smem[s - k]);
    out[i] = sum;
  }
}

}  // namespace wb::constant
