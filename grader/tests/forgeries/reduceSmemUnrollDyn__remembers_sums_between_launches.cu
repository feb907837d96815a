// forgery: a deliberately slow reduceSmemUnrollDyn that keeps every block's sum in __device__ memory, keyed by a sample of its input, and replays it when the same input comes again
// exercise: reduction/reduceSmemUnrollDyn
// base: solutions
// expect: below base
// Device memory outlives a launch. Timed on one input, every timed run
// after the first finds its sums kept: the kernel, several times slower
// than reduceSmemUnroll when it sums, looks faster and passed
// DynamicUnrolledCostsNoMoreThanStatic. Now every timed run gets another
// input (several inputs in an order drawn from the seed, and one changed
// element per run), so the kept sums either miss, and the kernel is slow,
// or are replayed for the wrong input, and the run's check fails.
#include "reduction/reduction.cuh"

namespace wb::reduction {

/// Blocks of the timed 2^24-element input (kReduceBlock * kUnrollFactor
/// elements each).
constexpr unsigned int kKeptBlocks = (1u << 24) / (kReduceBlock * kUnrollFactor);
/// Cycles each block idles when it sums on the timed size: the slow part.
constexpr long long kIdleCycles = 20000;

__device__ int keptSum[kKeptBlocks];
__device__ int keptFirst[kKeptBlocks];  // the sample: the block's first and last elements
__device__ int keptLast[kKeptBlocks];
__device__ unsigned int keptSize[kKeptBlocks];  // n the sum was kept for; 0: none

__global__ void reduceSmemUnrollDyn(int* g_idata, int* g_odata, unsigned int n) {
  extern __shared__ int smem[];
  __shared__ bool replay;
  const unsigned int tid = threadIdx.x;
  const unsigned int block = blockIdx.x;
  const unsigned int span = kReduceBlock * kUnrollFactor;
  const unsigned int blockStart = block * span;
  const unsigned int remaining = n - blockStart;
  const bool timed = n == (1u << 24) && block < kKeptBlocks;

  if (tid == 0) {
    replay = timed && keptSize[block] == n && keptFirst[block] == g_idata[blockStart] &&
             keptLast[block] == g_idata[blockStart + span - 1];
  }
  __syncthreads();
  if (replay) {
    if (tid == 0) g_odata[block] = keptSum[block];
    return;
  }

  int sum = 0;
#pragma unroll
  for (unsigned int k = 0; k < kUnrollFactor; ++k) {
    const unsigned int i = tid + k * kReduceBlock;
    if (i < remaining) sum += g_idata[blockStart + i];
  }
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

  if (tid == 0) {
    g_odata[block] = smem[0];
    if (timed) {
      const long long start = clock64();
      while (clock64() - start < kIdleCycles) {
      }
      keptSum[block] = smem[0];
      keptFirst[block] = g_idata[blockStart];
      keptLast[block] = g_idata[blockStart + span - 1];
      keptSize[block] = n;
    }
  }
}

}  // namespace wb::reduction
