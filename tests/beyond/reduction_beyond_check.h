// Runs the reference sum beyond book section 5.3 (reduceInt4Shuffle) on a
// guarded input, which may start anywhere relative to a 16-byte boundary,
// into a poisoned, guarded total, and compares with the 64-bit host sum.
// No GoogleTest here: the benchmark (bench/wb_bench) checks its reference
// kernel and cub::DeviceReduce::Sum with checkTotal before timing them.
#pragma once

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "reduction/beyond.cuh"
#include "reduction/reduction_check.h"
#include "wb/buffer.h"
#include "wb/cuda_check.h"
#include "wb/verify.h"

namespace wb::reduction::beyond::testing {

/// The scratch reduceInt4Shuffle needs, on the device, its counter zeroed.
/// Both arrays have poisoned guard zones and zeroed insides: a launch uses
/// fewer than kMaxSumBlocks block sums, so only writes outside them count.
class SumScratchBuffers {
 public:
  SumScratchBuffers() : blockSums_(kMaxSumBlocks), blocksDone_(1) {
    blockSums_.poison();
    blocksDone_.poison();
    WB_CUDA(cudaMemset(blockSums_.data(), 0, blockSums_.bytes()));
    WB_CUDA(cudaMemset(blocksDone_.data(), 0, blocksDone_.bytes()));
  }
  /// What a launch takes.
  SumScratch view() { return SumScratch{blockSums_.data(), blocksDone_.data()}; }
  /// The counter of finished blocks, which a completed launch leaves at 0.
  unsigned int blocksDone() const { return blocksDone_.download().at(0); }
  /// "" when both scratch arrays kept their guard zones.
  std::string checkGuards() const {
    std::string problem = blockSums_.checkWritten("reduceInt4Shuffle block sums");
    if (problem.empty()) problem = blocksDone_.checkWritten("reduceInt4Shuffle block counter");
    return problem;
  }

 private:
  DeviceBuffer<int> blockSums_;
  DeviceBuffer<unsigned int> blocksDone_;
};

/// A device buffer for @p n input ints that starts @p offset ints (0 to 3)
/// past a 16-byte boundary: the guard zone in front is lengthened by the
/// offset, and the harness's guard zones start 16-byte aligned.
inline DeviceBuffer<int> misalignedInput(std::size_t n, unsigned int offset) {
  return DeviceBuffer<int>(n, DeviceBuffer<int>::kDefaultGuard + offset);
}

/**
 * @brief Checks a whole-input sum written by @p what into @p total: written
 *        (no poison), no write around it, equal to the 64-bit sum of
 *        @p input; and @p in, which holds @p input, unchanged with its guard
 *        zones intact.
 * @return "" when all is well, otherwise every problem found, one per line.
 */
inline std::string checkTotal(const std::string& what, const std::vector<int>& input,
                              const DeviceBuffer<int>& in, const DeviceBuffer<int>& total) {
  std::vector<std::string> problems;
  std::string problem = total.checkWritten(what + " total");
  if (problem.empty()) {
    const std::int64_t want = std::accumulate(input.begin(), input.end(), std::int64_t{0});
    const std::int64_t got = total.download().at(0);
    if (got != want) {
      problem = what + ": the total is " + std::to_string(got) + ", the host sums " +
                std::to_string(want);
    }
  }
  if (!problem.empty()) problems.push_back(problem);

  problem = in.checkWritten(what + " (input)", reduction::testing::inputIndex);
  if (problem.empty() && !input.empty()) {  // no zero-byte copy to a null host pointer
    const std::vector<int> after = in.download();
    problem = describeMismatches(after.data(), input.data(), input.size(),
                                 what + " must leave its input unchanged, but g_idata",
                                 reduction::testing::inputIndex);
  }
  if (!problem.empty()) problems.push_back(problem);

  std::string all;
  for (const std::string& p : problems) all += (all.empty() ? "" : "\n") + p;
  return all;
}

/**
 * @brief Sums @p input with reduceInt4Shuffle, the input starting @p offset
 *        ints past a 16-byte boundary, with @p blocks blocks (0: as many as
 *        reduceInt4ShuffleBlocksHere picks), and checks the result
 *        (checkTotal), the scratch's guards and that the counter is back at 0.
 * @return "" when all is well, otherwise what went wrong.
 */
inline std::string runAndCheckSum(const std::vector<int>& input, unsigned int offset,
                                  unsigned int blocks, SumScratchBuffers& scratch) {
  const std::size_t n = input.size();
  if (blocks == 0) WB_CUDA(reduceInt4ShuffleBlocksHere(n, &blocks));
  const std::string what = "reduceInt4Shuffle on " + std::to_string(n) + " ints starting " +
                           std::to_string(offset) + " ints past a 16-byte boundary, " +
                           std::to_string(blocks) + " block(s)";
  DeviceBuffer<int> in = misalignedInput(n, offset);
  if (input.empty()) {
    in.poison();  // guards only: there is nothing to upload
  } else {
    reduction::testing::uploadGuarded(in, input);
  }
  DeviceBuffer<int> total(1);
  total.poison();
  launchReduceInt4Shuffle(in.data(), n, total.data(), scratch.view(), blocks);
  checkLaunch(what);

  std::string problems = checkTotal(what, input, in, total);
  const std::string scratchProblem = scratch.checkGuards();
  if (!scratchProblem.empty()) problems += (problems.empty() ? "" : "\n") + scratchProblem;
  if (const unsigned int left = scratch.blocksDone(); left != 0) {
    problems += (problems.empty() ? "" : "\n") + what + " left its block counter at " +
                std::to_string(left) + " instead of 0; the next launch would miscount";
  }
  return problems;
}

}  // namespace wb::reduction::beyond::testing
