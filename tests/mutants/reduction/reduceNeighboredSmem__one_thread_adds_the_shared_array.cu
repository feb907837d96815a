// bug: the block loads its elements into shared memory, then thread 0 adds
// the 128 values one by one: right answer, stores, loads and a barrier,
// but none of the neighbored rounds
// expect: profile
// As reduceSmem__one_thread_adds_the_shared_array, under the name of the
// neighbored kernel: its staging load is coalesced and it runs fewer
// instructions than the seven rounds it replaces, so only the share of
// lanes active per instruction tells it from the book's kernel.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceNeighboredSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();
  if (tid == 0) {
    int sum = 0;
    for (unsigned int k = 0; k < kReduceBlock; ++k) sum += smem[k];
    g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::reduction
