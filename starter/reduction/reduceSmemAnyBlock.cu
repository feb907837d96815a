// Exercise reduceSmemAnyBlock (book section 5.3, end-of-chapter exercise 8).
// reduceSmemDyn for any block size from 64 to 1024 threads.
// The contract is in chapters/reduction/reduction.cuh; reduceGmem.cu beside
// this file is the worked example to start from.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmemAnyBlock(int* g_idata, int* g_odata, unsigned int n) {
  // TODO(book 5.3.3): reduceSmemDyn, correct with every block size of
  // kAnyBlockSizes (64, 128, 256, 512 and 1024 threads): exercise 8.
  // Contract: reduceSmemAnyBlock in chapters/reduction/reduction.cuh.
  // Roughly 30 lines; `./workbook hint reduceSmemAnyBlock` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)g_idata;
  (void)g_odata;
  (void)n;
}

}  // namespace wb::reduction
