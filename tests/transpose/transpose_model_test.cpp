// Host tests of the section 5.4 model (chapters/transpose/transpose_maps.h):
// the tiled kernels' index maps cover every output exactly once on every
// test size, the write phase is coalesced, the tile's column read has the
// bank conflicts the book describes and padding removes them, and the test
// sizes expose the bounds and offset mistakes of the study notes. No GPU.
#include <gtest/gtest.h>

#include <array>
#include <climits>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "transpose/transpose_maps.h"
#include "transpose_sizes.h"

namespace wb::transpose {
namespace {

using testing::MatrixSize;
using testing::testSizes;

// ---------------------------------------------------------------------------
// An emulator of the tiled kernels, thread by thread, built on the maps.

/// How the emulated write phase decides where, and whether, to write.
enum class WritePhase {
  Correct,                 ///< the contract: write-phase coordinates, output bounds
  GuardedByReadCell,       ///< right offset, but the bounds test uses the read cell
  GuardSidesSwapped,       ///< right offset, output row tested against nrows
  OffsetFromReadCell,      ///< the study notes' unrolled kernel: offset and test
                           ///< from the read cell, value from the tile column
};

/// What an emulated launch did. Inputs are numbered by their flat index, so
/// every output value says where it came from.
struct Emulation {
  std::vector<long long> out;  ///< -1: never written
  long long duplicateWrites = 0;
  long long strayWrites = 0;     ///< writes outside the output
  long long unloadedReads = 0;   ///< tile slots read before anything was loaded

