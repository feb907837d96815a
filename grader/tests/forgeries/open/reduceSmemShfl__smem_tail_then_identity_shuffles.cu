// forgery: reduceSmem's whole tree in shared memory, warp 0's six steps included (kept rolled: one STS), then a five-step butterfly over the block's finished sum in lane 0 and zeros in lanes 1-31: the shuffles add nothing. The technique (warp 0 adding its 32 partial sums in registers) is absent.
// exercise: shuffle/reduceSmemShfl
// base: solutions
// expect: zero method
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void reduceSmemShfl(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[reduction::kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * reduction::kReduceBlock + tid;
  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();
  if (tid < 64) smem[tid] += smem[tid + 64];
  __syncthreads();
  if (tid < 32) {
#pragma unroll 1
    for (unsigned int s = 32; s > 0; s >>= 1) {
      if (tid < s) smem[tid] += smem[tid + s];
      __syncwarp();
    }
    // Lane 0 holds the block's sum, the other 31 lanes 0: the butterfly
    // "adds" 31 zeros to it (the compiler folds a shuffle of a value every
    // lane shares, so the zeros are what keeps the five SHFL).
    int sum = tid == 0 ? smem[0] : 0;
#pragma unroll 1
    for (int m = 16; m > 0; m >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, m);
    if (tid == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
