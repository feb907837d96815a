// Exercise reduceShflDown (book section 5.6.3, end-of-chapter exercise 15).
// reduceShfl's block reduction with the warp sums made by shuffle-down
// instead of the butterfly.
// The contract is in chapters/shuffle/shuffle.cuh; shflBroadcast.cu beside
// this file is the worked example to start from.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void reduceShflDown(int* g_idata, int* g_odata, unsigned int n) {
  // TODO(book 5.6.3): reduceShfl's block sum, but each warp adds its values
  // with __shfl_down_sync, not __shfl_xor_sync.
  // Contract: reduceShflDown in chapters/shuffle/shuffle.cuh.
  // Roughly 13 lines; `./workbook hint reduceShflDown` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)g_idata;
  (void)g_odata;
  (void)n;
}

}  // namespace wb::shuffle
