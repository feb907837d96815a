/**
 * @file transpose_maps.h
 * @brief Book section 5.4: the geometry of the transpose exercises and the
 *        thread-to-element maps of the tiled kernels, evaluated on the host
 *        as well as on the device. Pure C++ (no CUDA types).
 *
 * A tiled transpose works in two phases separated by a barrier:
 *  - the *read phase*: each thread copies input elements of its block's
 *    region into the shared tile, one row of the tile per row of threads,
 *    so a warp reads consecutive floats of one input row (coalesced);
 *  - the *write phase*: each thread takes an element from a *column* of the
 *    tile and writes it to the output, where that column has become a row,
 *    so a warp writes consecutive floats of output rows (coalesced).
 *
 * The functions below say exactly which input element, tile slot and output
 * element every thread touches. The host tests check with them that the maps
 * cover every output exactly once on any matrix size, that the write phase
 * is coalesced, and how many bank conflicts the tile's column read causes
 * with and without padding. The kernels spell the same indices out by hand,
 * as the book does; the maps are an independent statement of the contract.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../common/bank_model.h"
#include "../common/wb_defs.h"

namespace wb::transpose {

/// Threads per block in x of the static-tile kernels, and floats per tile row.
constexpr int kBlockX = 32;
/// Threads per block in y of the static-tile kernels, and rows per tile.
constexpr int kBlockY = 16;
/// Floats of padding after each tile row in the padded kernels. In the write
/// phase a warp reads two neighbouring 16-row tile columns: with a pitch of
/// 32 + 2 one column falls on the 16 even banks and the other on the 16 odd
/// ones; padding by 1 leaves a 2-way conflict (see notes.md).
constexpr int kPad = 2;
/// Tiles per block of the unrolled kernels (book 5.4.4).
constexpr int kUnroll = 2;

/// Largest grid extent in y that a launch accepts.
constexpr int kMaxGridY = 65535;
/// Most threads a block may have.
constexpr int kMaxThreadsPerBlock = 1024;

/// One element of a row-major matrix.
struct Cell {
  int row;
  int col;
};

/**
 * @brief The shared tile of one block: blockY rows of `unroll * blockX`
 *        floats, followed by `pad` unused floats per row.
 *
 * Thread (tx, ty) of a block of blockX x blockY threads handles `unroll`
 * elements, blockX columns apart: copy k sits in tile column k * blockX + tx.
 */
struct TileGeometry {
  int blockX;  ///< threads per block in x
  int blockY;  ///< threads per block in y, and tile rows
  int unroll;  ///< tiles side by side per block (1 or kUnroll)
  int pad;     ///< floats of padding after each tile row

  /// Input columns (output rows) one block covers.
  WB_HD constexpr int colsPerBlock() const { return blockX * unroll; }
  /// Distance in floats between the starts of consecutive tile rows.
  WB_HD constexpr int pitch() const { return colsPerBlock() + pad; }
  /// Bytes of shared memory the tile occupies, padding included.
  constexpr std::size_t bytes() const {
    return static_cast<std::size_t>(pitch()) * blockY * sizeof(float);
  }
};

/// transposeSmem's tile (book 5.4.2): 16 rows of 32 floats.
constexpr TileGeometry kTile{kBlockX, kBlockY, 1, 0};
/// transposeSmemPad's tile (book 5.4.3): 16 rows of 32 + kPad floats.
constexpr TileGeometry kPaddedTile{kBlockX, kBlockY, 1, kPad};
/// transposeSmemUnrollPad's tile (book 5.4.4): two 32-float tiles side by
/// side in each of 16 rows, then kPad floats.
constexpr TileGeometry kUnrolledPaddedTile{kBlockX, kBlockY, kUnroll, kPad};

/// The tile a dynamic kernel sizes from its block shape at run time.
constexpr TileGeometry dynamicTile(int blockX, int blockY, bool padded) {
  return TileGeometry{blockX, blockY, 1, padded ? kPad : 0};
}

/// ceil(a / b) for a >= 0 and b > 0, without overflowing near INT_MAX.
WB_HD constexpr int ceilDiv(int a, int b) { return a / b + (a % b != 0 ? 1 : 0); }

