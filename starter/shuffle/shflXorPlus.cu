// Exercise shflXorPlus (book section 5.6.2.5, end-of-chapter exercise 12).
// shflXor's butterfly, each lane adding its partner's value to its own.
// The contract is in chapters/shuffle/shuffle.cuh; shflBroadcast.cu beside
// this file is the worked example to start from.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXorPlus(const int* in, int* out, int width, int laneMask) {
  // TODO(book 5.6.2.5): write to out[g] this lane's value plus that of lane
  // lane ^ laneMask, its butterfly partner.
  // Contract: shflXorPlus in chapters/shuffle/shuffle.cuh.
  // Roughly 4 lines; `./workbook hint shflXorPlus` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)in;
  (void)out;
  (void)width;
  (void)laneMask;
}

}  // namespace wb::shuffle
