// Host tests of the section 5.2 model: the index maps and the bank-conflict
// ways they imply, against the values the book derives and Nsight Compute
// measures (docs: metrics page). No GPU needed.
#include <gtest/gtest.h>

#include <algorithm>
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
