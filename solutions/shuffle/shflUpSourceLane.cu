// Book 5.6, end-of-chapter exercise 10: a negative delta to __shfl_up. The
// int -2 converts to the unsigned 2^32 - 2, and the shuffle keeps only its
// low five bits, 30: a shift up by 30, not "no lane that far below". At width
// 16 that leaves every segment, so every lane keeps its value (the book's
// output); at width 32 lanes 30 and 31 receive lanes 0 and 1.
#include <stdexcept>
#include <string>

#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

int shflUpSourceLane(int lane, int delta, int width) {
  if (lane < 0 || lane >= kWarpSize) {
    throw std::invalid_argument("shflUpSourceLane: lane must be from 0 to 31, got " +
                                std::to_string(lane));
  }
  if (width < 1 || width > kWarpSize || (width & (width - 1)) != 0) {
    throw std::invalid_argument(
        "shflUpSourceLane: width must be a power of two from 1 to 32, got " +
        std::to_string(width));
  }
  // The conversion is modulo 2^32, so the low five bits of the unsigned
  // value are those of the int's two's complement: -2 gives 30, 34 gives 2.
  const int shift = static_cast<int>(static_cast<unsigned int>(delta) & 31u);
  return lane % width >= shift ? lane - shift : lane;
}

}  // namespace wb::shuffle
