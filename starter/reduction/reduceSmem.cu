// Exercise reduceSmem (book section 5.3.1). reduceGmem with the partial sums
// in shared memory: one global read per element, one global write per block.
// The contract is in chapters/reduction/reduction.cuh; reduceGmem.cu beside
// this file is the worked example to start from.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  // TODO(book 5.3.1): declare `__shared__ int smem[kReduceBlock];` and let
  // each thread copy its element g_idata[blockIdx.x * kReduceBlock + tid]
  // into smem[tid], or 0 when that index is at or past n (zeros pad the
  // last block, so the steps below need no bounds checks; never return
  // early). __syncthreads(). Then the steps of reduceGmem on smem: 128 ->
  // 64 with the block and a barrier, then 64 -> 1 in warp 0 with
  // __syncwarp() between the steps and only lanes below the stride adding.
  // Thread 0 writes smem[0] to g_odata[blockIdx.x]. Leave g_idata unchanged.
  // Until then the kernel writes nothing and its tests fail.
  (void)g_idata;
  (void)g_odata;
  (void)n;
}

}  // namespace wb::reduction
