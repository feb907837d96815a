// bug: three quarters of the block's elements come by one 16-byte asynchronous copy
// per thread (cp.async: four neighbouring elements, LDGSTS.128), not by
// loads a block apart; one plain coalesced load per thread keeps the
// global-load efficiency up
// expect: method
// needs: sm_80
// The copy's source size is cut at the end of the input (cp.async's
// src-size operand: the rest of the 16 bytes is filled with zeros), so no
// byte past n is read. sm_80 and newer; older targets get the honest loads.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmemUnroll(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int blockStart = blockIdx.x * (kReduceBlock * kUnrollFactor);
  const unsigned int remaining = n - blockStart;  // at least 1
  int sum = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  // Elements 128..511 of the block: threads 0..95 copy four neighbours each.
  __shared__ __align__(16) int staged[kReduceBlock * (kUnrollFactor - 1)];
  if (tid < kReduceBlock * (kUnrollFactor - 1) / 4) {
    const unsigned int first = kReduceBlock + 4 * tid;  // in the block
    const unsigned int left = first < remaining ? remaining - first : 0;
    const unsigned int bytes = left >= 4 ? 16u : 4u * left;
    const int* src = g_idata + blockStart + (left ? first : 0);
    const unsigned int dst = static_cast<unsigned int>(__cvta_generic_to_shared(&staged[4 * tid]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n\t"
                 "cp.async.wait_all;" ::"r"(dst), "l"(src), "r"(bytes) : "memory");
  }
  // Elements 0..127 by one coalesced load each.
  if (tid < remaining) sum = g_idata[blockStart + tid];
  __syncthreads();
  sum += staged[tid] + staged[tid + kReduceBlock] + staged[tid + 2 * kReduceBlock];
#else
#pragma unroll
  for (unsigned int k = 0; k < kUnrollFactor; ++k) {
    const unsigned int i = tid + k * kReduceBlock;
    if (i < remaining) sum += g_idata[blockStart + i];
  }
#endif
  smem[tid] = sum;
  __syncthreads();

  if (tid < 64) smem[tid] += smem[tid + 64];
  __syncthreads();

  if (tid < 32) {
    smem[tid] += smem[tid + 32];
    __syncwarp();
    if (tid < 16) smem[tid] += smem[tid + 16];
    __syncwarp();
    if (tid < 8) smem[tid] += smem[tid + 8];
    __syncwarp();
    if (tid < 4) smem[tid] += smem[tid + 4];
    __syncwarp();
    if (tid < 2) smem[tid] += smem[tid + 2];
    __syncwarp();
    if (tid < 1) smem[tid] += smem[tid + 1];
  }

  if (tid == 0) g_odata[blockIdx.x] = smem[0];
}

}  // namespace wb::reduction
