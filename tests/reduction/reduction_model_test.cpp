// Host tests of the section 5.3 contract's arithmetic (block spans, grid
// sizes, the 64-bit reference, the int32 exactness bound) and of the random
// inputs the GPU tests use. No GPU needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <numeric>
#include <set>
#include <vector>

#include "reduction/reduction_model.h"
#include "reduction_inputs.h"

namespace wb::reduction {
namespace {

TEST(HostReductionModel, BlockSpans) {
  EXPECT_EQ(kReduceBlock, 128);
  EXPECT_EQ(elementsPerBlock(1), 128u);
  EXPECT_EQ(elementsPerBlock(kUnrollFactor), 512u);
}

TEST(HostReductionModel, GridCoversEveryElementOnce) {
  EXPECT_EQ(blocksFor(1, 1), 1u);
  EXPECT_EQ(blocksFor(128, 1), 1u);
  EXPECT_EQ(blocksFor(129, 1), 2u);
  EXPECT_EQ(blocksFor(1, 4), 1u);
  EXPECT_EQ(blocksFor(512, 4), 1u);
  EXPECT_EQ(blocksFor(513, 4), 2u);
  // Not grid / 4 of the one-element-per-thread grid: that drops the tail.
  EXPECT_EQ(blocksFor(4 * 128 * 7 + 5, 4), 8u);
  EXPECT_EQ(blocksFor((1u << 24) + 3, 1), 131073u);
  EXPECT_EQ(blocksFor((1u << 24) + 3, 4), 32769u);
  // No overflow at the top of the unsigned range.
  EXPECT_EQ(blocksFor(UINT_MAX, 1), 33554432u);
  EXPECT_EQ(blocksFor(UINT_MAX, 4), 8388608u);
}

TEST(HostReductionModel, LastPartialSumStopsAtTheEndOfTheInput) {
  std::vector<int> input(300);
  std::iota(input.begin(), input.end(), 1);  // 1, 2, ..., 300
  const std::vector<std::int64_t> partials = referencePartialSums(input, 128);
  ASSERT_EQ(partials.size(), 3u);
  EXPECT_EQ(partials[0], 128 * 129 / 2);             // 1 + ... + 128
  EXPECT_EQ(partials[1], (129 + 256) * 128 / 2);     // 129 + ... + 256
  EXPECT_EQ(partials[2], (257 + 300) * 44 / 2);      // 257 + ... + 300
  EXPECT_EQ(referencePartialSums(input, 512), std::vector<std::int64_t>{300 * 301 / 2});
}

TEST(HostReductionModel, ReferenceSumsInSixtyFourBits) {
  const std::vector<int> input(3, INT_MAX);
  EXPECT_EQ(referencePartialSums(input, 128), std::vector<std::int64_t>{3LL * INT_MAX});
}

TEST(HostReductionModel, BoundedInputsCannotOverflowInt32) {
  const std::int64_t worst = static_cast<std::int64_t>(kInputMagnitude) * kMaxExactElements;
  EXPECT_LE(worst, INT_MAX);
  EXPECT_GE(-worst, INT_MIN);
  // The bound is not loose by orders of magnitude: twice the length could
  // overflow.
  EXPECT_GT(2 * worst, INT_MAX);
}

TEST(HostReductionInputs, ValuesAreBoundedAndNeverZeroOrOne) {
  const std::vector<int> input = testing::randomInput(100000, 42);
  std::set<int> seen(input.begin(), input.end());
  EXPECT_EQ(seen.count(0), 0u);
  EXPECT_EQ(seen.count(1), 0u);
  EXPECT_EQ(*seen.begin(), -kInputMagnitude);
  EXPECT_EQ(*seen.rbegin(), kInputMagnitude);
  EXPECT_EQ(seen.size(), 31u);  // every other value of [-16, 16] occurs
}

TEST(HostReductionInputs, TheSeedReproducesTheInput) {
  EXPECT_EQ(testing::randomInput(1000, 7), testing::randomInput(1000, 7));
  EXPECT_NE(testing::randomInput(1000, 7), testing::randomInput(1000, 8));
}

TEST(HostReductionInputs, SweepSizesSpreadOverTheRange) {
  const unsigned int maxN = 1u << 21;
  const std::vector<unsigned int> sizes = testing::randomSizes(1000, maxN, 3);
  EXPECT_EQ(sizes.size(), 1000u);
  EXPECT_GE(*std::min_element(sizes.begin(), sizes.end()), 1u);
  EXPECT_LE(*std::max_element(sizes.begin(), sizes.end()), maxN);
  const auto below = [&](unsigned int limit) {
    return std::count_if(sizes.begin(), sizes.end(), [&](unsigned int n) { return n < limit; });
  };
  // Log-uniform: about a third below 2^7, a third above 2^14.
  EXPECT_GT(below(128), 200);
  EXPECT_LT(below(1u << 14), 800);
}

}  // namespace
}  // namespace wb::reduction
