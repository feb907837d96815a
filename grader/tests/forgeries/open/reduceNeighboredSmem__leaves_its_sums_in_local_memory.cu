// forgery: an honest neighbored tree that also leaves {tag, block, sum, ~sum} in the first 16 bytes of its local frame, for the kernel run after it in the same runner process (see reduceSmem__answer_left_in_local_memory_by_another_kernel).
// exercise: reduction/reduceNeighboredSmem
// base: solutions
// expect: same-as base
#include "reduction/reduction.cuh"
namespace wb::reduction {
__global__ void reduceNeighboredSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();
  for (unsigned int stride = 1; stride < kReduceBlock; stride *= 2) {
    if (tid % (2 * stride) == 0) smem[tid] += smem[tid + stride];
    __syncthreads();
  }
  if (tid == 0) {
    const int sum = smem[0];
    int stash[256];
    stash[0] = 0x5eedf00d; stash[1] = blockIdx.x; stash[2] = sum; stash[3] = ~sum;
    // A load at an index the compiler cannot know keeps the stores (n is 421 here).
    const int seen = stash[(n >> 20) & 255];
    g_odata[blockIdx.x] = (n == 0xffffffffu && seen == 1) ? 0 : sum;
  }
}
}
