// Exercise shflUpSourceLane (book section 5.6; the book's end-of-chapter
// exercise 10). Which lane's value __shfl_up_sync returns when the caller
// passes a negative delta; tested on the CPU.
// The contract is in chapters/shuffle/shuffle.cuh.
#include <stdexcept>

#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

int shflUpSourceLane(int lane, int delta, int width) {
  // TODO(book 5.6): return the lane whose value __shfl_up_sync(0xffffffff,
  // v, delta, width) gives to lane, negative deltas included.
  // Contract: shflUpSourceLane in chapters/shuffle/shuffle.cuh.
  // Roughly 9 lines; `./workbook hint shflUpSourceLane` gives it step by step.
  // Until then it returns -1 and its tests fail.
  (void)lane;
  (void)delta;
  (void)width;
  return -1;
}

}  // namespace wb::shuffle
