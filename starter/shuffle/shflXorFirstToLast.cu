// Exercise shflXorFirstToLast (book section 5.6.2.6, end-of-chapter exercise 13).
// One shuffle of shflXorArray's register arrays: the partner's first element
// into this lane's last.
// The contract is in chapters/shuffle/shuffle.cuh; shflBroadcast.cu beside
// this file is the worked example to start from.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXorFirstToLast(const int* in, int* out, int width, int laneMask) {
  // TODO(book 5.6.2.6): load this thread's kArrayLength ints as shflXorArray
  // does, replace the last one by element 0 of lane `lane ^ laneMask` with
  // one butterfly shuffle, and write all of them back.
  // Contract: shflXorFirstToLast in chapters/shuffle/shuffle.cuh.
  // Roughly 8 lines; `./workbook hint shflXorFirstToLast` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)in;
  (void)out;
  (void)width;
  (void)laneMask;
}

}  // namespace wb::shuffle