/// Blocks in x: enough to cover @p ncols input columns with @p blockX
/// threads each handling @p unroll columns.
constexpr int gridX(int ncols, int blockX, int unroll) { return ceilDiv(ncols, blockX * unroll); }
/// Blocks in y: enough to cover @p nrows input rows.
constexpr int gridY(int nrows, int blockY) { return ceilDiv(nrows, blockY); }

/// Thread (tx, ty)'s position in its block, row by row: lanes of a warp have
/// consecutive values.
WB_HD constexpr int threadLinear(int blockX, int tx, int ty) { return ty * blockX + tx; }

// ---------------------------------------------------------------------------
// Read phase: input -> tile. Block (bx, by), thread (tx, ty), copy k.

/// The input element that copy @p k of thread (tx, ty) in block (bx, by)
/// reads. Lanes of a warp (consecutive tx) read consecutive columns of one row.
WB_HD constexpr Cell readCell(const TileGeometry& g, int bx, int by, int tx, int ty, int k) {
  return Cell{by * g.blockY + ty, bx * g.colsPerBlock() + k * g.blockX + tx};
}

/// Where in the tile (floats from its start) that element is stored: tile
/// row ty, column k * blockX + tx.
WB_HD constexpr int tileWriteOffset(const TileGeometry& g, int tx, int ty, int k) {
  return ty * g.pitch() + k * g.blockX + tx;
}

// ---------------------------------------------------------------------------
// Write phase: tile -> output. The thread's linear index t is split as
// t = irow * blockY + icol, so consecutive lanes walk down a tile column
// (icol = tile row) and the block's threads cover all blockX columns (irow).

/// Tile column the thread reads in the write phase (before adding k * blockX).
WB_HD constexpr int writeIrow(const TileGeometry& g, int tx, int ty) {
  return threadLinear(g.blockX, tx, ty) / g.blockY;
}
/// Tile row the thread reads in the write phase.
WB_HD constexpr int writeIcol(const TileGeometry& g, int tx, int ty) {
  return threadLinear(g.blockX, tx, ty) % g.blockY;
}

/// The output element (in the ncols x nrows output) that copy @p k of thread
/// (tx, ty) in block (bx, by) writes. It is the transpose of the input
/// element in tile row icol, column k * blockX + irow.
WB_HD constexpr Cell writeCell(const TileGeometry& g, int bx, int by, int tx, int ty, int k) {
  return Cell{bx * g.colsPerBlock() + k * g.blockX + writeIrow(g, tx, ty),
              by * g.blockY + writeIcol(g, tx, ty)};
}

/// The tile slot (floats from its start) that copy @p k of the thread reads
/// in the write phase: row icol, column k * blockX + irow.
WB_HD constexpr int tileReadOffset(const TileGeometry& g, int tx, int ty, int k) {
  return writeIcol(g, tx, ty) * g.pitch() + k * g.blockX + writeIrow(g, tx, ty);
}

// ---------------------------------------------------------------------------
// Bank conflicts of the two tile accesses (book 5.4.2 and 5.4.3).

/// The two shared-memory accesses of a tiled transpose.
enum class TileAccess {
  RowStore,   ///< read phase: a warp stores along a tile row
  ColumnLoad  ///< write phase: a warp loads down tile columns
};

/// Byte addresses (from the tile's start) that warp @p warp of the block
/// touches in copy @p k of @p access; lanes past the end of the block get 0
/// and are left out by tileAccessMask.
constexpr bank::WarpAddresses tileWarpAddresses(const TileGeometry& g, TileAccess access, int k,
                                                int warp) {
  bank::WarpAddresses a{};
  for (int lane = 0; lane < bank::kWarpSize; ++lane) {
    const int t = warp * bank::kWarpSize + lane;
    if (t >= g.blockX * g.blockY) continue;
    const int tx = t % g.blockX;
    const int ty = t / g.blockX;
    const int offset = access == TileAccess::RowStore ? tileWriteOffset(g, tx, ty, k)
                                                      : tileReadOffset(g, tx, ty, k);
    a[lane] = static_cast<std::int64_t>(offset) * static_cast<std::int64_t>(sizeof(float));
  }
  return a;
}

