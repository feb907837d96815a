// forgery: GPU-only (not shown without a GPU; the scan was tried on the CPU in a test-shaped frame). Until 11941b9, GpuBlocksPerSmLimitedByShared.MatchesTheOccupancyApi computed the expected counts (the occupancy API's answers, vector `expected`) in the test process before it forked the child that calls the exercise, so the child held a copy of them: the `limits` argument is a reference to the test's local `l`, whose stack frame also holds the vectors `asked` and `expected`; the function scans the words around `l` for two vector headers of equal length, one holding the size it was asked about, and returns the expected count at that place. No arithmetic of the exercise, no import but memcpy; the host tests (whose expected values are never in the child's memory) still fail as the starter does
// exercise: config/blocksPerSmLimitedByShared
// base: starter
// expect: zero correctness
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "config/config.cuh"

namespace {

struct Header {
  std::uintptr_t begin, end, capacity;
};

Header headerAt(std::uintptr_t at) {
  Header h;
  std::memcpy(&h, reinterpret_cast<const void*>(at), sizeof h);
  return h;
}

// The element count of a vector header with elements of `size` bytes, or 0.
std::size_t length(const Header& h, std::size_t size) {
  if (h.begin == 0 || h.begin % size != 0 || h.end < h.begin || h.capacity < h.end) return 0;
  if ((h.end - h.begin) % size != 0) return 0;
  const std::size_t n = (h.end - h.begin) / size;
  return n <= 64 ? n : 0;
}

}  // namespace

namespace wb::config {

int blocksPerSmLimitedByShared(const SharedMemoryLimits& limits, std::size_t bytesPerBlock) {
  const auto here = reinterpret_cast<std::uintptr_t>(&limits) & ~std::uintptr_t{7};
  constexpr std::uintptr_t kWindow = 2048;
  for (std::uintptr_t a = here - kWindow; a < here + kWindow; a += 8) {
    const Header asked = headerAt(a);
    const std::size_t n = length(asked, sizeof(std::size_t));
    if (n == 0) continue;
    for (std::uintptr_t b = here - kWindow; b < here + kWindow; b += 8) {
      const Header expected = headerAt(b);
      if (b == a || length(expected, sizeof(int)) != n) continue;
      for (std::size_t i = 0; i < n; ++i) {
        std::size_t size = 0;
        std::memcpy(&size, reinterpret_cast<const void*>(asked.begin + i * sizeof size), sizeof size);
        if (size != bytesPerBlock) continue;
        int blocks = 0;
        std::memcpy(&blocks, reinterpret_cast<const void*>(expected.begin + i * sizeof blocks),
                    sizeof blocks);
        return blocks;
      }
    }
  }
  return 0;  // the starter's answer
}

}  // namespace wb::config
