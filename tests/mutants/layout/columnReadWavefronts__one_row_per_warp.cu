// bug: takes a warp to be one row of the block (tileSide lanes with ty = 0),
// as in the 32-wide block; with 16 threads per row a warp is two rows
// expect: host
#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "layout/layout.cuh"

namespace wb::layout {

int sharedWavefrontsPerRequest(int tileSide, int rowPitch, bool readColumn) {
  if (tileSide < 1 || tileSide > 32) throw std::invalid_argument("tileSide must be 1 to 32");
  if (rowPitch < tileSide) throw std::invalid_argument("rowPitch must be at least tileSide");
  std::int64_t words[32];
  for (int tx = 0; tx < tileSide; ++tx) {
    words[tx] = readColumn ? static_cast<std::int64_t>(tx) * rowPitch : tx;
  }
  int wavefronts = 0;
  for (int bankIndex = 0; bankIndex < 32; ++bankIndex) {
    int distinctWords = 0;
    for (int lane = 0; lane < tileSide; ++lane) {
      if (words[lane] % 32 != bankIndex) continue;
      bool askedBefore = false;
      for (int earlier = 0; earlier < lane; ++earlier) askedBefore |= words[earlier] == words[lane];
      if (!askedBefore) ++distinctWords;
    }
    wavefronts = std::max(wavefronts, distinctWords);
  }
  return wavefronts;
}

}  // namespace wb::layout