/// Lanes of warp @p warp that exist in a block of g.blockX x g.blockY threads.
constexpr std::uint32_t tileAccessMask(const TileGeometry& g, int warp) {
  const int active = g.blockX * g.blockY - warp * bank::kWarpSize;
  if (active >= bank::kWarpSize) return 0xffffffffu;
  return active <= 0 ? 0u : (1u << active) - 1u;
}

/// Conflict ways of warp @p warp's access (the bank model applied to the
/// maps): 1 is conflict-free, N an N-way conflict.
constexpr int tileConflictWays(const TileGeometry& g, TileAccess access, int k = 0, int warp = 0) {
  return bank::conflictWays(tileWarpAddresses(g, access, k, warp), tileAccessMask(g, warp));
}

// ---------------------------------------------------------------------------
// Bounds. Both phases test the coordinates of the element they touch against
// the matrix it lives in; no other test is right when the matrix is not a
// multiple of the tile.

/// True when @p c lies in a matrix of @p rows x @p cols.
WB_HD constexpr bool inside(const Cell& c, int rows, int cols) {
  return c.row >= 0 && c.col >= 0 && c.row < rows && c.col < cols;
}

// ---------------------------------------------------------------------------
// The reference.

/// Which output a kernel must produce.
enum class Reference {
  Copy,      ///< out is in, nrows x ncols (copyGmem, the bandwidth ceiling)
  Transpose  ///< out[c * nrows + r] = in[r * ncols + c], ncols x nrows
};

/// Columns of the output of a kernel with @p ref on an nrows x ncols input.
constexpr int outputCols(Reference ref, int nrows, int ncols) {
  return ref == Reference::Copy ? ncols : nrows;
}

/// The exact output for @p in (nrows x ncols, row-major).
template <class T>
std::vector<T> referenceOutput(Reference ref, const std::vector<T>& in, int nrows, int ncols) {
  if (ref == Reference::Copy) return in;
  std::vector<T> out(in.size());
  for (int r = 0; r < nrows; ++r) {
    for (int c = 0; c < ncols; ++c) {
      out[static_cast<std::size_t>(c) * nrows + r] = in[static_cast<std::size_t>(r) * ncols + c];
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Launch rules.

/**
 * @brief What is wrong with launching a kernel on an nrows x ncols matrix
 *        with blocks of blockX x blockY threads; empty when nothing is.
 * @param fixedBlock the kernel's tile is static: it only works with blocks
 *                   of kBlockX x kBlockY threads.
 * @param unroll     input columns each thread handles.
 * @param blockX     threads per block in x.
 * @param blockY     threads per block in y.
 * @param nrows      rows of the input matrix.
 * @param ncols      columns of the input matrix.
 */
inline std::string launchConfigError(bool fixedBlock, int unroll, int blockX, int blockY,
                                     int nrows, int ncols) {
  const auto shape = [](int x, int y) { return std::to_string(x) + " x " + std::to_string(y); };
  if (nrows < 0 || ncols < 0) return "the matrix " + shape(nrows, ncols) + " has a negative side";
  if (blockX < 1 || blockY < 1) return "the block " + shape(blockX, blockY) + " has no threads";
  if (static_cast<long long>(blockX) * blockY > kMaxThreadsPerBlock) {
    return "the block " + shape(blockX, blockY) + " has more than " +
           std::to_string(kMaxThreadsPerBlock) + " threads";
  }
  if (fixedBlock && (blockX != kBlockX || blockY != kBlockY)) {
    return "a static-tile kernel needs blocks of " + shape(kBlockX, kBlockY) + " threads, not " +
           shape(blockX, blockY);
  }
  if (unroll < 1) return "unroll factor " + std::to_string(unroll) + " is not positive";
  if (gridY(nrows, blockY) > kMaxGridY) {
    return std::to_string(nrows) + " rows need " + std::to_string(gridY(nrows, blockY)) +
           " blocks in y, more than the " + std::to_string(kMaxGridY) + " a grid can have";
  }
  return {};
}

}  // namespace wb::transpose
