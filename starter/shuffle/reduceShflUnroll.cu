// Exercise reduceShflUnroll (book section 5.6.3). reduceShfl with each thread first adding four
// elements one block apart.
// The contract is in chapters/shuffle/shuffle.cuh; shflBroadcast.cu beside
// this file is the worked example to start from.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void reduceShflUnroll(int* g_idata, int* g_odata, unsigned int n) {
  // TODO(book 5.6.3): reduceShfl for blocks of 512 elements: each thread
  // first adds four of them, then the block reduces 128 sums as reduceShfl does.
  // Contract: reduceShflUnroll in chapters/shuffle/shuffle.cuh.
  // Roughly 18 lines; `./workbook hint reduceShflUnroll` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)g_idata;
  (void)g_odata;
  (void)n;
}

}  // namespace wb::shuffle
