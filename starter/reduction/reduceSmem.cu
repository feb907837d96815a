// Exercise reduceSmem (book section 5.3.1). reduceGmem with the partial sums
// in shared memory: one global read per element, one global write per block.
// The contract is in chapters/reduction/reduction.cuh; reduceGmem.cu beside
// this file is the worked example to start from.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  // TODO(book 5.3.1): reduceGmem's steps on a static shared array: sum this
  // block's 128 elements and write the sum to g_odata[blockIdx.x].
  // Contract: reduceSmem in chapters/reduction/reduction.cuh.
  // Roughly 20 lines; `./workbook hint reduceSmem` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)g_idata;
  (void)g_odata;
  (void)n;
}

}  // namespace wb::reduction
