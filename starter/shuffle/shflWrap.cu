// Exercise shflWrap (book section 5.6.2.4). A shift by offset lanes that wraps around
// the end of each segment of `width` lanes.
// The contract is in chapters/shuffle/shuffle.cuh; shflBroadcast.cu beside
// this file is the worked example to start from.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflWrap(const int* in, int* out, int width, int offset) {
  // TODO(book 5.6.2.4): every lane takes the value offset positions further
  // in its segment, wrapping around its end; write it to out[g].
  // Contract: shflWrap in chapters/shuffle/shuffle.cuh.
  // Roughly 5 lines; `./workbook hint shflWrap` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)in;
  (void)out;
  (void)width;
  (void)offset;
}

}  // namespace wb::shuffle
