// The book's exercise 8 (block sizes 64, 128, 512 and 1024 for the
// reductions): a kernel marked `anyBlock` in the contract must be correct
// with every block size of kAnyBlockSizes, each launch giving it that many
// ints of dynamic shared memory. A kernel that keeps reduceSmemDyn's 128
// (its index, its one whole-block step) passes the section's tests, which
// launch 128 threads, and fails here; one that starts its steps at a fixed
// 512 reads past a smaller block's array into poisoned shared memory.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "reduction/reduction.cuh"
#include "reduction_check.h"
#include "reduction_inputs.h"
#include "wb/gtest_support.h"

namespace wb::reduction {
namespace {

std::vector<ReduceKernel> anyBlockKernels() {
  std::vector<ReduceKernel> found;
  for (const ReduceKernel& k : reductionKernels()) {
    if (k.anyBlock) found.push_back(k);
  }
  return found;
}

// For each block size B: a single element, one short of a block, a block,
// one past it, three blocks and a ragged tail, and 2^20 + 3 (many blocks,
// odd). Given as multiples of B so every size meets the same edges.
struct SizeOfBlocks {
  unsigned int blocks;  ///< whole blocks
  int extra;            ///< elements added to blocks * B (may be negative)
};
constexpr SizeOfBlocks kShapes[] = {{0, 1}, {1, -1}, {1, 0}, {1, 1}, {3, 37}};

class GpuReductionBlockSize
    : public GpuTestWithParam<std::tuple<ReduceKernel, int>> {};

TEST_P(GpuReductionBlockSize, SumsEveryBlock) {
  const auto& [kernel, threads] = GetParam();
  const ReduceKernel k = kernel.withThreads(threads);
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  SCOPED_TRACE("launched with blocks of " + std::to_string(threads) + " threads and " +
               std::to_string(k.dynamicSmemBytes()) + " bytes of dynamic shared memory");
  std::vector<unsigned int> sizes;
  for (const SizeOfBlocks& s : kShapes) {
    sizes.push_back(static_cast<unsigned int>(static_cast<int>(s.blocks * k.span()) + s.extra));
  }
  sizes.push_back((1u << 20) + 3);
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    SCOPED_TRACE("n = " + std::to_string(sizes[i]));
    ASSERT_TRUE(noProblem(testing::runAndCheck(k, testing::randomInput(sizes[i], seed + i))));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Reduction, GpuReductionBlockSize,
    ::testing::Combine(::testing::ValuesIn(anyBlockKernels()), ::testing::ValuesIn(kAnyBlockSizes)),
    [](const ::testing::TestParamInfo<std::tuple<ReduceKernel, int>>& info) {
      return std::string(std::get<0>(info.param).exercise) + "_block" +
             std::to_string(std::get<1>(info.param));
    });

}  // namespace
}  // namespace wb::reduction
