// Runs one reduction kernel on a guarded input and a poisoned, guarded
// output and compares every partial sum with the 64-bit host reference.
// Shared by the correctness and the performance tests (a performance claim
// about a wrong kernel means nothing, so the performance tests check first).
#pragma once

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "reduction/reduction.cuh"
#include "wb/buffer.h"
#include "wb/cuda_check.h"
#include "wb/shared_poison.h"
#include "wb/verify.h"

namespace wb::reduction {

/// Test names and failure messages show a kernel by its exercise name.
inline void PrintTo(const ReduceKernel& k, std::ostream* os) { *os << k.exercise; }

namespace testing {

/// Names partial sum b as the block that wrote it and the input it covers:
/// "g_odata[3] (block 3, input elements [1536, 2048))".
inline IndexFormatter partialSumIndex(const ReduceKernel& k, unsigned int n) {
  return [span = std::size_t{k.span()}, n = std::size_t{n}](std::size_t b) {
    const std::size_t first = b * span;
    const std::size_t end = std::min(first + span, n);
    return "g_odata[" + std::to_string(b) + "] (block " + std::to_string(b) +
           ", input elements [" + std::to_string(first) + ", " + std::to_string(end) + "))";
  };
}

/// "g_idata[i]": positions in the input.
inline std::string inputIndex(std::size_t i) { return "g_idata[" + std::to_string(i) + "]"; }

/// A device copy of @p input with poisoned guard zones on both sides: a
/// kernel that reads past the end adds a poison word (about 2^31) to a
/// partial sum, one that writes past it changes a guard.
inline void uploadGuarded(DeviceBuffer<int>& in, const std::vector<int>& input) {
  in.poison();
  in.upload(input);
}

/**
 * @brief Checks the partial sums @p k left in @p out for an input of @p n
 *        elements against @p want (referencePartialSums): every one written,
 *        none past the end, each exact.
 * @return "" when all is well, else the first wrong block.
 */
inline std::string checkPartialSums(const ReduceKernel& k, unsigned int n,
                                    const DeviceBuffer<int>& out,
                                    const std::vector<std::int64_t>& want) {
  const IndexFormatter where = partialSumIndex(k, n);
  std::string problem = out.checkWritten(k.exercise, where);
  if (problem.empty()) {
    const std::vector<int> written = out.download();
    const std::vector<std::int64_t> got(written.begin(), written.end());
    problem = describeMismatches(got.data(), want.data(), want.size(),
                                 std::string(k.exercise) + " partial sums", where);
  }
  return problem;
}

/// "" when the input @p in a reduction kernel ran on is as it must be: no
/// write past either end, whatever the kernel (in-place partial sums stay
/// far below the poison word, so the check for poison inside [0, n) that
/// checkWritten also makes cannot misfire), and, unless the kernel reduces
/// in place, every element still that of @p input.
inline std::string checkInput(const ReduceKernel& k, const std::vector<int>& input,
                              const DeviceBuffer<int>& in) {
  std::string problem =
      in.checkWritten(std::string(k.exercise) + " (input g_idata)", inputIndex);
  if (!problem.empty() || k.inPlace) return problem;
  const std::vector<int> after = in.download();
  return describeMismatches(after.data(), input.data(), input.size(),
                            std::string(k.exercise) +
                                " must leave its input unchanged, but g_idata",
                            inputIndex);
}

/**
 * @brief Checks what @p k left in @p out and @p in after a launch over
 *        @p input: every partial sum written and equal to the reference, no
 *        write outside either buffer, and the input unchanged unless the
 *        kernel works in place.
 * @return "" when all is well; otherwise every problem found, one per line,
 *         naming the kernel and the first wrong block or element.
 */
inline std::string checkResult(const ReduceKernel& k, const std::vector<int>& input,
                               const DeviceBuffer<int>& in, const DeviceBuffer<int>& out) {
  const auto n = static_cast<unsigned int>(input.size());
  std::vector<std::string> problems;

  // The partial sums: written (no poison), in bounds, and exact.
  std::string problem = checkPartialSums(k, n, out, referencePartialSums(input, k.span()));
  if (!problem.empty()) problems.push_back(problem);
  problem = checkInput(k, input, in);
  if (!problem.empty()) problems.push_back(problem);

  std::string all;
  for (const std::string& p : problems) all += (all.empty() ? "" : "\n") + p;
  return all;
}

/// Launches @p k once over @p input (1 to kMaxExactElements elements) and
/// returns checkResult's verdict.
inline std::string runAndCheck(const ReduceKernel& k, const std::vector<int>& input) {
  if (input.empty() || input.size() > kMaxExactElements) {
    throw std::invalid_argument("a reduction test input must hold 1 to 2^26 elements");
  }
  const auto n = static_cast<unsigned int>(input.size());
  DeviceBuffer<int> in(n);
  uploadGuarded(in, input);
  DeviceBuffer<int> out(k.blocks(n));
  out.poison();
  poisonSharedMemory();
  launch(k, in.data(), out.data(), n);
  checkLaunch(k.exercise);
  return checkResult(k, input, in, out);
}

}  // namespace testing
}  // namespace wb::reduction
