// bug: each thread reads its own four neighbouring elements with one 16-byte
// vector load (int4) instead of four elements a block apart: the right sum
// and coalesced, but not the book's unrolling
// expect: method
// Thread t of block b adds elements 4t .. 4t + 3 of the block's span. A warp
// still reads 512 consecutive bytes, so the global-load efficiency counter
// cannot tell it from the book's loads; the machine code can (LDG.E.128).
// Every buffer of the tests is 16-byte aligned at the span's start.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmemUnroll(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int first = (blockIdx.x * kReduceBlock + tid) * kUnrollFactor;

  int sum = 0;
  if (first + kUnrollFactor <= n) {
    const int4 four = *reinterpret_cast<const int4*>(g_idata + first);
    sum = four.x + four.y + four.z + four.w;
  } else {
    for (unsigned int k = 0; k < kUnrollFactor; ++k) {
      if (first + k < n) sum += g_idata[first + k];
    }
  }
  smem[tid] = sum;
  __syncthreads();
  for (unsigned int stride = kReduceBlock / 2; stride > 0; stride /= 2) {
    if (tid < stride) smem[tid] += smem[tid + stride];
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = smem[0];
}

}  // namespace wb::reduction
