// Book 5.2.1.2, end-of-chapter exercise 5: what a 16 x 16 tile changes. A
// warp is 32 consecutive linear thread indices, so with 16 threads per row
// it is two rows of the block. Reading a column, lane tx + 16 * ty reads
// word 16 * tx + ty: bank ty for even tx, 16 + ty for odd tx. The 32 lanes
// fall into 4 banks, 8 distinct words each: 8 wavefronts, not the 32 of the
// 32 x 32 tile, whose lanes all read bank ty.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "layout/layout.cuh"

namespace wb::layout {

int sharedWavefrontsPerRequest(int tileSide, int rowPitch, bool readColumn) {
  if (tileSide < 1 || tileSide > bank::kWarpSize) {
    throw std::invalid_argument("sharedWavefrontsPerRequest: tileSide must be from 1 to 32, got " +
                                std::to_string(tileSide));
  }
  if (rowPitch < tileSide) {
    throw std::invalid_argument("sharedWavefrontsPerRequest: rowPitch must be at least tileSide (" +
                                std::to_string(tileSide) + "), got " + std::to_string(rowPitch));
  }
  // A block smaller than a warp (tileSide 5 or less) is one partial warp.
  const int lanes = std::min(tileSide * tileSide, bank::kWarpSize);
  // In 64 bits: tx * rowPitch may pass the largest int.
  std::int64_t words[bank::kWarpSize];
  for (int lane = 0; lane < lanes; ++lane) {
    const std::int64_t tx = lane % tileSide, ty = lane / tileSide;
    words[lane] = readColumn ? tx * rowPitch + ty : ty * rowPitch + tx;
  }
  int wavefronts = 0;
  for (int bankIndex = 0; bankIndex < bank::kNumBanks; ++bankIndex) {
    // A bank delivers one word per wavefront; lanes asking for a word an
    // earlier lane asked for get it in the same one.
    int distinctWords = 0;
    for (int lane = 0; lane < lanes; ++lane) {
      if (words[lane] % bank::kNumBanks != bankIndex) continue;
      bool askedBefore = false;
      for (int earlier = 0; earlier < lane; ++earlier) askedBefore |= words[earlier] == words[lane];
      if (!askedBefore) ++distinctWords;
    }
    wavefronts = std::max(wavefronts, distinctWords);
  }
  return wavefronts;
}

}  // namespace wb::layout
