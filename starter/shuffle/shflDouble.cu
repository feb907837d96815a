// Exercise shflDouble (book section 5.6.2.4, end-of-chapter exercise 14).
// shflWrap's shift with wrap-around on doubles: a shuffle moves 32 bits.
// The contract is in chapters/shuffle/shuffle.cuh; shflBroadcast.cu beside
// this file is the worked example to start from.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflDouble(const double* in, double* out, int width, int offset) {
  // TODO(book 5.6.2.4): every lane takes the double offset positions further
  // in its segment, wrapping around its end; write it to out[g].
  // Contract: shflDouble in chapters/shuffle/shuffle.cuh.
  // Roughly 7 lines; `./workbook hint shflDouble` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)in;
  (void)out;
  (void)width;
  (void)offset;
}

}  // namespace wb::shuffle
