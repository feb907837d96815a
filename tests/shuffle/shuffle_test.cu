// Correctness of every shuffle kernel (book section 5.6).
//
// Exchanges: for every width (32, 16, 8, 4, 2) and every argument set the
// model's testArgs gives (the edges of each range and a value inside it),
// the output of several warps of several blocks, written into poisoned
// memory with guard zones on both sides, equals element for element the
// permutation shuffle_model.h predicts; and no exchange declares shared
// memory.
//
// Reductions: every partial sum of each shuffle reduction equals the 64-bit
// host reference, with the reduction section's own check
// (tests/reduction/reduction_check.h), at the reduction tests' edge sizes
// and at random sizes; and each declares exactly the shared memory its
// contract names: kWarpSums warp sums, or for reduceSmemShfl reduceSmem's
// 128 ints.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "reduction/reduction_check.h"
#include "reduction/reduction_inputs.h"
#include "shuffle/shuffle.cuh"
#include "shuffle_check.h"
#include "wb/gtest_support.h"

namespace wb::shuffle {
namespace {

// --- exchanges --------------------------------------------------------------

class GpuExchangeWidth : public GpuTestWithParam<std::tuple<ExchangeKernel, int>> {};

// Three blocks of four warps: a kernel that ignores blockIdx, uses the
// thread index where the lane belongs, or gets one warp right by accident
// fails on some warp.
TEST_P(GpuExchangeWidth, WritesTheModelPermutation) {
  const auto& [k, width] = GetParam();
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  EXPECT_TRUE(noProblem(testing::runAndCheckWidth(k, width, kShuffleBlocks, seed)));
}

INSTANTIATE_TEST_SUITE_P(
    Shuffle, GpuExchangeWidth,
    ::testing::Combine(::testing::ValuesIn(exchangeKernels()), ::testing::ValuesIn(kWidths)),
    [](const ::testing::TestParamInfo<std::tuple<ExchangeKernel, int>>& info) {
      return std::string(std::get<0>(info.param).exercise) + "_width" +
             std::to_string(std::get<1>(info.param));
    });

class GpuExchange : public GpuTestWithParam<ExchangeKernel> {};

// One block, the smallest launch: a kernel that assumes several blocks (or
// a grid of a given size) fails here.
TEST_P(GpuExchange, SingleBlock) {
  const ExchangeKernel& k = GetParam();
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  EXPECT_TRUE(noProblem(testing::runAndCheckWidth(k, 32, 1, seed)));
  EXPECT_TRUE(noProblem(testing::runAndCheckWidth(k, 8, 1, seed + 100)));
}

// The section is about exchanging values without shared memory: a kernel
// that stages the warp's values in a shared array passes the output tests
// but teaches nothing.
TEST_P(GpuExchange, DeclaresItsSharedMemory) {
  const ExchangeKernel& k = GetParam();
  // Only a working kernel earns this check: an empty starter kernel
  // declares no shared memory either.
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  ASSERT_TRUE(noProblem(testing::runAndCheckWidth(k, 32, 1, seed)))
      << "make " << k.exercise << " correct first";
  cudaFuncAttributes attr{};
  WB_CUDA(cudaFuncGetAttributes(&attr, k.function()));
  EXPECT_EQ(attr.sharedSizeBytes, 0u)
      << k.exercise << " must exchange values with warp shuffles, from register to register, "
      << "but declares " << attr.sharedSizeBytes << " bytes of static shared memory";
}

INSTANTIATE_TEST_SUITE_P(Shuffle, GpuExchange, ::testing::ValuesIn(exchangeKernels()),
                         [](const ::testing::TestParamInfo<ExchangeKernel>& info) {
                           return std::string(info.param.exercise);
                         });

// --- reductions ---------------------------------------------------------------

namespace rt = reduction::testing;
using reduction::ReduceKernel;

// The reduction tests' sizes: a single element, less than a warp, one off
// either side of a block (128) and of an unrolled span (512), sizes that are
// a multiple of nothing, 2^16 + 1, 2^20, and 2^24 + 3 (more than L2, odd).
constexpr unsigned int kSizes[] = {
    1,   2,   31,   33,  127, 128, 129, 511, 512, 513, 1000, 4 * 128 * 7 + 5, 65537, 1u << 20,
    (1u << 24) + 3};

class GpuShuffleReductionSize
    : public GpuTestWithParam<std::tuple<ReduceKernel, unsigned int>> {};

TEST_P(GpuShuffleReductionSize, SumsEveryBlock) {
  const auto& [k, n] = GetParam();
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  EXPECT_TRUE(noProblem(rt::runAndCheck(k, rt::randomInput(n, seed))));
}

INSTANTIATE_TEST_SUITE_P(
    Shuffle, GpuShuffleReductionSize,
    ::testing::Combine(::testing::ValuesIn(shuffleReductionKernels()),
                       ::testing::ValuesIn(kSizes)),
    [](const ::testing::TestParamInfo<std::tuple<ReduceKernel, unsigned int>>& info) {
      return std::string(std::get<0>(info.param).exercise) + "_n" +
             std::to_string(std::get<1>(info.param));
    });

/// The shuffle reductions whose shared array is @p shared.
std::vector<ReduceKernel> shuffleReductionsKeeping(reduction::SharedArray shared) {
  std::vector<ReduceKernel> out;
  for (const ReduceKernel& k : shuffleReductionKernels()) {
    if (k.shared == shared) out.push_back(k);
  }
  return out;
}

std::string kernelName(const ::testing::TestParamInfo<ReduceKernel>& info) {
  return info.param.exercise;
}

// Sizes the fixed list does not think of: a few dozen drawn from the seed,
// from 1 to 2^21, each with its own random input. Stops at the first size
// that fails.
void sweepRandomSizes(const ReduceKernel& k) {
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  const std::vector<unsigned int> sizes = rt::randomSizes(36, 1u << 21, seed);
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    SCOPED_TRACE("n = " + std::to_string(sizes[i]));
    ASSERT_TRUE(noProblem(rt::runAndCheck(k, rt::randomInput(sizes[i], seed + i + 1))));
  }
}

/// Expects @p k, once correct, to declare k.staticSmemBytes() of static
/// shared memory, as @p declaration (@p what) says, and no other.
void expectStaticSharedArray(const ReduceKernel& k, const std::string& declaration,
                             const std::string& what) {
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  ASSERT_TRUE(noProblem(rt::runAndCheck(k, rt::randomInput(3 * k.span() + 37, seed))))
      << "make " << k.exercise << " correct first";
  cudaFuncAttributes attr{};
  WB_CUDA(cudaFuncGetAttributes(&attr, k.function()));
  EXPECT_EQ(attr.sharedSizeBytes, k.staticSmemBytes())
      << k.exercise << " must declare " << declaration << " (" << what << ", "
      << k.staticSmemBytes() << " bytes) and no other shared memory";
}

// The reductions that add each warp's values by shuffle first.
class GpuShuffleReduction : public GpuTestWithParam<ReduceKernel> {};

TEST_P(GpuShuffleReduction, RandomSizeSweep) { sweepRandomSizes(GetParam()); }

// The point of the shuffle reduction: a warp's partial sums stay in its
// registers, and shared memory carries only one sum per warp. A kernel that
// keeps reduceSmem's 128-int array passes the output tests but misses it.
TEST_P(GpuShuffleReduction, DeclaresItsSharedWarpSums) {
  expectStaticSharedArray(GetParam(), "`__shared__ int smem[kWarpSums];`",
                          std::to_string(kWarpSums) + " warp sums");
}

INSTANTIATE_TEST_SUITE_P(Shuffle, GpuShuffleReduction,
                         ::testing::ValuesIn(shuffleReductionsKeeping(
                             reduction::SharedArray::WarpSums)),
                         kernelName);

// reduceSmemShfl: the tree in shared memory first, shuffles only for the
// last warp's 32 sums.
class GpuSmemShuffleReduction : public GpuTestWithParam<ReduceKernel> {};

TEST_P(GpuSmemShuffleReduction, RandomSizeSweep) { sweepRandomSizes(GetParam()); }

// The tree's rounds live in reduceSmem's array: 128 ints, every thread's
// element. A kernel that keeps only warp sums there is reduceShfl, whose
// warps shuffle before they meet in shared memory; the method check sees
// its shuffles too.
TEST_P(GpuSmemShuffleReduction, DeclaresItsSharedArray) {
  expectStaticSharedArray(GetParam(), "`__shared__ int smem[kReduceBlock];`",
                          "reduceSmem's array, one int per thread");
}

INSTANTIATE_TEST_SUITE_P(Shuffle, GpuSmemShuffleReduction,
                         ::testing::ValuesIn(shuffleReductionsKeeping(
                             reduction::SharedArray::Static)),
                         kernelName);

}  // namespace
}  // namespace wb::shuffle
