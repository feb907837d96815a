// forgery: the reference kernel, with one printf per launch whose field width is 10^9:
//   a few bytes in the device's printf buffer become a gigabyte of text on the test's
//   stdout, which CTest (and, for the tools' runs, the check) would hold in memory,
//   taken from the submissions graded beside it; the relay and the tools' runs stop
//   a test at 8 MiB of output, and it fails
// exercise: reduction/reduceSmem
// base: solutions
// expect: zero
// Book 5.3.1: reduceGmem with the partial sums in shared memory. Each input
// element is read from global memory once, into a static shared array; all
// the adds then work on chip, and the block writes one value to global
// memory, its sum.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;

  // A thread past the end of the input stores a 0 instead of returning:
  // every thread must reach the barriers below, and with the missing
  // elements padded by zeros the steps need no bounds checks.
  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();

  // 128 -> 64 with the whole block.
  if (tid < 64) smem[tid] += smem[tid + 64];
  __syncthreads();

  // 64 -> 1 inside warp 0: lanes below the stride add, __syncwarp() orders
  // the steps (the lanes of a warp are not in lockstep on Volta and later).
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
  // One printf record (a few bytes in the device's printf buffer) that the host
  // side formats with a field width of 10^9: a gigabyte of spaces per launch.
  if (tid == 0 && blockIdx.x == 0) printf("%1000000000d\n", 0);
}

}  // namespace wb::reduction
