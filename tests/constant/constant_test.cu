// Correctness of the kernels of book section 5.5. The stencils: every output
// within the rounding bound of the double-precision reference, at both ends
// of the input and across every block edge, on poisoned outputs with guard
// zones on both sides of the input and the output (a read outside in[0, n)
// brings in a NaN), with the coefficients only where the kernel must read
// them (NaN elsewhere). The lookups: every sum exact.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "constant/constant.cuh"
#include "constant_check.h"
#include "constant_inputs.h"
#include "wb/gtest_support.h"

namespace wb::constant {
namespace {

// Sizes that break the assumptions a stencil makes: a single element (both
// halos empty), fewer elements than the radius, fewer than a warp, one off
// either side of a block (256), a size that is a multiple of nothing, and a
// large odd size (about a million, 3907 blocks and a ragged tail).
constexpr unsigned int kStencilSizes[] = {1,   2,   3,   4,    5,    7,      31,     255,
                                          256, 257, 511, 1000, 4099, 65537, 1000003};

class GpuStencilSize : public GpuTestWithParam<std::tuple<StencilKernel, unsigned int>> {};

TEST_P(GpuStencilSize, MatchesTheReference) {
  const auto& [k, n] = GetParam();
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  EXPECT_TRUE(noProblem(testing::runAndCheckStencil(k, testing::randomStencilInput(n, seed))));
}

INSTANTIATE_TEST_SUITE_P(
    Constant, GpuStencilSize,
    ::testing::Combine(::testing::ValuesIn(stencilKernels()), ::testing::ValuesIn(kStencilSizes)),
    [](const ::testing::TestParamInfo<std::tuple<StencilKernel, unsigned int>>& info) {
      return std::string(std::get<0>(info.param).exercise) + "_n" +
             std::to_string(std::get<1>(info.param));
    });

class GpuStencil : public GpuTestWithParam<StencilKernel> {};

// Sizes the fixed list does not think of: a few dozen drawn from the seed,
// from 1 to 2^21. Stops at the first size that fails.
TEST_P(GpuStencil, RandomSizeSweep) {
  const StencilKernel& k = GetParam();
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  const std::vector<unsigned int> sizes = testing::randomSizes(30, 1u << 21, seed);
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    SCOPED_TRACE("n = " + std::to_string(sizes[i]));
    ASSERT_TRUE(noProblem(
        testing::runAndCheckStencil(k, testing::randomStencilInput(sizes[i], seed + i + 1))));
  }
}

// The exercises are about where the coefficients come from, but all of
// them stage the input and its halo in the contract's shared array. A
// stencil that reads its neighbours straight from global memory passes the
// output tests and teaches nothing.
TEST_P(GpuStencil, DeclaresItsSharedArray) {
  const StencilKernel& k = GetParam();
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  ASSERT_TRUE(noProblem(
      testing::runAndCheckStencil(k, testing::randomStencilInput(3 * kStencilBlock + 37, seed))))
      << "make " << k.exercise << " correct first";
  cudaFuncAttributes attr{};
  WB_CUDA(cudaFuncGetAttributes(&attr, k.function()));
  EXPECT_EQ(attr.sharedSizeBytes, kStencilSmem * sizeof(float))
      << k.exercise << " must stage its inputs and halo in `__shared__ float smem[kStencilSmem];` ("
      << kStencilSmem * sizeof(float) << " bytes of static shared memory)";
}

INSTANTIATE_TEST_SUITE_P(Constant, GpuStencil, ::testing::ValuesIn(stencilKernels()),
                         [](const ::testing::TestParamInfo<StencilKernel>& info) {
                           return std::string(info.param.exercise);
                         });

// The lookups: sizes around a warp and a block, and for constantScattered
// several spreads, from one word (a broadcast after all) to 32. The start
// is near the end of the table, so the reads wrap around it.
constexpr unsigned int kLookupSizes[] = {1, 31, 32, 33, 255, 256, 257, 100003};
constexpr unsigned int kDistinct[] = {1, 2, 7, 32};
constexpr unsigned int kStart = kLookupWords - 24;

class GpuLookupSize
    : public GpuTestWithParam<std::tuple<LookupKernel, unsigned int, unsigned int>> {};

TEST_P(GpuLookupSize, SumsEveryThreadsReads) {
  const auto& [k, n, distinct] = GetParam();
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  EXPECT_TRUE(noProblem(
      testing::runAndCheckLookup(k, testing::randomTable(seed), n, kStart, distinct)));
}

std::string lookupCaseName(
    const ::testing::TestParamInfo<std::tuple<LookupKernel, unsigned int, unsigned int>>& info) {
  const LookupKernel& k = std::get<0>(info.param);
  std::string name = std::string(k.exercise) + "_n" + std::to_string(std::get<1>(info.param));
  if (k.scattered) name += "_distinct" + std::to_string(std::get<2>(info.param));
  return name;
}

// constantBroadcast takes no spread: its cases pass 1, which it ignores.
INSTANTIATE_TEST_SUITE_P(Broadcast, GpuLookupSize,
                         ::testing::Combine(::testing::Values(*findLookupKernel("constantBroadcast")),
                                            ::testing::ValuesIn(kLookupSizes),
                                            ::testing::Values(1u)),
                         lookupCaseName);
INSTANTIATE_TEST_SUITE_P(Scattered, GpuLookupSize,
                         ::testing::Combine(::testing::Values(*findLookupKernel("constantScattered")),
                                            ::testing::ValuesIn(kLookupSizes),
                                            ::testing::ValuesIn(kDistinct)),
                         lookupCaseName);

class GpuLookup : public GpuTestWithParam<LookupKernel> {};

// Random sizes, starts and spreads, each with its own table.
TEST_P(GpuLookup, RandomSizeSweep) {
  const LookupKernel& k = GetParam();
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  const std::vector<unsigned int> sizes = testing::randomSizes(20, 1u << 20, seed);
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const auto start = static_cast<unsigned int>((seed + 97 * i) % kLookupWords);
    const auto distinct = static_cast<unsigned int>(1 + (seed / 7 + i) % 32);
    SCOPED_TRACE("n = " + std::to_string(sizes[i]) + ", start = " + std::to_string(start) +
                 ", distinct = " + std::to_string(distinct));
    ASSERT_TRUE(noProblem(testing::runAndCheckLookup(k, testing::randomTable(seed + i + 1),
                                                     sizes[i], start, distinct)));
  }
}

INSTANTIATE_TEST_SUITE_P(Constant, GpuLookup, ::testing::ValuesIn(lookupKernels()),
                         [](const ::testing::TestParamInfo<LookupKernel>& info) {
                           return std::string(info.param.exercise);
                         });

}  // namespace
}  // namespace wb::constant
