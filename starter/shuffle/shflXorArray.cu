// Exercise shflXorArray (book section 5.6.2.6). The butterfly exchange of a register array
// of kArrayLength ints per thread.
// The contract is in chapters/shuffle/shuffle.cuh; shflBroadcast.cu beside
// this file is the worked example to start from.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXorArray(const int* in, int* out, int width, int laneMask) {
  // TODO(book 5.6.2.6): load this thread's kArrayLength ints into a register
  // array, trade every element with lane `lane ^ laneMask`, write them back.
  // Contract: shflXorArray in chapters/shuffle/shuffle.cuh.
  // Roughly 9 lines; `./workbook hint shflXorArray` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)in;
  (void)out;
  (void)width;
  (void)laneMask;
}

}  // namespace wb::shuffle
