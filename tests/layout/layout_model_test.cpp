// Host tests of the section 5.2 model: the index maps and the bank-conflict
// ways they imply, against the values the book derives and Nsight Compute
// measures (docs: metrics page). No GPU needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <numeric>

#include "layout/layout_maps.h"

namespace wb::layout {
namespace {

TEST(HostBankModel, BanksAreFourBytesWideAndWrapAfter32) {
  EXPECT_EQ(bank::bankOf(0), 0);
  EXPECT_EQ(bank::bankOf(4), 1);
  EXPECT_EQ(bank::bankOf(124), 31);
  EXPECT_EQ(bank::bankOf(128), 0);
}

TEST(HostBankModel, BroadcastOfOneWordIsOneWay) {
  bank::WarpAddresses same{};
  EXPECT_EQ(bank::conflictWays(same), 1);
}

TEST(HostBankModel, StrideOfTwoWordsIsTwoWay) {
  bank::WarpAddresses a{};
  for (int lane = 0; lane < 32; ++lane) a[lane] = lane * 8;
  EXPECT_EQ(bank::conflictWays(a), 2);
}

TEST(HostBankModel, InactiveLanesDoNotCount) {
  bank::WarpAddresses a{};
  for (int lane = 0; lane < 32; ++lane) a[lane] = lane * 128;  // all in bank 0
  EXPECT_EQ(bank::conflictWays(a), 32);
  EXPECT_EQ(bank::conflictWays(a, 0x0000000Fu), 4);
  EXPECT_EQ(bank::conflictWays(a, 0u), 0);
}

TEST(HostLayoutModel, SquareWays) {
  EXPECT_EQ(conflictWays(kSquare, Access::Row, false), 1);
  EXPECT_EQ(conflictWays(kSquare, Access::Column, false), 32);
  EXPECT_EQ(conflictWays(kSquare, Access::Column, true), 1);  // padded by one int
}

TEST(HostLayoutModel, RectangleWays) {
  EXPECT_EQ(conflictWays(kRect, Access::Row, false), 1);
  EXPECT_EQ(conflictWays(kRect, Access::Column, false), 16);
  EXPECT_EQ(conflictWays(kRect, Access::Column, true), 1);  // padded by kRect.pad = 2
}

TEST(HostLayoutModel, RectangleNeedsTwoIntsOfPadding) {
  TileShape onePad = kRect;
  onePad.pad = 1;
  EXPECT_EQ(conflictWays(onePad, Access::Column, true), 2);
  EXPECT_EQ(kRect.pad, 2);
  EXPECT_EQ(kSquare.pad, 1);
}

TEST(HostLayoutModel, EveryWarpOfTheBlockBehavesAlike) {
  for (const TileShape& s : {kSquare, kRect}) {
    for (int warp = 0; warp < s.elements() / 32; ++warp) {
      EXPECT_EQ(conflictWays(s, Access::Column, false, warp), s.dimY) << "warp " << warp;
      EXPECT_EQ(conflictWays(s, Access::Column, true, warp), 1) << "warp " << warp;
    }
  }
}

// The profile check grades each kernel's wavefronts per request against
// these ways (tests/runner/layout_kernels.cu takes them from the model):
// every exercise's store and load on both tiles, written out by hand. The
// end-of-chapter exercises move the conflict to the store (setColReadRowDyn)
// and take it away with padding (setColReadRowPad: a column store meets the
// banks exactly as a column load does).
TEST(HostLayoutModel, EveryExercisesWays) {
  struct Ways {
    const char* exercise;
    int squareStore, squareLoad, rectStore, rectLoad;
  };
  const Ways table[] = {
      {"setRowReadRow", 1, 1, 1, 1},        {"setColReadCol", 32, 32, 16, 16},
      {"setColReadRow", 32, 1, 16, 1},      {"setRowReadCol", 1, 32, 1, 16},
      {"setRowReadColDyn", 1, 32, 1, 16},   {"setRowReadColPad", 1, 1, 1, 1},
      {"setRowReadColDynPad", 1, 1, 1, 1},  {"setColReadRowDyn", 32, 1, 16, 1},
      {"setColReadRowPad", 1, 1, 1, 1},
  };
  ASSERT_EQ(std::size(table), std::size(kLayoutPatterns));
  for (std::size_t i = 0; i < std::size(table); ++i) {
    const Ways& w = table[i];
    const LayoutPattern& p = kLayoutPatterns[i];
    ASSERT_STREQ(p.exercise, w.exercise);
    EXPECT_EQ(conflictWays(kSquare, p.store, p.padded), w.squareStore) << w.exercise;
    EXPECT_EQ(conflictWays(kSquare, p.load, p.padded), w.squareLoad) << w.exercise;
    EXPECT_EQ(conflictWays(kRect, p.store, p.padded), w.rectStore) << w.exercise;
    EXPECT_EQ(conflictWays(kRect, p.load, p.padded), w.rectLoad) << w.exercise;
  }
}

// Column store, row load, with or without padding and dynamic storage:
// the output is each block's tile transposed (square) or the book's
// rectangle permutation, thread t reading what thread (t % 32) * 16 + t / 32
// stored.
TEST(HostLayoutModel, ColumnStoreRowLoadOutputIgnoresPadding) {
  const auto square = expectedOutput(kSquare, Access::Column, Access::Row, false, 2);
  for (int b = 0; b < 2; ++b) {
    for (int t = 0; t < 1024; ++t) {
      ASSERT_EQ(square[b * 1024 + t], b * 1024 + (t % 32) * 32 + t / 32) << "thread " << t;
    }
  }
  EXPECT_EQ(expectedOutput(kSquare, Access::Column, Access::Row, true, 2), square);
  const auto rect = expectedOutput(kRect, Access::Column, Access::Row, false, 1);
  for (int t = 0; t < 512; ++t) ASSERT_EQ(rect[t], (t % 32) * 16 + t / 32) << "thread " << t;
  EXPECT_EQ(expectedOutput(kRect, Access::Column, Access::Row, true, 1), rect);
}

TEST(HostLayoutModel, MapsAreOneToOneOnTheTile) {
  for (const TileShape& s : {kSquare, kRect}) {
    for (bool padded : {false, true}) {
      for (Access a : {Access::Row, Access::Column}) {
        std::vector<int> offsets;
        for (int t = 0; t < s.elements(); ++t) {
          const int off = tileOffset(s, a, padded, t % s.dimX, t / s.dimX);
          EXPECT_EQ(off % s.pitch(padded) < s.dimX, true) << "offset " << off << " is padding";
          offsets.push_back(off);
        }
        std::sort(offsets.begin(), offsets.end());
        EXPECT_TRUE(std::adjacent_find(offsets.begin(), offsets.end()) == offsets.end());
      }
    }
  }
}

TEST(HostLayoutModel, SameStoreAndLoadIsTheIdentity) {
  for (Access a : {Access::Row, Access::Column}) {
    const auto out = expectedOutput(kRect, a, a, false, 2);
    std::vector<int> identity(out.size());
    std::iota(identity.begin(), identity.end(), 0);
    EXPECT_EQ(out, identity);
  }
}

TEST(HostLayoutModel, SquareRowStoreColumnLoadTransposesEachBlock) {
  const auto out = expectedOutput(kSquare, Access::Row, Access::Column, false, 2);
  for (int b = 0; b < 2; ++b) {
    for (int ty = 0; ty < 32; ++ty) {
      for (int tx = 0; tx < 32; ++tx) {
        ASSERT_EQ(out[b * 1024 + ty * 32 + tx], b * 1024 + tx * 32 + ty);
      }
    }
  }
}

TEST(HostLayoutModel, RectangleRowStoreColumnLoadMatchesTheBook) {
  // Thread t reads element (t % 16, t / 16) of the 16 x 32 tile, which the
  // row store filled with (t % 16) * 32 + t / 16.
  const auto out = expectedOutput(kRect, Access::Row, Access::Column, false, 1);
  for (int t = 0; t < 512; ++t) ASSERT_EQ(out[t], (t % 16) * 32 + t / 16) << "thread " << t;
  // Padding changes where things live, not what is read.
  EXPECT_EQ(expectedOutput(kRect, Access::Row, Access::Column, true, 1), out);
}

}  // namespace
}  // namespace wb::layout
