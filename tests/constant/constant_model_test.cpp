// Host tests of the section 5.5 model: the stencil's coefficients, the
// reference stencil and its boundary condition, the tolerance the GPU tests
// allow, and the constant-cache model the profile tests compare with Nsight
// Compute. No GPU needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "constant/constant_model.h"
#include "constant_inputs.h"

namespace wb::constant {
namespace {

// The stencil with unit spacing differentiates x exactly and cancels x^3,
// x^5 and x^7 (eighth order): sum_k a_k (k^p - (-k)^p) is 1 for p = 1 and 0
// for p = 3, 5, 7, up to the coefficients' rounding to float.
TEST(HostStencilModel, CoefficientsAreTheEighthOrderFirstDerivative) {
  for (int p : {1, 3, 5, 7}) {
    double sum = 0.0;
    for (int k = 1; k <= kRadius; ++k) sum += kCoefficients[k - 1] * 2.0 * std::pow(k, p);
    EXPECT_NEAR(sum, p == 1 ? 1.0 : 0.0, 1e-5 * std::pow(kRadius, p)) << "power " << p;
  }
  EXPECT_FLOAT_EQ(kCoefficients[0], 0.8f);
  EXPECT_FLOAT_EQ(kCoefficients[1], -0.2f);
  EXPECT_NEAR(kCoefficients[2], 0.03809, 1e-5);   // the book's rounding
  EXPECT_NEAR(kCoefficients[3], -0.00357, 1e-5);  // the book's rounding
}

TEST(HostStencilModel, DifferentiatesALineInTheInterior) {
  std::vector<float> line(40);
  for (std::size_t i = 0; i < line.size(); ++i) line[i] = 3.0f * static_cast<float>(i) - 7.0f;
  const std::vector<double> out = referenceStencil(line);
  for (std::size_t i = kRadius; i + kRadius < line.size(); ++i) {
    EXPECT_NEAR(out[i], 3.0, 1e-5) << "at " << i;
  }
}

// Elements outside [0, n) read as 0, at both ends.
TEST(HostStencilModel, OutsideTheInputReadsZero) {
  EXPECT_EQ(referenceStencil({2.0f}), std::vector<double>{0.0});
  const std::vector<double> two = referenceStencil({1.0f, 2.0f});
  EXPECT_DOUBLE_EQ(two[0], static_cast<double>(kCoefficients[0]) * 2.0);
  EXPECT_DOUBLE_EQ(two[1], -static_cast<double>(kCoefficients[0]) * 1.0);
  const std::vector<float> ones(9, 1.0f);
  const std::vector<double> out = referenceStencil(ones);
  EXPECT_DOUBLE_EQ(out[4], 0.0);  // every neighbour inside: the differences cancel
  EXPECT_GT(out[0], 0.0);         // the left neighbours are missing
  EXPECT_LT(out[8], 0.0);         // the right neighbours are missing
  EXPECT_NEAR(out[0], -out[8], 1e-12);
}

TEST(HostStencilModel, BlocksCoverEveryOutput) {
  EXPECT_EQ(stencilBlocksFor(1), 1u);
  EXPECT_EQ(stencilBlocksFor(kStencilBlock), 1u);
  EXPECT_EQ(stencilBlocksFor(kStencilBlock + 1), 2u);
  EXPECT_EQ(kStencilSmem, kStencilBlock + 8);
}

// What the tolerance's comment claims: a float evaluation stays inside it,
// and a missing term (a halo element read as 0) is far outside it.
TEST(HostStencilModel, ToleranceAdmitsRoundingAndRejectsAMissingTerm) {
  const std::vector<float> in = testing::randomStencilInput(500, 7);
  const std::vector<double> reference = referenceStencil(in);
  for (std::size_t i = 0; i < in.size(); ++i) {
    const auto at = static_cast<long long>(i);
    float sum = 0.0f;
    float missing = 0.0f;  // the same without in[i + 4]
    for (int k = 1; k <= kRadius; ++k) {
      const float plus = static_cast<float>(elementOrZero(in, at + k));
      const float minus = static_cast<float>(elementOrZero(in, at - k));
      sum += kCoefficients[k - 1] * (plus - minus);
      missing += kCoefficients[k - 1] * ((k == kRadius ? 0.0f : plus) - minus);
    }
    const double want = reference[i];
    const double tol = stencilTolerance(in, i);
    ASSERT_LE(std::fabs(sum - want), tol) << "at " << i;
    if (i + kRadius < in.size()) {
      ASSERT_GT(std::fabs(missing - want), 50 * tol) << "at " << i;
    }
  }
}

TEST(HostStencilInputs, MagnitudesStayBetweenHalfAndOne) {
  const std::vector<float> in = testing::randomStencilInput(10000, 3);
  bool negative = false;
  bool positive = false;
  for (float x : in) {
    ASSERT_GE(std::fabs(x), 0.5f);
    ASSERT_LE(std::fabs(x), 1.0f);
    negative = negative || x < 0;
    positive = positive || x > 0;
  }
  EXPECT_TRUE(negative && positive);
  EXPECT_EQ(testing::randomStencilInput(100, 9), testing::randomStencilInput(100, 9));
}

// The correctness tests hand each stencil coefficients drawn from its input:
// a kernel that writes the book's values into its code computes another
// stencil. The same input gets the same ones (a failure replays with its
// seed); each stays within a factor of 0.5 to 2 of the book's, sign kept.
TEST(HostStencilInputs, CoefficientsAreDrawnFromTheInput) {
  const std::vector<float> in = testing::randomStencilInput(1000, 5);
  const std::array<float, kRadius> coef = testing::coefficientsFor(in);
  EXPECT_EQ(coef, testing::coefficientsFor(testing::randomStencilInput(1000, 5)));
  EXPECT_NE(coef, testing::coefficientsFor(testing::randomStencilInput(1000, 6)));
  EXPECT_NE(coef, kCoefficients);
  for (int k = 0; k < kRadius; ++k) {
    const float factor = coef[k] / kCoefficients[k];
    EXPECT_GE(factor, 0.5f) << "a" << k + 1;
    EXPECT_LE(factor, 2.0f) << "a" << k + 1;
  }
  // With them, the book's coefficients miss the tolerance by far.
  const std::vector<double> drawn = referenceStencil(in, coef);
  const std::vector<double> book = referenceStencil(in);
  std::size_t apart = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (std::fabs(drawn[i] - book[i]) > stencilTolerance(in, i, coef)) ++apart;
  }
  EXPECT_GT(apart, in.size() * 9 / 10);
}

TEST(HostConstantModel, BroadcastIsOnePass) {
  WarpWords same{};
  same.fill(17);
  EXPECT_EQ(constantPasses(same), 1);
}

TEST(HostConstantModel, EveryDistinctWordIsAPass) {
  WarpWords words{};
  for (int lane = 0; lane < kWarpLanes; ++lane) words[lane] = static_cast<unsigned int>(lane);
  EXPECT_EQ(constantPasses(words), 32);
  for (int lane = 0; lane < kWarpLanes; ++lane) words[lane] = static_cast<unsigned int>(lane % 4);
  EXPECT_EQ(constantPasses(words), 4);
}

TEST(HostConstantModel, InactiveLanesDoNotCount) {
  WarpWords words{};
  for (int lane = 0; lane < kWarpLanes; ++lane) words[lane] = static_cast<unsigned int>(lane);
  EXPECT_EQ(constantPasses(words, 0x0000000Fu), 4);
  EXPECT_EQ(constantPasses(words, 0u), 0);
}

TEST(HostConstantModel, LookupPassesAreTheSpreadUpToAWarp) {
  for (unsigned int start : {0u, 5u, kLookupWords - 3}) {
    for (unsigned int r : {0u, 1u, kLookupReads - 1}) {
      EXPECT_EQ(lookupPasses(start, r, 0), 1);  // the broadcast
      for (unsigned int distinct = 1; distinct <= 40; ++distinct) {
        EXPECT_EQ(lookupPasses(start, r, distinct), static_cast<int>(std::min(distinct, 32u)))
            << "start " << start << ", read " << r << ", distinct " << distinct;
      }
    }
  }
}

TEST(HostConstantModel, LookupWordsWrapAroundTheTable) {
  EXPECT_EQ(lookupWord(kLookupWords - 1, 1, 0, 0), 0u);
  EXPECT_EQ(lookupWord(kLookupWords - 1, 0, 3, 2), 0u);
  EXPECT_EQ(lookupWord(10, 2, 5, 0), 12u);
  EXPECT_EQ(lookupWord(10, 2, 5, 4), 13u);
}

TEST(HostConstantModel, ReferenceSumsTheNamedWords) {
  std::vector<int> table(kLookupWords);
  for (unsigned int w = 0; w < kLookupWords; ++w) table[w] = static_cast<int>(w);
  // Broadcast from 0: words 0..63 whatever the lane.
  EXPECT_EQ(referenceLookup(table, 0, 0, 0), 63 * 64 / 2);
  EXPECT_EQ(referenceLookup(table, 37, 0, 0), 63 * 64 / 2);
  // Lane 5 with a spread of 4 reads one word further on: 64 more.
  EXPECT_EQ(referenceLookup(table, 5, 0, 4), 63 * 64 / 2 + 64);
}

}  // namespace
}  // namespace wb::constant
