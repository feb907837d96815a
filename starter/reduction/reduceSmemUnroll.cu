// Exercise reduceSmemUnroll (book section 5.3.2). reduceSmem with each
// thread first adding four elements one block apart.
// The contract is in chapters/reduction/reduction.cuh; reduceGmem.cu beside
// this file is the worked example to start from.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmemUnroll(int* g_idata, int* g_odata, unsigned int n) {
  // TODO(book 5.3.2): reduceSmem for blocks of 512 elements: each thread
  // first adds four of them, then the block reduces 128 sums in shared memory.
  // Contract: reduceSmemUnroll in chapters/reduction/reduction.cuh.
  // Roughly 26 lines; `./workbook hint reduceSmemUnroll` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)g_idata;
  (void)g_odata;
  (void)n;
}

}  // namespace wb::reduction
