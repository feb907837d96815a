// Exercise shflWrapPlus (book section 5.6.2.4, end-of-chapter exercise 11).
// shflWrap's shift with wrap-around, each lane adding what it receives.
// The contract is in chapters/shuffle/shuffle.cuh; shflBroadcast.cu beside
// this file is the worked example to start from.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflWrapPlus(const int* in, int* out, int width, int offset) {
  // TODO(book 5.6.2.4): write to out[g] this lane's value plus the value
  // offset positions further in its segment, wrapping around its end.
  // Contract: shflWrapPlus in chapters/shuffle/shuffle.cuh.
  // Roughly 5 lines; `./workbook hint shflWrapPlus` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)in;
  (void)out;
  (void)width;
  (void)offset;
}

}  // namespace wb::shuffle
