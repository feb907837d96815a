// bug: the four coefficients by one L2-only vector load (__ldcg of a float4), not
// through the read-only cache; "needs 4 LDG.RO" met by the input's three loads (its
// pointer __restrict__) and one __ldg of coef used only in a comparison that never holds
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
    float sum = 0.0f;
    const float4 c = __ldcg(reinterpret_cast<const float4*>(coef));
    const float a[kRadius] = {c.x, c.y, c.z, c.w};
#pragma unroll
    for (int k = 1; k <= kRadius; ++k) {
      sum += a[k - 1] * (smem[s + k] - smem[s - k]);
    }
    // The one load on the read-only path the fact needs beyond the input's three.
    const float token = __ldg(&coef[0]);
    if (token != token) sum = 0.0f;
    out[i] = sum;
  }
}

}  // namespace wb::constant
