// Host tests of the negative-delta exercise (book section 5.6, the book's
// end-of-chapter exercise 10), wb::shuffle::shflUpSourceLane. They run on
// the CPU and judge each implementation (starter, solutions), each linked
// into its own copy of these tests. Every call of the exercise's function
// is made in a child process (wb::callIsolatedEach); the expected lanes are
// written out here, most of them as an H100 printed them.
#include <gtest/gtest.h>

#include <climits>
#include <cstddef>
#include <string>
#include <vector>

#include "shuffle/shuffle.cuh"
#include "wb/isolated.h"
#include "wb/isolated_expect.h"

namespace wb::shuffle {
namespace {

// What lanes 0 to 31 receive from __shfl_up_sync(0xffffffff, lane, delta,
// width) for one delta and width.
struct Row {
  int delta, width;
  std::vector<int> sources;
};

std::string describe(int lane, int delta, int width) {
  return "shflUpSourceLane(" + std::to_string(lane) + ", " + std::to_string(delta) + ", " +
         std::to_string(width) + ")";
}

// Wrong lanes reported one by one; the rest are counted.
constexpr int kReportedMismatches = 6;

// Every lane of every row in one child process, compared lane by lane: a
// wrong rule gets a few examples and a count, not a line per lane.
void expectRows(const std::vector<Row>& rows) {
  const std::size_t count = rows.size() * kWarpSize;
  const std::vector<IsolatedResult> got = callIsolatedEach(count, [&rows](std::size_t i) {
    const Row& row = rows[i / kWarpSize];
    return static_cast<double>(
        shflUpSourceLane(static_cast<int>(i % kWarpSize), row.delta, row.width));
  });
  int wrong = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const Row& row = rows[i / kWarpSize];
    const int lane = static_cast<int>(i % kWarpSize);
    const int expected = row.sources[lane];
    if (got[i].kind == IsolatedResult::Kind::Returned && got[i].value == expected) continue;
    if (++wrong <= kReportedMismatches) {
      ADD_FAILURE() << describe(lane, row.delta, row.width) << " " << got[i].describe()
                    << "; expected lane " << expected;
    }
  }
  EXPECT_EQ(wrong, 0) << wrong << " of " << count << " calls got a wrong answer";
}

// Lanes 0 to 31 each keeping their own value.
std::vector<int> ownLanes() {
  std::vector<int> lanes(kWarpSize);
  for (int lane = 0; lane < kWarpSize; ++lane) lanes[lane] = lane;
  return lanes;
}

// An ordinary shift up by @p shift (0 to 31): lane L receives lane
// L - shift where L % width >= shift, and keeps its own value elsewhere.
std::vector<int> shiftedUp(int shift, int width) {
  std::vector<int> lanes = ownLanes();
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (lane % width >= shift) lanes[lane] = lane - shift;
  }
  return lanes;
}

TEST(HostShflUpSourceLane, MeasuredOnAnH100) {
  // docs/results/book-exercises-nvidia-h100.md, "Exercise 10": one warp,
  // out[lane] = __shfl_up_sync(0xffffffff, lane, (unsigned)delta, width).
  std::vector<int> minusTwo = ownLanes();  // 0 1 2 ... 29 0 1
  minusTwo[30] = 0;
  minusTwo[31] = 1;
  std::vector<int> minusOne = ownLanes();  // 0 1 2 ... 30 0
  minusOne[31] = 0;
  std::vector<int> thirtyFour = ownLanes();  // 0 1 0 1 2 ... 29
  for (int lane = 2; lane < kWarpSize; ++lane) thirtyFour[lane] = lane - 2;
  std::vector<int> thirtyFourBy16 = ownLanes();  // 0 1 0 ... 13 16 17 16 ... 29
  for (int lane = 2; lane < kWarpSize; ++lane) {
    if (lane % 16 >= 2) thirtyFourBy16[lane] = lane - 2;
  }
  expectRows({
      {-2, 32, minusTwo},
      {-1, 32, minusOne},
      {30, 32, minusTwo},
      {34, 32, thirtyFour},
      {-2, 16, ownLanes()},
      {30, 16, ownLanes()},
      {34, 16, thirtyFourBy16},
      {-2, 8, ownLanes()},
  });
}

TEST(HostShflUpSourceLane, OrdinaryDeltas) {
  // The deltas of the shflUp exercise: 1 <= delta < width.
  expectRows({
      {1, 32, shiftedUp(1, 32)},
      {2, 32, shiftedUp(2, 32)},
      {2, 8, shiftedUp(2, 8)},
      {3, 4, shiftedUp(3, 4)},
      {1, 2, shiftedUp(1, 2)},
      {15, 16, shiftedUp(15, 16)},
  });
}

TEST(HostShflUpSourceLane, OnlyTheLowFiveBitsShift) {
  // A delta whose low five bits are 0 shifts by nothing: every lane keeps
  // its own value. -30 is 2 (mod 32), -17 is 15, and a width of 1 leaves
  // every lane alone whatever the delta.
  expectRows({
      {0, 32, ownLanes()},
      {32, 32, ownLanes()},
      {-32, 16, ownLanes()},
      {INT_MIN, 32, ownLanes()},
      {-30, 32, shiftedUp(2, 32)},
      {-17, 16, shiftedUp(15, 16)},
      {INT_MAX, 32, shiftedUp(31, 32)},
      {-2, 1, ownLanes()},
      {5, 1, ownLanes()},
  });
}

TEST(HostShflUpSourceLane, RejectsInvalidArguments) {
  struct Call {
    int lane, delta, width;
    const char* argument;  // the one its message must name
  };
  const std::vector<Call> calls = {
      {-1, 1, 32, "lane"}, {32, 1, 32, "lane"},  {0, 1, 0, "width"},   {0, 1, 3, "width"},
      {0, 1, 12, "width"}, {0, 1, 64, "width"},  {0, 1, -32, "width"},
  };
  const std::vector<IsolatedResult> got = callIsolatedEach(calls.size(), [&calls](std::size_t i) {
    return static_cast<double>(shflUpSourceLane(calls[i].lane, calls[i].delta, calls[i].width));
  });
  for (std::size_t i = 0; i < calls.size(); ++i) {
    expectInvalidArgumentNaming(got[i], describe(calls[i].lane, calls[i].delta, calls[i].width),
                                calls[i].argument);
  }
}

}  // namespace
}  // namespace wb::shuffle
