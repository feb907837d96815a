// Runs one exchange kernel on a guarded input and a poisoned, guarded output
// and compares every element with the permutation shuffle_model.h predicts.
// Shared by the correctness tests, the kernel runner and the benchmark.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "shuffle/shuffle.cuh"
#include "shuffle_inputs.h"
#include "wb/buffer.h"
#include "wb/cuda_check.h"
#include "wb/shared_poison.h"
#include "wb/verify.h"

namespace wb::shuffle {

/// Test names and failure messages show a kernel by its exercise name.
inline void PrintTo(const ExchangeKernel& k, std::ostream* os) { *os << k.exercise; }

namespace testing {

/// The arguments as the kernel's parameters: "width 8, srcLane 3".
inline std::string describeArgs(const ExchangeKernel& k, const ExchangeArgs& a) {
  std::string first;
  switch (k.exchange) {
    case Exchange::Broadcast: first = "srcLane"; break;
    case Exchange::Up:
    case Exchange::Down: first = "delta"; break;
    case Exchange::Wrap:
    case Exchange::WrapDouble:
    case Exchange::WrapPlus: first = "offset"; break;
    case Exchange::Xor:
    case Exchange::XorArray:
    case Exchange::XorPlus:
    case Exchange::XorFirstToLast: first = "laneMask"; break;
    case Exchange::Swap: first = "firstLane"; break;
  }
  std::string s = "width " + std::to_string(a.width) + ", " + first + " " + std::to_string(a.lane);
  if (k.exchange == Exchange::Swap) {
    s += ", secondLane " + std::to_string(a.secondLane) + ", firstIdx " +
         std::to_string(a.firstIdx) + ", secondIdx " + std::to_string(a.secondIdx);
  }
  return s;
}

/// Names output element i as the thread that wrote it: "out[37] (block 0,
/// warp 1, lane 5)", with the array element for the array exchanges.
inline IndexFormatter outputIndex(const ExchangeKernel& k) {
  const int per = k.intsPerThread();
  // shflDouble's out holds doubles: name the double and which half is wrong.
  const bool words = k.exchange == Exchange::WrapDouble;
  return [per, words](std::size_t i) {
    const std::size_t g = i / per;
    const std::size_t t = g % kShuffleBlock;
    std::string s = "out[" + std::to_string(words ? g : i) + "] (block " +
                    std::to_string(g / kShuffleBlock) + ", warp " +
                    std::to_string(t / kWarpSize) + ", lane " + std::to_string(t % kWarpSize);
    if (words) {
      s += i % per == 0 ? ", its low 32 bits" : ", its high 32 bits";
    } else if (per > 1) {
      s += ", element " + std::to_string(i % per);
    }
    return s + ")";
  };
}

/// Says where a wrong output element's value came from: the input is
/// distinct, so each value names one input element (thread and element).
inline std::string originOf(const ExchangeKernel& k, const std::vector<int>& input, int value) {
  const int per = k.intsPerThread();
  for (std::size_t j = 0; j < input.size(); ++j) {
    if (input[j] == value) {
      const std::size_t g = j / per;
      std::string s = "the value of block " + std::to_string(g / kShuffleBlock) + ", lane " +
                      std::to_string(g % kShuffleBlock % kWarpSize) + " of warp " +
                      std::to_string(g % kShuffleBlock / kWarpSize);
      if (per > 1) s += ", element " + std::to_string(j % per);
      return s;
    }
  }
  return "a value that is in no input element";
}

/**
 * @brief Launches @p k with arguments @p a over @p blocks blocks on a
 *        guarded input drawn from @p seed and a poisoned, guarded output.
 * @return "" when every element is exactly what shuffle_model.h says, no
 *         guard was written and the input is unchanged; otherwise what is
 *         wrong, naming the arguments, the first wrong element and the
 *         lane its value came from.
 */
inline std::string runAndCheck(const ExchangeKernel& k, const ExchangeArgs& a, int blocks,
                               std::uint64_t seed) {
  const std::string what = std::string(k.exercise) + " (" + describeArgs(k, a) + ")";
  const int threads = blocks * kShuffleBlock;
  const std::size_t n = static_cast<std::size_t>(threads) * k.intsPerThread();
  const std::vector<int> input = distinctInput(n, seed);
  DeviceBuffer<int> in(n);
  in.poison();
  in.upload(input);
  DeviceBuffer<int> out(n);
  out.poison();
  poisonSharedMemory();
  launch(k, in.data(), out.data(), a, blocks);
  checkLaunch(k.exercise);

  const IndexFormatter where = outputIndex(k);
  std::string problem = out.checkWritten(what, where);
  if (!problem.empty()) return problem;
  const std::vector<int> got = out.download();
  const std::vector<int> want = expectedOutput(k.exchange, a, input, threads);
  problem = describeMismatches(got.data(), want.data(), n, what, where);
  if (!problem.empty()) {
    for (std::size_t i = 0; i < n; ++i) {
      if (got[i] != want[i]) {
        if (addsOwnValue(k.exchange)) {
          // A sum names no input element; name the value the lane should
          // have added to its own, and what it added instead.
          const int own = input[i];
          problem += "\n  " + where(i) + " added " + originOf(k, input, got[i] - own) +
                     " to its own value; the contract adds " +
                     originOf(k, input, want[i] - own);
        } else {
          problem += "\n  " + where(i) + " holds " + originOf(k, input, got[i]) +
                     "; the contract gives it " + originOf(k, input, want[i]);
        }
        break;
      }
    }
    return problem;
  }
  problem = in.checkWritten(what + " (input in)", [](std::size_t i) {
    return "in[" + std::to_string(i) + "]";
  });
  if (!problem.empty()) return problem;
  const std::vector<int> after = in.download();
  return describeMismatches(after.data(), input.data(), n,
                            what + " must leave its input unchanged, but in",
                            [](std::size_t i) { return "in[" + std::to_string(i) + "]"; });
}

/// runAndCheck for every argument set testArgs gives at @p width; stops at
/// the first that fails.
inline std::string runAndCheckWidth(const ExchangeKernel& k, int width, int blocks,
                                    std::uint64_t seed) {
  std::uint64_t s = seed;
  for (const ExchangeArgs& a : testArgs(k.exchange, width)) {
    const std::string problem = runAndCheck(k, a, blocks, s++);
    if (!problem.empty()) return problem;
  }
  return "";
}

}  // namespace testing
}  // namespace wb::shuffle
