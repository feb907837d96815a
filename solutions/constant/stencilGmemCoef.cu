// Book 5.5.1: the nine-point stencil with its halo staged in shared memory
// and its coefficients read from global memory. The worked example, and the
// baseline that stencilConstant is measured against.
//
// Block b computes outputs [256 b, 256 b + 256). Each thread copies its own
// input into the middle of the shared array; the first four threads also
// copy the four elements before the block (the left halo) and the four
// after it (the right halo). Elements outside [0, n) are stored as 0, which
// is the contract's boundary condition, so the stencil itself needs no
// bounds checks.
#include "constant/constant.cuh"

namespace wb::constant {

__global__ void stencilGmemCoef(const float* in, float* out, unsigned int n, const float* coef) {
  __shared__ float smem[kStencilSmem];
  const unsigned int blockStart = blockIdx.x * kStencilBlock;
  const unsigned int i = blockStart + threadIdx.x;  // this thread's output
  const unsigned int s = threadIdx.x + kRadius;     // its input's place in smem

  // The middle: one element per thread, 0 past the end of the input. No
  // thread returns early: all of them must reach the barrier.
  smem[s] = i < n ? in[i] : 0.0f;
  if (threadIdx.x < kRadius) {
    // The left halo, elements blockStart - 4 .. blockStart - 1 (none
    // before element 0), and the right halo, the four elements after the
    // block (none at or past n).
    const unsigned int left = blockStart + threadIdx.x;  // element left - 4 exists if left >= 4
    smem[threadIdx.x] = left >= kRadius ? in[left - kRadius] : 0.0f;
    const unsigned int right = blockStart + kStencilBlock + threadIdx.x;
    smem[kRadius + kStencilBlock + threadIdx.x] = right < n ? in[right] : 0.0f;
  }
  // Thread t reads smem[t + 1 .. t + 8], which its neighbours (and the
  // halo threads) wrote.
  __syncthreads();

  if (i < n) {
    float sum = 0.0f;
#pragma unroll
    for (int k = 1; k <= kRadius; ++k) {
      sum += coef[k - 1] * (smem[s + k] - smem[s - k]);  // a global load per term
    }
    out[i] = sum;
  }
}

}  // namespace wb::constant
