// Correctness of every reduction kernel (book section 5.3): every partial
// sum, written into poisoned memory with guard zones on both sides, equals
// the 64-bit host reference; the input keeps its guards, and stays unchanged
// unless the kernel works in place; and each kernel declares the shared
// memory its exercise is about.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "reduction/reduction.cuh"
#include "reduction_check.h"
#include "reduction_inputs.h"
#include "wb/gtest_support.h"

namespace wb::reduction {
namespace {

// Input sizes that break the book's assumptions: a single element, less
// than a warp, one off either side of a block (128) and of an unrolled span
// (512), a size that is a multiple of nothing, seven unrolled spans and a
// ragged tail, 2^16 + 1, 2^20, and 2^24 + 3 (more than L2 and odd).
constexpr unsigned int kSizes[] = {
    1,   2,   31,   127, 128, 129, 511, 512, 513, 1000, 4 * 128 * 7 + 5, 65537, 1u << 20,
    (1u << 24) + 3};

class GpuReductionSize : public GpuTestWithParam<std::tuple<ReduceKernel, unsigned int>> {};

TEST_P(GpuReductionSize, SumsEveryBlock) {
  const auto& [k, n] = GetParam();
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  EXPECT_TRUE(noProblem(testing::runAndCheck(k, testing::randomInput(n, seed))));
}

INSTANTIATE_TEST_SUITE_P(
    Reduction, GpuReductionSize,
    ::testing::Combine(::testing::ValuesIn(reductionKernels()), ::testing::ValuesIn(kSizes)),
    [](const ::testing::TestParamInfo<std::tuple<ReduceKernel, unsigned int>>& info) {
      return std::string(std::get<0>(info.param).exercise) + "_n" +
             std::to_string(std::get<1>(info.param));
    });

class GpuReduction : public GpuTestWithParam<ReduceKernel> {};

// Sizes the fixed list does not think of: a few dozen drawn from the seed,
// from 1 to 2^21, each with its own random input. Stops at the first size
// that fails.
TEST_P(GpuReduction, RandomSizeSweep) {
  const ReduceKernel& k = GetParam();
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  const std::vector<unsigned int> sizes = testing::randomSizes(36, 1u << 21, seed);
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    SCOPED_TRACE("n = " + std::to_string(sizes[i]));
    ASSERT_TRUE(noProblem(testing::runAndCheck(k, testing::randomInput(sizes[i], seed + i + 1))));
  }
}

// The exercises are about where the partial sums live: a shared-memory
// kernel must declare its array (statically, 128 ints, or dynamically, with
// no static shared memory at all), and a global-memory kernel must not use
// shared memory. Sums computed elsewhere would pass the output tests but
// teach nothing.
TEST_P(GpuReduction, DeclaresItsSharedArray) {
  const ReduceKernel& k = GetParam();
  // Only a working kernel earns this check: an empty starter kernel declares
  // no static shared memory either, which is what the dynamic and the
  // global-memory exercises ask for.
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  ASSERT_TRUE(noProblem(testing::runAndCheck(k, testing::randomInput(3 * k.span() + 37, seed))))
      << "make " << k.exercise << " correct first";
  cudaFuncAttributes attr{};
  WB_CUDA(cudaFuncGetAttributes(&attr, k.function()));
  switch (k.shared) {
    case SharedArray::Static:
      EXPECT_EQ(attr.sharedSizeBytes, k.staticSmemBytes())
          << k.exercise << " must declare `__shared__ int smem[kReduceBlock];` ("
          << k.staticSmemBytes() << " bytes of static shared memory)";
      break;
    case SharedArray::Dynamic:
      EXPECT_EQ(attr.sharedSizeBytes, 0u)
          << k.exercise << " must keep its array in dynamic shared memory (extern __shared__), "
          << "but declares " << attr.sharedSizeBytes << " bytes of static shared memory";
      break;
    case SharedArray::None:
      EXPECT_EQ(attr.sharedSizeBytes, 0u)
          << k.exercise << " reduces in global memory and must not declare shared memory";
      break;
    case SharedArray::WarpSums:
      // Only the shuffle reductions keep one sum per warp, and
      // tests/shuffle/shuffle_test.cu checks their arrays.
      ADD_FAILURE() << k.exercise << " is listed as a section 5.3 kernel with warp sums";
      break;
  }
}

INSTANTIATE_TEST_SUITE_P(Reduction, GpuReduction, ::testing::ValuesIn(reductionKernels()),
                         [](const ::testing::TestParamInfo<ReduceKernel>& info) {
                           return std::string(info.param.exercise);
                         });

}  // namespace
}  // namespace wb::reduction
