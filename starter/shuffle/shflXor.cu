// Exercise shflXor (book section 5.6.2.5). The butterfly exchange: each lane trades its
// value with lane `lane ^ laneMask`.
// The contract is in chapters/shuffle/shuffle.cuh; shflBroadcast.cu beside
// this file is the worked example to start from.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXor(const int* in, int* out, int width, int laneMask) {
  // TODO(book 5.6.2.5): read in[g], trade it with lane `lane ^ laneMask` by
  // one butterfly shuffle, and write what you get to out[g].
  // Contract: shflXor in chapters/shuffle/shuffle.cuh.
  // Roughly 4 lines; `./workbook hint shflXor` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)in;
  (void)out;
  (void)width;
  (void)laneMask;
}

}  // namespace wb::shuffle
