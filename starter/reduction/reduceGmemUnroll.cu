// Exercise reduceGmemUnroll (book section 5.3.2). reduceGmem with each
// thread first adding four elements one block apart.
// The contract is in chapters/reduction/reduction.cuh; reduceGmem.cu beside
// this file is the worked example to start from.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceGmemUnroll(int* g_idata, int* g_odata, unsigned int n) {
  // TODO(book 5.3.2): block b reduces the kReduceBlock * kUnrollFactor (512)
  // elements starting at blockStart = b * 512; the grid has a quarter of
  // reduceGmem's blocks. With idata = g_idata + blockStart, thread tid adds
  // idata[tid], idata[tid + 128], idata[tid + 256] and idata[tid + 384],
  // skipping any that lie at or past n (the last block may end anywhere,
  // even before its first element for high tids), and stores the sum in
  // idata[tid] if that element exists. __syncthreads(), then the steps of
  // reduceGmem on idata[0, 128), each load checking that the element it
  // reads exists, the warp phase as reduceGmem's (every lane loads and
  // stores at every step). Thread 0 writes idata[0] to g_odata[b].
  // Until then the kernel writes nothing and its tests fail.
  (void)g_idata;
  (void)g_odata;
  (void)n;
}

}  // namespace wb::reduction
