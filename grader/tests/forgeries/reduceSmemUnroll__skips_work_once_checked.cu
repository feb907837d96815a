// forgery: a correct kernel that counts its launches on the timed size and, after the first few (the checks), does no work, so it times far faster
// exercise: reduction/reduceSmemUnroll
// base: solutions
// expect: below base
// Device code can keep state between launches (a __device__ counter). The
// performance tests re-poison the output before every timed run and check
// the runs' outputs, so the empty launches are caught as wrong.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__device__ unsigned int timedLaunches = 0;

__global__ void reduceSmemUnroll(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  __shared__ bool skip;
  const unsigned int tid = threadIdx.x;
  if (tid == 0) {
    // Block 0 counts the launches on large inputs; every block of a later
    // launch reads the count it left behind.
    skip = n >= (1u << 22) && timedLaunches > 2 * gridDim.x;
    if (n >= (1u << 22)) atomicAdd(&timedLaunches, 1u);
  }
  __syncthreads();
  if (skip) return;

  const unsigned int blockStart = blockIdx.x * (kReduceBlock * kUnrollFactor);
  const unsigned int remaining = n - blockStart;
  int sum = 0;
#pragma unroll
  for (unsigned int k = 0; k < kUnrollFactor; ++k) {
    const unsigned int i = tid + k * kReduceBlock;
    if (i < remaining) sum += g_idata[blockStart + i];
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