  /// True when the output is exactly the transpose, each element written once.
  bool isExactTranspose(int nrows, int ncols) const {
    if (duplicateWrites || strayWrites || unloadedReads) return false;
    for (int r = 0; r < nrows; ++r) {
      for (int c = 0; c < ncols; ++c) {
        if (out[static_cast<std::size_t>(c) * nrows + r] != static_cast<long long>(r) * ncols + c) {
          return false;
        }
      }
    }
    return true;
  }
};

Emulation emulate(const TileGeometry& g, int nrows, int ncols,
                  WritePhase phase = WritePhase::Correct) {
  const long long n = static_cast<long long>(nrows) * ncols;
  Emulation e;
  e.out.assign(static_cast<std::size_t>(n), -1);
  std::vector<long long> tile(static_cast<std::size_t>(g.pitch()) * g.blockY);
  for (int by = 0; by < gridY(nrows, g.blockY); ++by) {
    for (int bx = 0; bx < gridX(ncols, g.blockX, g.unroll); ++bx) {
      std::fill(tile.begin(), tile.end(), -1);
      // Read phase, every thread of the block; then the barrier.
      for (int ty = 0; ty < g.blockY; ++ty) {
        for (int tx = 0; tx < g.blockX; ++tx) {
          for (int k = 0; k < g.unroll; ++k) {
            const Cell in = readCell(g, bx, by, tx, ty, k);
            if (inside(in, nrows, ncols)) {
              tile[tileWriteOffset(g, tx, ty, k)] = static_cast<long long>(in.row) * ncols + in.col;
            }
          }
        }
      }
      // Write phase.
      for (int ty = 0; ty < g.blockY; ++ty) {
        for (int tx = 0; tx < g.blockX; ++tx) {
          for (int k = 0; k < g.unroll; ++k) {
            const Cell read = readCell(g, bx, by, tx, ty, k);
            const Cell dst = phase == WritePhase::OffsetFromReadCell
                                 ? Cell{read.col, read.row}
                                 : writeCell(g, bx, by, tx, ty, k);
            bool writes = false;
            switch (phase) {
              case WritePhase::Correct: writes = inside(dst, ncols, nrows); break;
              case WritePhase::GuardSidesSwapped: writes = inside(dst, nrows, ncols); break;
              case WritePhase::GuardedByReadCell:
              case WritePhase::OffsetFromReadCell: writes = inside(read, nrows, ncols); break;
            }
            if (!writes) continue;
            const long long value = tile[tileReadOffset(g, tx, ty, k)];
            if (value < 0) ++e.unloadedReads;
            const long long at = static_cast<long long>(dst.row) * nrows + dst.col;
            if (dst.row < 0 || dst.col < 0 || at >= n) {
              ++e.strayWrites;
              continue;
            }
            if (e.out[at] != -1) ++e.duplicateWrites;
            e.out[at] = value;
          }
        }
      }
    }
  }
  return e;
}

bool isTileMultiple(const MatrixSize& s, const TileGeometry& g) {
  return s.nrows % g.blockY == 0 && s.ncols % g.colsPerBlock() == 0;
}

// ---------------------------------------------------------------------------
// The contract's maps are right on every size, for every tile the kernels use.

void expectExactOnEverySize(const TileGeometry& g, int maxElements) {
  for (const MatrixSize& s : testSizes()) {
    if (static_cast<long long>(s.nrows) * s.ncols > maxElements) continue;
    EXPECT_TRUE(emulate(g, s.nrows, s.ncols).isExactTranspose(s.nrows, s.ncols))
        << "tile " << g.blockX << " x " << g.blockY << " unroll " << g.unroll << " pad " << g.pad
        << " on " << s.id();
  }
}

TEST(HostTransposeMaps, EveryOutputIsWrittenOnceFromTheRightInput) {
  for (const TileGeometry& g : {kTile, kPaddedTile, kUnrolledPaddedTile}) {
    expectExactOnEverySize(g, INT_MAX);
  }
}

TEST(HostTransposeMaps, DynamicTilesWorkForAnyBlockShape) {
  // The shapes the GPU tests launch the dynamic kernels with; the large
  // sizes add nothing here but time.
  for (const TileGeometry& g : {dynamicTile(8, 2, false), dynamicTile(64, 4, true),
                                dynamicTile(16, 16, false), dynamicTile(128, 8, true),
                                dynamicTile(32, 32, true), dynamicTile(7, 3, true)}) {
    expectExactOnEverySize(g, 1000 * 1000);
  }
}

// ---------------------------------------------------------------------------
// The test sizes catch the mistakes the GPU tests are meant to catch (the
// mutants in tests/transpose/mutants show the same on real kernels).

TEST(HostTransposeMaps, SizesCatchABoundsTestOnTheReadCell) {
  // Testing the element a thread read, instead of the one it writes, is
  // right on tile multiples only: a study-note mistake.
  for (const TileGeometry& g : {kTile, kUnrolledPaddedTile}) {
    for (const MatrixSize& s : testSizes()) {
      const bool exact =
          emulate(g, s.nrows, s.ncols, WritePhase::GuardedByReadCell).isExactTranspose(s.nrows,
                                                                                       s.ncols);
      if (isTileMultiple(s, g) || (s.nrows == 1 && s.ncols == 1)) {
        EXPECT_TRUE(exact) << s.id() << ": this mistake only shows off tile multiples";
      } else {
        EXPECT_FALSE(exact) << s.id() << " should expose the read-cell bounds test (unroll "
                            << g.unroll << ")";
      }
    }
  }
}

TEST(HostTransposeMaps, SizesCatchABoundsTestWithSwappedSides) {
  // Testing the output row against nrows is right on squares only.
  for (const MatrixSize& s : testSizes()) {
    const bool exact = emulate(kPaddedTile, s.nrows, s.ncols, WritePhase::GuardSidesSwapped)
                           .isExactTranspose(s.nrows, s.ncols);
    EXPECT_EQ(exact, s.nrows == s.ncols) << s.id();
  }
}

TEST(HostTransposeMaps, SizesCatchTheNotesUnrolledOffset) {
  // The study notes' unrolled kernel computes the output offset from the
  // coordinates it read with while taking the value from a tile column:
  // wrong as soon as a block holds more than one element.
  for (const MatrixSize& s : testSizes()) {
    const bool exact = emulate(kUnrolledPaddedTile, s.nrows, s.ncols,
                               WritePhase::OffsetFromReadCell)
                           .isExactTranspose(s.nrows, s.ncols);
    EXPECT_EQ(exact, s.nrows * s.ncols == 1) << s.id();
  }
}

// ---------------------------------------------------------------------------
// Why the tile helps: coalescing of the global write (book 5.4.2).

/// 32-byte sectors one warp's 4-byte accesses touch (what Nsight Compute
/// counts per request; 4 for 32 consecutive aligned floats).
int sectorsTouched(const std::array<long long, 32>& floatIndex) {
  std::set<long long> sectors;
  for (long long i : floatIndex) sectors.insert(i * 4 / 32);
  return static_cast<int>(sectors.size());
}

TEST(HostTransposeMaps, TileMakesTheGlobalWriteCoalesced) {
  constexpr int nrows = 8192, ncols = 8192;
  for (int warp = 0; warp < kBlockX * kBlockY / 32; ++warp) {
    std::array<long long, 32> naiveWrite{}, tiledWrite{}, tiledRead{};
    for (int lane = 0; lane < 32; ++lane) {
      const int t = warp * 32 + lane;
      const int tx = t % kBlockX, ty = t / kBlockX;
      // naiveGmem: thread (row, col) writes out[col][row].
      naiveWrite[lane] = static_cast<long long>(tx) * nrows + ty;
      const Cell w = writeCell(kTile, 3, 5, tx, ty, 0);
      tiledWrite[lane] = static_cast<long long>(w.row) * nrows + w.col;
      const Cell r = readCell(kTile, 3, 5, tx, ty, 0);
      tiledRead[lane] = static_cast<long long>(r.row) * ncols + r.col;
    }
    EXPECT_EQ(sectorsTouched(naiveWrite), 32) << "warp " << warp << ": one sector per lane";
    EXPECT_EQ(sectorsTouched(tiledRead), 4) << "warp " << warp;
    // Two output rows, 16 consecutive floats (64 bytes) of each.
    EXPECT_EQ(sectorsTouched(tiledWrite), 4) << "warp " << warp;
  }
}

// ---------------------------------------------------------------------------
// What the tile costs, and what padding does about it (book 5.4.3).

TEST(HostTransposeMaps, ColumnReadConflictsAndPadding) {
  constexpr auto store = TileAccess::RowStore;
  constexpr auto load = TileAccess::ColumnLoad;
  const TileGeometry padOne{kBlockX, kBlockY, 1, 1};
  const TileGeometry unrolledUnpadded{kBlockX, kBlockY, kUnroll, 0};
  for (int warp = 0; warp < kBlockX * kBlockY / 32; ++warp) {
    SCOPED_TRACE("warp " + std::to_string(warp));
    // Filling the tile row by row is conflict-free whatever the padding.
    EXPECT_EQ(tileConflictWays(kTile, store, 0, warp), 1);
    EXPECT_EQ(tileConflictWays(kPaddedTile, store, 0, warp), 1);
    // Reading a column: 16 rows 32 floats apart share one bank.
    EXPECT_EQ(tileConflictWays(kTile, load, 0, warp), 16);
    EXPECT_EQ(tileConflictWays(padOne, load, 0, warp), 2);
    EXPECT_EQ(tileConflictWays(kPaddedTile, load, 0, warp), 1);
    for (int k = 0; k < kUnroll; ++k) {
      SCOPED_TRACE("tile " + std::to_string(k));
      EXPECT_EQ(tileConflictWays(unrolledUnpadded, load, k, warp), 16);
      EXPECT_EQ(tileConflictWays(kUnrolledPaddedTile, load, k, warp), 1);
      EXPECT_EQ(tileConflictWays(kUnrolledPaddedTile, store, k, warp), 1);
    }
  }
  EXPECT_EQ(kPad, 2);
}

TEST(HostTransposeMaps, TheRightPadDependsOnTheTileHeight) {
  // kPad = 2 is conflict-free for the 16-row tile only; a pitch of
  // 32 / height (mod 32) is the conflict-free one for a height dividing 32.
  // The dynamic kernels keep kPad, so the sweep sees this cost.
  EXPECT_EQ(tileConflictWays(dynamicTile(32, 32, true), TileAccess::ColumnLoad), 2);
  EXPECT_EQ(tileConflictWays(dynamicTile(32, 8, true), TileAccess::ColumnLoad), 2);
  EXPECT_EQ(tileConflictWays(TileGeometry{32, 32, 1, 1}, TileAccess::ColumnLoad), 1);
  EXPECT_EQ(tileConflictWays(TileGeometry{32, 8, 1, 4}, TileAccess::ColumnLoad), 1);
  // A block smaller than a warp: only its lanes count.
  EXPECT_EQ(tileAccessMask(dynamicTile(7, 3, false), 0), (1u << 21) - 1u);
  EXPECT_EQ(tileConflictWays(dynamicTile(7, 3, false), TileAccess::RowStore), 1);
}

TEST(HostTransposeMaps, TileBytes) {
  EXPECT_EQ(kTile.bytes(), 16u * 32u * 4u);
  EXPECT_EQ(kPaddedTile.bytes(), 16u * 34u * 4u);
  EXPECT_EQ(kUnrolledPaddedTile.bytes(), 16u * 66u * 4u);
  EXPECT_EQ(dynamicTile(64, 8, true).bytes(), 8u * 66u * 4u);
  EXPECT_EQ(dynamicTile(64, 8, false).bytes(), 8u * 64u * 4u);
}

// ---------------------------------------------------------------------------
// Grid, reference and launch rules.

TEST(HostTransposeMaps, GridCoversTheMatrix) {
  EXPECT_EQ(gridX(1, 32, 1), 1);
  EXPECT_EQ(gridX(32, 32, 1), 1);
  EXPECT_EQ(gridX(33, 32, 1), 2);
  EXPECT_EQ(gridX(777, 32, 2), 13);
  EXPECT_EQ(gridY(4097, 16), 257);
  EXPECT_EQ(ceilDiv(INT_MAX, 2), INT_MAX / 2 + 1);
}

TEST(HostTransposeReference, TransposesASmallRectangle) {
  const std::vector<int> in = {1, 2, 3,
                               4, 5, 6};  // 2 x 3
  EXPECT_EQ(referenceOutput(Reference::Transpose, in, 2, 3), (std::vector<int>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(referenceOutput(Reference::Copy, in, 2, 3), in);
  EXPECT_EQ(outputCols(Reference::Transpose, 2, 3), 2);
  EXPECT_EQ(outputCols(Reference::Copy, 2, 3), 3);
}

TEST(HostTransposeReference, TransposingTwiceGivesTheInputBack) {
  std::vector<int> in(31 * 33);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i);
  const auto once = referenceOutput(Reference::Transpose, in, 31, 33);
  EXPECT_NE(once, in);
  EXPECT_EQ(referenceOutput(Reference::Transpose, once, 33, 31), in);
}

TEST(HostTransposeLaunch, RulesNameTheProblem) {
  EXPECT_EQ(launchConfigError(true, 1, 32, 16, 1000, 777), "");
  EXPECT_EQ(launchConfigError(false, 2, 8, 2, 1, 1), "");
  EXPECT_EQ(launchConfigError(false, 1, 32, 16, 0, 0), "");  // nothing to do is fine
  EXPECT_NE(launchConfigError(true, 1, 16, 16, 64, 64).find("32 x 16"), std::string::npos);
  EXPECT_NE(launchConfigError(false, 1, 64, 32, 64, 64).find("1024"), std::string::npos);
  EXPECT_NE(launchConfigError(false, 1, 0, 4, 64, 64), "");
  EXPECT_NE(launchConfigError(false, 1, 32, 16, -1, 64).find("negative"), std::string::npos);
  EXPECT_NE(launchConfigError(false, 1, 32, 1, 70000, 64).find("65535"), std::string::npos);
  EXPECT_EQ(launchConfigError(false, 1, 32, 2, 70000, 64), "");
}

}  // namespace
}  // namespace wb::transpose
