// Exercise shflDown (book section 5.6.2.3). Shift each lane's value down by delta lanes
// within its segment of `width` lanes.
// The contract is in chapters/shuffle/shuffle.cuh; shflBroadcast.cu beside
// this file is the worked example to start from.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflDown(const int* in, int* out, int width, unsigned int delta) {
  // TODO(book 5.6.2.3): read in[g], shift it down by delta lanes inside each
  // segment of `width` lanes with one shuffle, and write it to out[g].
  // Contract: shflDown in chapters/shuffle/shuffle.cuh.
  // Roughly 4 lines; `./workbook hint shflDown` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)in;
  (void)out;
  (void)width;
  (void)delta;
}

}  // namespace wb::shuffle
