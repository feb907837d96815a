// bug: the book's reasoning: the delta converted to unsigned is used whole,
// so -2 is 4294967294 and every lane keeps its own value; the hardware
// shifts by its low five bits, 30, and at width 32 lanes 30 and 31 receive
// lanes 0 and 1
// expect: host
#include <stdexcept>

#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

int shflUpSourceLane(int lane, int delta, int width) {
  if (lane < 0 || lane >= 32) throw std::invalid_argument("lane must be 0 to 31");
  if (width < 1 || width > 32 || (width & (width - 1)) != 0) {
    throw std::invalid_argument("width must be a power of two from 1 to 32");
  }
  const unsigned int shift = static_cast<unsigned int>(delta);
  return static_cast<unsigned int>(lane % width) >= shift ? lane - static_cast<int>(shift) : lane;
}

}  // namespace wb::shuffle
