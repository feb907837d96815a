// Exercise shflUp (book section 5.6.2.2). Shift each lane's value up by delta lanes
// within its segment of `width` lanes.
// The contract is in chapters/shuffle/shuffle.cuh; shflBroadcast.cu beside
// this file is the worked example to start from.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflUp(const int* in, int* out, int width, unsigned int delta) {
  // TODO(book 5.6.2.2): read in[g], shift it up by delta lanes inside each
  // segment of `width` lanes with one shuffle, and write it to out[g].
  // Contract: shflUp in chapters/shuffle/shuffle.cuh.
  // Roughly 4 lines; `./workbook hint shflUp` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)in;
  (void)out;
  (void)width;
  (void)delta;
}

}  // namespace wb::shuffle
