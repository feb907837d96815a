// forgery: a deliberately slow reduceSmemUnrollDyn that keeps every block's sum in __device__ memory and, from its third launch on the timed size, replays the sums instead of reading its input
// exercise: reduction/reduceSmemUnrollDyn
// base: solutions
// expect: below base
// Device memory outlives a launch. Timed on one input (the warm-up runs
// included), every timed run replays the sums of that input: the kernel,
// several times slower than reduceSmemUnroll when it sums, looked faster
// and passed DynamicUnrolledCostsNoMoreThanStatic. Now every timed run gets
// another input (several inputs in an order drawn from the seed, one
// changed element per run), so the replayed sums are another input's, and
// the run's check fails.
#include "reduction/reduction.cuh"

namespace wb::reduction {

/// Blocks of the timed 2^24-element input (kReduceBlock * kUnrollFactor
/// elements each).
constexpr unsigned int kKeptBlocks = (1u << 24) / (kReduceBlock * kUnrollFactor);
/// Cycles each block idles when it sums on the timed size: the slow part.
constexpr long long kIdleCycles = 20000;

__device__ int keptSum[kKeptBlocks];
__device__ unsigned int timedLaunches = 0;  // launches on the timed size, counted by block 0

__global__ void reduceSmemUnrollDyn(int* g_idata, int* g_odata, unsigned int n) {
  extern __shared__ int smem[];
  __shared__ bool replay;
  const unsigned int tid = threadIdx.x;
  const unsigned int block = blockIdx.x;
  const bool timed = n == (1u << 24);

  // One decision per block, read past L1: block 0 of this very launch may
  // be counting it.
  if (tid == 0) replay = timed && *static_cast<volatile unsigned int*>(&timedLaunches) >= 3;
  __syncthreads();
  if (replay) {
    // Replay: the first kKeptBlocks / kReduceBlock blocks copy every kept
    // sum, coalesced; the others have nothing to do.
    const unsigned int i = block * kReduceBlock + tid;
    if (i < kKeptBlocks) g_odata[i] = keptSum[i];
    if (block == 0 && tid == 0) atomicAdd(&timedLaunches, 1u);
    return;
  }

  const unsigned int blockStart = block * (kReduceBlock * kUnrollFactor);
  const unsigned int remaining = n - blockStart;
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
      if (block == 0) atomicAdd(&timedLaunches, 1u);
    }
  }
}

}  // namespace wb::reduction
