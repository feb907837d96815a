/**
 * @file layout_maps.h
 * @brief Book section 5.2: the thread-to-shared-memory index maps of the
 *        layout exercises, evaluated on the host as well as on the device.
 *
 * Every layout kernel stores each thread's value into a shared tile with one
 * access pattern and loads it back with another. These functions say, for
 * every thread of a block, which tile element each pattern touches. The tests
 * derive the expected output permutation from them, the bank model derives
 * the conflict ways from them, and the documentation draws its bank diagrams
 * from them; the kernels themselves spell the indices out by hand, as the
 * book does, so the maps are an independent statement of the contract.
 */
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "../common/bank_model.h"
#include "../common/wb_defs.h"

namespace wb::layout {

/// The geometry of one shared tile: a block of dimX x dimY threads, one int
/// each, stored row-major with `pad` unused ints at the end of every row.
struct TileShape {
  int dimX;  ///< threads per block in x, and ints per tile row
  int dimY;  ///< threads per block in y, and tile rows
  int pad;   ///< ints of padding after each tile row in the padded kernels

  /// Threads per block, and ints per block of output.
  WB_HD constexpr int elements() const { return dimX * dimY; }
  /// Distance in ints between the starts of consecutive tile rows.
  WB_HD constexpr int pitch(bool padded) const { return padded ? dimX + pad : dimX; }
  /// Bytes of shared memory a (padded or unpadded) tile occupies.
  constexpr std::size_t tileBytes(bool padded) const {
    return static_cast<std::size_t>(pitch(padded)) * dimY * sizeof(int);
  }
};

/// The square tile of book section 5.2.1: 32 x 32 ints. One int of padding
/// per row shifts each row by one bank, so a column falls on 32 banks.
constexpr TileShape kSquare{32, 32, 1};

/// The rectangular tile of book section 5.2.2: 32 ints wide, 16 rows high.
/// A column read walks 16 rows; with one int of padding lanes 0-15 and 16-31
/// still meet pairwise in the same banks (2-way), two ints remove the conflict.
constexpr TileShape kRect{32, 16, 2};

/// How a thread picks its tile element.
enum class Access {
  Row,    ///< consecutive threads touch consecutive ints of one row
  Column  ///< consecutive threads walk down a column
};

/// Linear thread index inside the block: the value the thread stores.
WB_HD constexpr int threadLinear(const TileShape& s, int tx, int ty) { return ty * s.dimX + tx; }

/**
 * @brief Tile offset (in ints, from the start of the tile) that thread
 *        (tx, ty) touches under @p access.
 *
 * Row access: element (ty, tx). Column access: the thread's linear index t is
 * split as t = irow * dimY + icol and the thread touches element (icol, irow),
 * so lanes with consecutive t walk down a column. For the square tile this is
 * element (tx, ty), the book's `tile[threadIdx.x][threadIdx.y]`.
 */
WB_HD constexpr int tileOffset(const TileShape& s, Access access, bool padded, int tx, int ty) {
  const int pitch = s.pitch(padded);
  if (access == Access::Row) return ty * pitch + tx;
  const int t = threadLinear(s, tx, ty);
  const int irow = t / s.dimY;
  const int icol = t % s.dimY;
  return icol * pitch + irow;
}

/// Byte addresses that warp @p warp of a block touches under @p access.
constexpr bank::WarpAddresses warpAddresses(const TileShape& s, Access access, bool padded,
                                            int warp = 0) {
  bank::WarpAddresses a{};
  for (int lane = 0; lane < bank::kWarpSize; ++lane) {
    const int t = warp * bank::kWarpSize + lane;
    a[lane] = static_cast<std::int64_t>(tileOffset(s, access, padded, t % s.dimX, t / s.dimX)) *
              static_cast<std::int64_t>(sizeof(int));
  }
  return a;
}

/// Conflict ways of one warp's access (the bank model applied to the map).
constexpr int conflictWays(const TileShape& s, Access access, bool padded, int warp = 0) {
  return bank::conflictWays(warpAddresses(s, access, padded, warp));
}

/// What distinguishes one layout exercise from another, independent of the
/// tile shape. Host code (tests, the documentation generator) reads this
/// table; layout.cuh attaches the kernels of both shapes to it.
struct LayoutPattern {
  const char* exercise;    ///< kernel name, also the exercise's file name
  Access store;            ///< pattern of the shared-memory store
  Access load;             ///< pattern of the shared-memory load
  bool padded;             ///< tile rows carry the shape's padding
  bool dynamicSmem;        ///< the tile is dynamic shared memory
  const char* subsection;  ///< last digit of the book section (5.2.1.x / 5.2.2.x)
};

/// The layout exercises, in the order the book presents them: the seven of
/// the section's text, then the end-of-chapter exercises that vary them
/// (the subsection is the one whose technique each applies).
inline constexpr LayoutPattern kLayoutPatterns[] = {
    {"setRowReadRow", Access::Row, Access::Row, false, false, "1"},
    {"setColReadCol", Access::Column, Access::Column, false, false, "1"},
    {"setColReadRow", Access::Column, Access::Row, false, false, "2"},
    {"setRowReadCol", Access::Row, Access::Column, false, false, "2"},
    {"setRowReadColDyn", Access::Row, Access::Column, false, true, "3"},
    {"setRowReadColPad", Access::Row, Access::Column, true, false, "4"},
    {"setRowReadColDynPad", Access::Row, Access::Column, true, true, "5"},
    {"setColReadRowDyn", Access::Column, Access::Row, false, true, "3"},
    {"setColReadRowPad", Access::Column, Access::Row, true, false, "4"},
};

/**
 * @brief The output a layout kernel must write for @p blocks blocks.
 *
 * Thread t of block b stores the value b * elements() + t with the @p store
 * pattern; after a barrier, the thread reads with the @p load pattern and
 * writes what it read to out[b * elements() + t].
 */
inline std::vector<int> expectedOutput(const TileShape& s, Access store, Access load, bool padded,
                                       int blocks) {
  const int n = s.elements();
  // Which thread stored into each tile offset.
  std::vector<int> storedBy(static_cast<std::size_t>(s.pitch(padded)) * s.dimY, -1);
  for (int t = 0; t < n; ++t) {
    storedBy[tileOffset(s, store, padded, t % s.dimX, t / s.dimX)] = t;
  }
  std::vector<int> out(static_cast<std::size_t>(n) * blocks);
  for (int b = 0; b < blocks; ++b) {
    for (int t = 0; t < n; ++t) {
      out[static_cast<std::size_t>(b) * n + t] =
          b * n + storedBy[tileOffset(s, load, padded, t % s.dimX, t / s.dimX)];
    }
  }
  return out;
}

}  // namespace wb::layout
