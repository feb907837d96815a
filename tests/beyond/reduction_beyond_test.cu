// Correctness of the reference sum beyond book section 5.3,
// reduceInt4Shuffle: every size from a single int up, inputs starting at
// every 4-byte offset from a 16-byte boundary (so the int4 loads meet a
// ragged head as well as a ragged tail), any grid size, and back-to-back
// launches sharing one scratch. Output and input are guarded and poisoned.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <tuple>

#include "reduction/beyond.cuh"
#include "reduction/reduction_inputs.h"
#include "reduction_beyond_check.h"
#include "wb/gtest_support.h"

namespace wb::reduction::beyond {
namespace {

// 0 (nothing to add), 1-3 and 5 (no whole vector, or one and a tail), 127
// (less than one block's first round), 4096 + 3 (a ragged tail after whole
// rounds), 2^24 + 3 (more than L2 and far more than one grid-stride round).
constexpr std::size_t kSizes[] = {0, 1, 2, 3, 5, 127, 4096 + 3, (std::size_t{1} << 24) + 3};
// Ints past a 16-byte boundary at which the input starts.
constexpr unsigned int kOffsets[] = {0, 1, 2, 3};

class GpuReduceInt4Shuffle
    : public GpuTestWithParam<std::tuple<std::size_t, unsigned int>> {};

TEST_P(GpuReduceInt4Shuffle, SumsEveryInt) {
  const auto& [n, offset] = GetParam();
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  testing::SumScratchBuffers scratch;
  EXPECT_TRUE(noProblem(
      testing::runAndCheckSum(reduction::testing::randomInput(n, seed), offset, 0, scratch)));
}

INSTANTIATE_TEST_SUITE_P(
    Beyond, GpuReduceInt4Shuffle,
    ::testing::Combine(::testing::ValuesIn(kSizes), ::testing::ValuesIn(kOffsets)),
    [](const ::testing::TestParamInfo<std::tuple<std::size_t, unsigned int>>& info) {
      return "n" + std::to_string(std::get<0>(info.param)) + "_offset" +
             std::to_string(std::get<1>(info.param));
    });

// The sum must not depend on the grid: one block walks the whole input, the
// largest grid the scratch allows leaves most threads without a vector.
class GpuReduceInt4ShuffleGrid : public GpuTestWithParam<unsigned int> {};

TEST_P(GpuReduceInt4ShuffleGrid, AnyGridGivesTheSameSum) {
  const unsigned int blocks = GetParam();
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  testing::SumScratchBuffers scratch;
  const std::vector<int> input = reduction::testing::randomInput((1u << 20) + 5, seed);
  EXPECT_TRUE(noProblem(testing::runAndCheckSum(input, 1, blocks, scratch)));
}

INSTANTIATE_TEST_SUITE_P(Beyond, GpuReduceInt4ShuffleGrid,
                         ::testing::Values(1u, 2u, 7u, 1000u, kMaxSumBlocks),
                         [](const ::testing::TestParamInfo<unsigned int>& info) {
                           return "blocks" + std::to_string(info.param);
                         });

// The last block resets the counter, so one scratch serves launch after
// launch; a kernel that forgot would miscount from the second launch on.
TEST(GpuReduceInt4ShuffleScratch, BackToBackLaunchesShareOneScratch) {
  WB_REQUIRE_GPU();
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  testing::SumScratchBuffers scratch;
  const std::size_t sizes[] = {100003, 7, 1u << 18, 0, 4099};
  for (std::size_t i = 0; i < std::size(sizes); ++i) {
    SCOPED_TRACE("launch " + std::to_string(i + 1) + ", n = " + std::to_string(sizes[i]));
    ASSERT_TRUE(noProblem(testing::runAndCheckSum(
        reduction::testing::randomInput(sizes[i], seed + i), static_cast<unsigned int>(i % 4), 0,
        scratch)));
  }
}

// The grid-size rule, on the host.
TEST(HostReduceInt4ShuffleBlocks, FillsTheGpuOnceAndNoMore) {
  const std::size_t perBlock = std::size_t{kSumThreads} * kSumLoadsInFlight * 4;
  EXPECT_EQ(reduceInt4ShuffleBlocks(0, 132, 8), 1u);
  EXPECT_EQ(reduceInt4ShuffleBlocks(1, 132, 8), 1u);
  EXPECT_EQ(reduceInt4ShuffleBlocks(perBlock, 132, 8), 1u);
  EXPECT_EQ(reduceInt4ShuffleBlocks(perBlock + 1, 132, 8), 2u);
  EXPECT_EQ(reduceInt4ShuffleBlocks(std::size_t{1} << 26, 132, 8), 132u * 8u);
  EXPECT_EQ(reduceInt4ShuffleBlocks(std::size_t{1} << 40, 10000, 8), kMaxSumBlocks);
  EXPECT_EQ(reduceInt4ShuffleBlocks(std::size_t{1} << 26, 0, 0), 1u);
}

}  // namespace
}  // namespace wb::reduction::beyond
