// Runs one transpose kernel on poisoned, guarded output and compares the
// result with the reference the contract prescribes. Shared by the
// correctness tests, the performance tests (which check before they time)
// and the block-shape sweep in bench/sweep. No GoogleTest here.
#pragma once

#include <cstdint>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "transpose/transpose.cuh"
#include "wb/buffer.h"
#include "wb/cuda_check.h"
#include "wb/shared_poison.h"

namespace wb::transpose {

/// Test names and failure messages show a kernel by its name.
inline void PrintTo(const TransposeKernel& k, std::ostream* os) { *os << k.name; }

namespace testing {

/// An nrows x ncols matrix of random floats in [-1, 1), the same for the
/// same seed.
inline std::vector<float> randomMatrix(int nrows, int ncols, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<float> m(static_cast<std::size_t>(nrows) * ncols);
  for (float& x : m) x = value(rng);
  return m;
}

/// "transposeSmem on 1000 x 777 floats, blocks of 32 x 16": what a failure
/// message calls one run.
inline std::string describeRun(const TransposeKernel& k, int nrows, int ncols, dim3 block) {
  return std::string(k.name) + " on " + std::to_string(nrows) + " x " + std::to_string(ncols) +
         " floats, blocks of " + std::to_string(block.x) + " x " + std::to_string(block.y);
}

/**
 * @brief Runs @p k once on @p in (nrows x ncols, already on the device) into
 *        a freshly poisoned @p out and compares with @p expected.
 * @return "" when @p out holds exactly @p expected and nothing around it was
 *         touched; otherwise what went wrong, with output (row, col)
 *         coordinates. Launch and run errors throw wb::CudaError.
 */
inline std::string runOnce(const TransposeKernel& k, DeviceBuffer<float>& out,
                           const DeviceBuffer<float>& in, const std::vector<float>& expected,
                           int nrows, int ncols, dim3 block = defaultBlock()) {
  const std::string run = describeRun(k, nrows, ncols, block);
  out.poison();
  poisonSharedMemory();
  launch(k, out.data(), in.data(), nrows, ncols, block);
  checkLaunch(run);
  const IndexFormatter where = rowColIndex(outputCols(k.reference, nrows, ncols));
  const std::string unwritten = out.checkWritten(run, where);
  if (!unwritten.empty()) return unwritten;
  const std::vector<float> got = out.download();
  return describeMismatches(got.data(), expected.data(), got.size(), run, where);
}

/// runOnce on a random nrows x ncols input drawn from @p seed. The input's
/// guard zones are poisoned too, so reading outside the matrix shows up as
/// a wrong value.
inline std::string runAndCheck(const TransposeKernel& k, int nrows, int ncols, std::uint64_t seed,
                               dim3 block = defaultBlock()) {
  const std::vector<float> input = randomMatrix(nrows, ncols, seed);
  DeviceBuffer<float> in(input.size());
  DeviceBuffer<float> out(input.size());
  in.poison();
  in.upload(input);
  return runOnce(k, out, in, referenceOutput(k.reference, input, nrows, ncols), nrows, ncols,
                 block);
}

}  // namespace testing
}  // namespace wb::transpose
