// Exercise reduceNeighboredGmem (book section 5.3.1; the kernel of 3.4.2).
// Neighbored-pair reduction in place in global memory: the slow baseline.
// The contract is in chapters/reduction/reduction.cuh; reduceGmem.cu beside
// this file is the worked example to start from.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceNeighboredGmem(int* g_idata, int* g_odata, unsigned int n) {
  // TODO(book 5.3.1): sum this block's 128 elements in place in g_idata with
  // neighbored pairs and write the sum to g_odata[blockIdx.x].
  // Contract: reduceNeighboredGmem in chapters/reduction/reduction.cuh.
  // Roughly 8 lines; `./workbook hint reduceNeighboredGmem` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)g_idata;
  (void)g_odata;
  (void)n;
}

}  // namespace wb::reduction
