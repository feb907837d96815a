// Exercise reduceSmemShfl (book section 5.6.3). reduceSmem's tree in shared
// memory, with its last warp's steps done by shuffle instead.
// The contract is in chapters/shuffle/shuffle.cuh; shflBroadcast.cu beside
// this file is the worked example to start from.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void reduceSmemShfl(int* g_idata, int* g_odata, unsigned int n) {
  // TODO(book 5.6.3): reduceSmem's staging and 128 -> 64 round, then warp 0
  // adds the 64 sums left with five shuffle steps instead of shared memory.
  // Contract: reduceSmemShfl in chapters/shuffle/shuffle.cuh.
  // Roughly 12 lines; `./workbook hint reduceSmemShfl` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)g_idata;
  (void)g_odata;
  (void)n;
}

}  // namespace wb::shuffle
