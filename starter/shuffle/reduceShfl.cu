// Exercise reduceShfl (book section 5.6.3). A block reduction with warp shuffles: the
// partial sums of a warp stay in its registers.
// The contract is in chapters/shuffle/shuffle.cuh; shflBroadcast.cu beside
// this file is the worked example to start from.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void reduceShfl(int* g_idata, int* g_odata, unsigned int n) {
  // TODO(book 5.6.3): sum this block's 128 elements with a warpReduce helper
  // of your own (shuffles), the 4 warp sums in shared memory, then warp 0.
  // Contract: reduceShfl in chapters/shuffle/shuffle.cuh.
  // Roughly 13 lines; `./workbook hint reduceShfl` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)g_idata;
  (void)g_odata;
  (void)n;
}

}  // namespace wb::shuffle
