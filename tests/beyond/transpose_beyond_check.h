// Runs a reference transpose beyond book section 5.4 on a guarded input
// into a poisoned, guarded output, either of which may start off a 16-byte
// boundary, and compares with the host transpose. No GoogleTest here: the
// benchmark (bench/wb_bench) checks its reference kernels and cublasSgeam with
// checkTransposed before timing them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "transpose/beyond.cuh"
#include "transpose/transpose_check.h"
#include "wb/buffer.h"
#include "wb/cuda_check.h"
#include "wb/verify.h"

namespace wb::transpose::beyond::testing {

/// "transposeTiledVec4 on 36 x 44 floats": what a failure message calls a
/// run; @p variant empty means transpose(), which picks the kernel.
inline std::string describeRun(std::optional<Variant> variant, int nrows, int ncols,
                               unsigned int inOffset = 0, unsigned int outOffset = 0,
                               int groupRows = kGroupRows) {
  std::string text = variant ? variantName(*variant) : "transpose()";
  text += " on " + std::to_string(nrows) + " x " + std::to_string(ncols) + " floats";
  if (groupRows != kGroupRows) text += ", block order in bands of " + std::to_string(groupRows);
  if (inOffset != 0 || outOffset != 0) {
    text += " (input " + std::to_string(inOffset) + ", output " + std::to_string(outOffset) +
            " floats past a 16-byte boundary)";
  }
  return text;
}

/// A device buffer of @p n floats starting @p offset floats past a 16-byte
/// boundary: the harness's guard zones start 16-byte aligned, and the one in
/// front is lengthened by the offset.
inline DeviceBuffer<float> offsetBuffer(std::size_t n, unsigned int offset) {
  return DeviceBuffer<float>(n, DeviceBuffer<float>::kDefaultGuard + offset);
}

/**
 * @brief Checks the ncols x nrows output @p out of @p run against
 *        @p expected: every element written (no poison left), nothing
 *        written around it, every value equal.
 * @return "" when all is well, otherwise the first problems with output
 *         (row, col) coordinates.
 */
inline std::string checkTransposed(const std::string& run, const DeviceBuffer<float>& out,
                                   const std::vector<float>& expected, int nrows) {
  const IndexFormatter where = rowColIndex(static_cast<std::size_t>(nrows));
  const std::string unwritten = out.checkWritten(run, where);
  if (!unwritten.empty()) return unwritten;
  const std::vector<float> got = out.download();
  return describeMismatches(got.data(), expected.data(), got.size(), run, where);
}

/**
 * @brief Transposes a random nrows x ncols matrix (from @p seed) with
 *        @p variant (empty: transpose(), which picks the kernel), input and
 *        output placed @p inOffset and @p outOffset floats past a 16-byte
 *        boundary, blocks in bands of @p groupRows tile rows (a variant
 *        only), and checks the output (checkTransposed) and that the input
 *        kept its values and guards.
 * @return "" when all is well, otherwise what went wrong.
 */
inline std::string runAndCheck(std::optional<Variant> variant, int nrows, int ncols,
                               std::uint64_t seed, unsigned int inOffset = 0,
                               unsigned int outOffset = 0, int groupRows = kGroupRows) {
  const std::string run = describeRun(variant, nrows, ncols, inOffset, outOffset, groupRows);
  const std::vector<float> input = transpose::testing::randomMatrix(nrows, ncols, seed);
  DeviceBuffer<float> in = offsetBuffer(input.size(), inOffset);
  DeviceBuffer<float> out = offsetBuffer(input.size(), outOffset);
  in.poison();  // reading outside the matrix brings a NaN into the output
  in.upload(input);
  out.poison();
  const cudaError_t launched =
      variant ? launchVariant(*variant, out.data(), in.data(), nrows, ncols, nullptr, groupRows)
              : transpose(out.data(), in.data(), nrows, ncols);
  WB_CUDA(launched);
  checkLaunch(run);
  std::string problem =
      checkTransposed(run, out, referenceOutput(Reference::Transpose, input, nrows, ncols), nrows);
  if (problem.empty()) problem = in.checkWritten(run + " (input)", rowColIndex(ncols));
  if (problem.empty()) {
    const std::vector<float> after = in.download();
    problem = describeMismatches(after.data(), input.data(), input.size(),
                                 run + " must leave its input unchanged, but in",
                                 rowColIndex(ncols));
  }
  return problem;
}

}  // namespace wb::transpose::beyond::testing
