// Exercise shflSwap (book section 5.6.2.7). Two given lanes of each segment swap one
// element of their register arrays, chosen by index.
// The contract is in chapters/shuffle/shuffle.cuh; shflBroadcast.cu beside
// this file is the worked example to start from.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflSwap(const int* in, int* out, int width, int firstLane, int secondLane,
                         int firstIdx, int secondIdx) {
  // TODO(book 5.6.2.7): in each segment, firstLane's element firstIdx and
  // secondLane's element secondIdx trade places, with one shuffle that every lane calls.
  // Contract: shflSwap in chapters/shuffle/shuffle.cuh.
  // Roughly 12 lines; `./workbook hint shflSwap` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)in;
  (void)out;
  (void)width;
  (void)firstLane;
  (void)secondLane;
  (void)firstIdx;
  (void)secondIdx;
}

}  // namespace wb::shuffle
