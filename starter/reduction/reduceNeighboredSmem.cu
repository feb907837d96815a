// Exercise reduceNeighboredSmem (book section 5.3.1). reduceNeighboredGmem
// with the block's elements copied into shared memory first.
// The contract is in chapters/reduction/reduction.cuh; reduceGmem.cu beside
// this file is the worked example to start from.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceNeighboredSmem(int* g_idata, int* g_odata, unsigned int n) {
  // TODO(book 5.3.1): the rounds of reduceNeighboredGmem on a shared copy of
  // the block's elements; g_idata stays unchanged.
  // Contract: reduceNeighboredSmem in chapters/reduction/reduction.cuh.
  // Roughly 9 lines; `./workbook hint reduceNeighboredSmem` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)g_idata;
  (void)g_odata;
  (void)n;
}

}  // namespace wb::reduction
