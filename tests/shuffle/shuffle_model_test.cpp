// Host tests of the section 5.6 model (chapters/shuffle/shuffle_model.h):
// what every lane receives from each shuffle, for a whole warp and for each
// width, worked out by hand from the rules the CUDA programming guide states
// for __shfl_sync, __shfl_up_sync, __shfl_down_sync and __shfl_xor_sync; and
// the generator of the tests' inputs. No GPU needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <utility>
#include <vector>

#include "shuffle/shuffle_inputs.h"
#include "shuffle/shuffle_model.h"

namespace wb::shuffle {
namespace {

constexpr Exchange kAllExchanges[] = {Exchange::Broadcast, Exchange::Up,  Exchange::Down,
                                      Exchange::Wrap,      Exchange::Xor, Exchange::XorArray,
                                      Exchange::Swap,      Exchange::WrapDouble,
                                      Exchange::WrapPlus,  Exchange::XorPlus,
                                      Exchange::XorFirstToLast};

TEST(HostShuffleModel, WidthsArePowersOfTwoUpToAWarp) {
  for (int w : kWidths) EXPECT_TRUE(isValidWidth(w)) << w;
  for (int w : {0, 1, 3, 6, 12, 24, 31, 33, 64}) EXPECT_FALSE(isValidWidth(w)) << w;
}

TEST(HostShuffleModel, BroadcastReadsOneLaneOfEachSegment) {
  for (int lane = 0; lane < kWarpSize; ++lane) EXPECT_EQ(broadcastSource(lane, 3, 32), 3);
  // Width 8: four segments, each reads its own position 3.
  EXPECT_EQ(broadcastSource(0, 3, 8), 3);
  EXPECT_EQ(broadcastSource(9, 3, 8), 11);
  EXPECT_EQ(broadcastSource(31, 3, 8), 27);
  // A source outside the segment is taken modulo the width.
  EXPECT_EQ(broadcastSource(9, 11, 8), 11);
}

TEST(HostShuffleModel, ShiftUpKeepsTheLowestLanesOfEachSegment) {
  EXPECT_EQ(upSource(0, 1, 32), 0);
  EXPECT_EQ(upSource(5, 1, 32), 4);
  EXPECT_EQ(upSource(31, 1, 32), 30);
  // Width 8, delta 2: lanes 8 and 9 have nothing below them in their segment.
  EXPECT_EQ(upSource(8, 2, 8), 8);
  EXPECT_EQ(upSource(9, 2, 8), 9);
  EXPECT_EQ(upSource(10, 2, 8), 8);
  EXPECT_EQ(upSource(15, 2, 8), 13);
}

TEST(HostShuffleModel, ShiftDownKeepsTheHighestLanesOfEachSegment) {
  EXPECT_EQ(downSource(0, 1, 32), 1);
  EXPECT_EQ(downSource(31, 1, 32), 31);
  // Width 16, delta 3: lanes 13-15 and 29-31 keep their value.
  EXPECT_EQ(downSource(12, 3, 16), 15);
  EXPECT_EQ(downSource(13, 3, 16), 13);
  EXPECT_EQ(downSource(15, 3, 16), 15);
  EXPECT_EQ(downSource(16, 3, 16), 19);
  EXPECT_EQ(downSource(29, 3, 16), 29);
}

TEST(HostShuffleModel, WrapGoesRoundTheSegmentBothWays) {
  EXPECT_EQ(wrapSource(0, 2, 32), 2);
  EXPECT_EQ(wrapSource(31, 2, 32), 1);
  EXPECT_EQ(wrapSource(7, 2, 8), 1);
  EXPECT_EQ(wrapSource(15, 2, 8), 9);
  EXPECT_EQ(wrapSource(8, -1, 8), 15);
  EXPECT_EQ(wrapSource(0, -1, 32), 31);
  EXPECT_EQ(wrapSource(17, 1 - 4, 4), 18);  // position 1, three back: position 2
}

TEST(HostShuffleModel, ButterflyPairsLanes) {
  EXPECT_EQ(xorSource(0, 1, 32), 1);
  EXPECT_EQ(xorSource(1, 1, 32), 0);
  EXPECT_EQ(xorSource(3, 16, 32), 19);
  EXPECT_EQ(xorSource(19, 16, 32), 3);
  EXPECT_EQ(xorSource(13, 5, 8), 8);
  // Every exchange with laneMask < width is an involution inside the segment.
  for (int width : kWidths) {
    for (int mask = 1; mask < width; ++mask) {
      for (int lane = 0; lane < kWarpSize; ++lane) {
        const int partner = xorSource(lane, mask, width);
        EXPECT_EQ(segmentStart(partner, width), segmentStart(lane, width));
        EXPECT_EQ(xorSource(partner, mask, width), lane);
      }
    }
  }
}

TEST(HostShuffleModel, ButterflyPastTheSegmentEnd) {
  // The guide's rule for laneMask >= width (outside the exercises' range):
  // a partner past the end of the caller's segment gives no value, one in an
  // earlier segment does.
  EXPECT_EQ(xorSource(0, 8, 8), 0);
  EXPECT_EQ(xorSource(8, 8, 8), 0);
}

TEST(HostShuffleModel, SwapTradesExactlyTwoElementsPerSegment) {
  const ExchangeArgs a{8, 1, 6, 0, 3};
  ASSERT_TRUE(isValidArgs(Exchange::Swap, a));
  int moved = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    for (int i = 0; i < kArrayLength; ++i) {
      const ElementSource s = elementSource(Exchange::Swap, a, lane, i);
      if (s.lane != lane || s.index != i) ++moved;
    }
  }
  EXPECT_EQ(moved, 2 * (kWarpSize / 8));
  const ElementSource toFirst = elementSource(Exchange::Swap, a, 9, 0);
  EXPECT_EQ(toFirst.lane, 14);
  EXPECT_EQ(toFirst.index, 3);
  const ElementSource toSecond = elementSource(Exchange::Swap, a, 14, 3);
  EXPECT_EQ(toSecond.lane, 9);
  EXPECT_EQ(toSecond.index, 0);
}

TEST(HostShuffleModel, EveryExchangeHasValidTestArgumentsAtEveryWidth) {
  for (Exchange e : kAllExchanges) {
    for (int width : kWidths) {
      const std::vector<ExchangeArgs> args = testArgs(e, width);
      EXPECT_FALSE(args.empty()) << static_cast<int>(e) << " width " << width;
      for (const ExchangeArgs& a : args) {
        EXPECT_EQ(a.width, width);
        EXPECT_TRUE(isValidArgs(e, a)) << static_cast<int>(e) << " width " << width;
      }
    }
  }
  // The shifts are tested at both ends of their range.
  const std::vector<ExchangeArgs> up = testArgs(Exchange::Up, 16);
  EXPECT_TRUE(std::any_of(up.begin(), up.end(), [](const ExchangeArgs& a) { return a.lane == 1; }));
  EXPECT_TRUE(std::any_of(up.begin(), up.end(), [](const ExchangeArgs& a) { return a.lane == 15; }));
  const std::vector<ExchangeArgs> wrap = testArgs(Exchange::Wrap, 8);
  EXPECT_TRUE(std::any_of(wrap.begin(), wrap.end(), [](const ExchangeArgs& a) { return a.lane < 0; }));
}

TEST(HostShuffleModel, ExpectedOutputStaysInsideEachWarp) {
  constexpr int kThreads = 3 * kShuffleBlock;
  for (Exchange e : kAllExchanges) {
    if (addsOwnValue(e)) continue;  // sums: ThePlusExchangesAddTheReceivedValue
    const int per = intsPerThread(e);
    std::vector<int> input(static_cast<std::size_t>(kThreads) * per);
    std::iota(input.begin(), input.end(), 0);
    for (int width : kWidths) {
      for (const ExchangeArgs& a : testArgs(e, width)) {
        const std::vector<int> out = expectedOutput(e, a, input, kThreads);
        ASSERT_EQ(out.size(), input.size());
        for (std::size_t i = 0; i < out.size(); ++i) {
          // Value v is element v of the input: it must come from the same
          // warp, and from the same segment of it.
          const int fromThread = out[i] / per;
          const int toThread = static_cast<int>(i) / per;
          ASSERT_EQ(fromThread / kWarpSize, toThread / kWarpSize);
          ASSERT_EQ(segmentStart(fromThread % kWarpSize, width),
                    segmentStart(toThread % kWarpSize, width));
        }
        // Wrap, the butterflies and the swap move every value exactly once.
        if (e == Exchange::Wrap || e == Exchange::Xor || e == Exchange::XorArray ||
            e == Exchange::Swap || e == Exchange::WrapDouble) {
          std::vector<int> sorted = out;
          std::sort(sorted.begin(), sorted.end());
          EXPECT_EQ(sorted, input) << static_cast<int>(e) << " width " << width;
        }
      }
    }
  }
}

// shflDouble is shflWrap on two-word values: both words of each lane's double
// come from the lane shflWrap names, each into its own place.
TEST(HostShuffleModel, ADoubleMovesAsTwoWordsFromOneLane) {
  EXPECT_EQ(intsPerThread(Exchange::WrapDouble), 2);
  for (int width : kWidths) {
    EXPECT_EQ(testArgs(Exchange::WrapDouble, width).size(), testArgs(Exchange::Wrap, width).size());
    for (const ExchangeArgs& a : testArgs(Exchange::WrapDouble, width)) {
      for (int lane = 0; lane < kWarpSize; ++lane) {
        for (int word = 0; word < kIntsPerDouble; ++word) {
          const ElementSource s = elementSource(Exchange::WrapDouble, a, lane, word);
          ASSERT_EQ(s.lane, wrapSource(lane, a.lane, width));
          ASSERT_EQ(s.index, word);
        }
      }
    }
  }
}

// shflWrapPlus and shflXorPlus write their own value plus exactly what
// shflWrap and shflXor would have written.
TEST(HostShuffleModel, ThePlusExchangesAddTheReceivedValue) {
  constexpr int kThreads = 2 * kShuffleBlock;
  std::vector<int> input(kThreads);
  std::iota(input.begin(), input.end(), 1000);
  const std::pair<Exchange, Exchange> pairs[] = {{Exchange::WrapPlus, Exchange::Wrap},
                                                 {Exchange::XorPlus, Exchange::Xor}};
  for (const auto& [plus, plain] : pairs) {
    EXPECT_TRUE(addsOwnValue(plus));
    EXPECT_FALSE(addsOwnValue(plain));
    for (int width : kWidths) {
      ASSERT_EQ(testArgs(plus, width).size(), testArgs(plain, width).size());
      for (const ExchangeArgs& a : testArgs(plus, width)) {
        const std::vector<int> sum = expectedOutput(plus, a, input, kThreads);
        const std::vector<int> moved = expectedOutput(plain, a, input, kThreads);
        for (int g = 0; g < kThreads; ++g) ASSERT_EQ(sum[g], input[g] + moved[g]) << g;
      }
    }
  }
  // The butterfly's pairs end with the same sum: lanes 0 and 1 at laneMask 1.
  const std::vector<int> xorPlus = expectedOutput(Exchange::XorPlus, {32, 1}, input, kWarpSize);
  EXPECT_EQ(xorPlus[0], 1000 + 1001);
  EXPECT_EQ(xorPlus[1], 1000 + 1001);
}

// The book's end-of-chapter exercise 13 (its answer's output, width 16,
// laneMask 1): `value[3] = shfl_xor(value[0])` changes only the last
// element of each lane, to its partner's first.
TEST(HostShuffleModel, FirstToLastMovesOneElementPerLane) {
  std::vector<int> input(static_cast<std::size_t>(kWarpSize) * kArrayLength);
  std::iota(input.begin(), input.end(), 0);
  const std::vector<int> out =
      expectedOutput(Exchange::XorFirstToLast, {16, 1}, input, kWarpSize);
  const std::vector<int> lanes01 = {0, 1, 2, 4, 4, 5, 6, 0};
  EXPECT_EQ(std::vector<int>(out.begin(), out.begin() + 8), lanes01);
  const std::vector<int> lanes23 = {8, 9, 10, 12, 12, 13, 14, 8};
  EXPECT_EQ(std::vector<int>(out.begin() + 8, out.begin() + 16), lanes23);
}

TEST(HostShuffleModel, ExpectedOutputOfAWholeWarp) {
  std::vector<int> input(kWarpSize);
  std::iota(input.begin(), input.end(), 100);
  // Shift up by 2 at width 4: lanes 0, 1 of every group of four keep theirs.
  const std::vector<int> up = expectedOutput(Exchange::Up, {4, 2}, input, kWarpSize);
  EXPECT_EQ(std::vector<int>(up.begin(), up.begin() + 8),
            (std::vector<int>{100, 101, 100, 101, 104, 105, 104, 105}));
  // Shift down by 1 at width 2: lane pairs, the upper one keeps its value.
  const std::vector<int> down = expectedOutput(Exchange::Down, {2, 1}, input, kWarpSize);
  EXPECT_EQ(std::vector<int>(down.begin(), down.begin() + 4),
            (std::vector<int>{101, 101, 103, 103}));
}

// A second, independent statement of the same rules: the source-lane
// computation of PTX's shfl.sync (PTX ISA, "shfl.sync": a clamp value and a
// segment mask packed in operand c), with the c that CUDA's __shfl*_sync
// pass for a width: ((32 - width) << 8), or-ed with 0x1f except for up.
// Returns the lane whose value @p lane receives.
enum class PtxMode { Up, Down, Bfly, Idx };
int ptxSource(PtxMode mode, int lane, int b, int width) {
  const int c = mode == PtxMode::Up ? (32 - width) << 8 : ((32 - width) << 8) | 0x1f;
  const int bval = b & 31;
  const int cval = c & 31;
  const int segmask = (c >> 8) & 31;
  const int maxLane = (lane & segmask) | (cval & ~segmask);
  const int minLane = lane & segmask;
  int j = lane;
  bool inRange = false;
  switch (mode) {
    case PtxMode::Up: j = lane - bval; inRange = j >= maxLane; break;
    case PtxMode::Down: j = lane + bval; inRange = j <= maxLane; break;
    case PtxMode::Bfly: j = lane ^ bval; inRange = j <= maxLane; break;
    case PtxMode::Idx: j = minLane | (bval & ~segmask); inRange = j <= maxLane; break;
  }
  return inRange ? j : lane;
}

TEST(HostShuffleModel, AgreesWithThePtxRulesForEveryLaneWidthAndArgument) {
  for (int width : kWidths) {
    for (int lane = 0; lane < kWarpSize; ++lane) {
      for (int s = -2 * kWarpSize; s < 2 * kWarpSize; ++s) {
        ASSERT_EQ(ptxSource(PtxMode::Idx, lane, s, width), broadcastSource(lane, s, width))
            << "width " << width << ", lane " << lane << ", srcLane " << s;
        ASSERT_EQ(ptxSource(PtxMode::Idx, lane, lane + s, width), wrapSource(lane, s, width))
            << "width " << width << ", lane " << lane << ", offset " << s;
      }
      for (int d = 0; d < kWarpSize; ++d) {
        ASSERT_EQ(ptxSource(PtxMode::Up, lane, d, width), upSource(lane, d, width))
            << "width " << width << ", lane " << lane << ", delta " << d;
        ASSERT_EQ(ptxSource(PtxMode::Down, lane, d, width), downSource(lane, d, width))
            << "width " << width << ", lane " << lane << ", delta " << d;
        ASSERT_EQ(ptxSource(PtxMode::Bfly, lane, d, width), xorSource(lane, d, width))
            << "width " << width << ", lane " << lane << ", laneMask " << d;
      }
    }
  }
}

// The mutant shflUp__width_minus_delta passes width - delta: by the same
// rules it gets some lane wrong for every width and delta the tests use.
TEST(HostShuffleModel, AWidthThatIsNotAPowerOfTwoBreaksTheShiftUp) {
  for (int width : kWidths) {
    for (const ExchangeArgs& a : testArgs(Exchange::Up, width)) {
      bool differs = false;
      for (int lane = 0; lane < kWarpSize; ++lane) {
        differs = differs || ptxSource(PtxMode::Up, lane, a.lane, width - a.lane) !=
                                 upSource(lane, a.lane, width);
      }
      EXPECT_TRUE(differs) << "width " << width << ", delta " << a.lane;
    }
  }
}

TEST(HostShuffleInputs, DistinctReproducibleAndClearOfSmallValues) {
  const std::vector<int> a = testing::distinctInput(1536, 7);
  EXPECT_EQ(a, testing::distinctInput(1536, 7));
  EXPECT_NE(a, testing::distinctInput(1536, 8));
  EXPECT_EQ(std::set<int>(a.begin(), a.end()).size(), a.size());
  EXPECT_EQ(*std::min_element(a.begin(), a.end()), testing::kFirstValue);
  EXPECT_EQ(*std::max_element(a.begin(), a.end()), testing::kFirstValue + 1535);
}

}  // namespace
}  // namespace wb::shuffle
