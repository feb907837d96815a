// The matrix sizes every transpose kernel is checked on. Pure C++: the host
// tests run the index maps over the same list, to show these sizes catch the
// bounds mistakes the GPU tests are meant to catch.
#pragma once

#include <string>
#include <vector>

namespace wb::transpose::testing {

/// One input shape: nrows x ncols, and what it is there to catch.
struct MatrixSize {
  int nrows;
  int ncols;
  const char* why;

  /// "1000x777", used in test names.
  std::string id() const { return std::to_string(nrows) + "x" + std::to_string(ncols); }
};

/// Tile multiples are the easy case; all but one of these are not, and the
/// rectangles are not square either, so a bounds test that mixes up the
/// input's and the output's sides fails on them.
inline const std::vector<MatrixSize>& testSizes() {
  static const std::vector<MatrixSize> all = {
      {1, 1, "a single element: one thread of one block has all the work"},
      {1, 1000, "one row: every block's tile has a single loaded row"},
      {1000, 1, "one column: every block's tile has a single loaded column"},
      {33, 31, "just over one tile high, just under one tile wide"},
      {31, 33, "just under one tile high, just over one tile wide"},
      {1000, 777, "partial tiles on both edges; 777 = 12 * 64 + 9 leaves the unrolled "
                  "kernels' second tile empty in the last column of blocks"},
      {4097, 2049, "large, one row and one column past a tile multiple"},
      {2048, 2048, "a tile multiple: every block is full"},
  };
  return all;
}

}  // namespace wb::transpose::testing
