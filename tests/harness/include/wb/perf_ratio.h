// What every section's performance tests share: judging a performance
// claim as the ratio of two median times measured in the same process,
// printed in the one format the GPU suite script collects ("slow 0.1230 ms /
// fast 0.0870 ms = 1.41x (need >= 1.15x)"), and checking the output of every
// timed run (compared on the device by the harness, src/compare_on_device.cu,
// so this header needs no device compiler).
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "wb/buffer.h"
#include "wb/verify.h"

namespace wb::perf {

/// Whether the @p n elements at device pointers @p a and @p b are equal
/// element by element with == (a NaN equals nothing), compared on the device.
bool equalOnDevice(const int* a, const int* b, std::size_t n);
bool equalOnDevice(const float* a, const float* b, std::size_t n);
/// Whether @p out (cols x rows) is the transpose of the @p rows x @p cols
/// matrix @p in, element by element with ==, compared on the device.
bool transposeOnDevice(const float* out, const float* in, std::size_t rows, std::size_t cols);

/// Expects @p slow to take at least @p minRatio times as long as @p fast.
inline void expectSlowerBy(const std::string& slow, double slowMs, const std::string& fast,
                           double fastMs, double minRatio) {
  const double ratio = slowMs / fastMs;
  ::testing::Test::RecordProperty("ratio", std::to_string(ratio));
  std::printf("%s %.4f ms / %s %.4f ms = %.2fx (need >= %.2fx)\n", slow.c_str(), slowMs,
              fast.c_str(), fastMs, ratio, minRatio);
  EXPECT_GE(ratio, minRatio) << slow << " should take at least " << minRatio << "x as long as "
                             << fast << "; measured " << slowMs << " ms vs " << fastMs << " ms";
}

/// Expects @p variant to take at most @p maxRatio times as long as
/// @p baseline (a change that should cost nothing measurable).
inline void expectNoSlowerThan(const std::string& variant, double variantMs,
                               const std::string& baseline, double baselineMs, double maxRatio) {
  const double ratio = variantMs / baselineMs;
  ::testing::Test::RecordProperty("ratio", std::to_string(ratio));
  std::printf("%s %.4f ms / %s %.4f ms = %.3fx (need <= %.2fx)\n", variant.c_str(), variantMs,
              baseline.c_str(), baselineMs, ratio, maxRatio);
  EXPECT_LE(ratio, maxRatio) << variant << " should take at most " << maxRatio << "x as long as "
                             << baseline << "; measured " << variantMs << " ms vs " << baselineMs
                             << " ms";
}

/**
 * @brief "" when @p got holds exactly @p want; otherwise what is wrong with
 *        it (unwritten elements, writes out of bounds, wrong values), naming
 *        @p kernel and the positions as @p where writes them.
 *
 * For checking every timed run of a kernel whose output is larger than L2:
 * compared on the device, a check costs about one more read of the output.
 * On the host every run would cost a download of it and a loop over it,
 * while the GPU idled (and could lower its clocks) between timed runs; and
 * checking only some runs would let a kernel that skips its work now and
 * then pass now and then. Only a wrong output is described, on the host.
 */
template <class T>
std::string compareOnDevice(const DeviceBuffer<T>& got, const DeviceBuffer<T>& want,
                            const std::string& kernel, const IndexFormatter& where = flatIndex) {
  if (got.size() != want.size()) throw std::invalid_argument("compareOnDevice: size mismatch");
  // Element by element with ==, as describeMismatches compares: both agree
  // on which outputs are wrong (poison is a NaN as a float, unequal to all).
  if (equalOnDevice(got.data(), want.data(), got.size())) return {};
  const std::string problem = got.checkWritten(kernel, where);
  if (!problem.empty()) return problem;
  const std::vector<T> actual = got.download();
  const std::vector<T> expected = want.download();
  return describeMismatches(actual.data(), expected.data(), expected.size(), kernel, where);
}

/**
 * @brief "" when @p got holds the transpose of the @p rows x @p cols matrix
 *        @p in; otherwise what is wrong with it, as compareOnDevice says it.
 *
 * Judged against the input itself, so no expected matrix sits in device
 * memory while kernels are timed: device code can read any buffer of its
 * context, and a kernel that found the expected matrix could copy it
 * instead of transposing.
 */
inline std::string compareTransposeOnDevice(const DeviceBuffer<float>& got,
                                            const DeviceBuffer<float>& in, std::size_t rows,
                                            std::size_t cols, const std::string& kernel,
                                            const IndexFormatter& where = flatIndex) {
  if (got.size() != in.size() || in.size() != rows * cols) {
    throw std::invalid_argument("compareTransposeOnDevice: size mismatch");
  }
  if (transposeOnDevice(got.data(), in.data(), rows, cols)) return {};
  const std::string problem = got.checkWritten(kernel, where);
  if (!problem.empty()) return problem;
  const std::vector<float> actual = got.download();
  const std::vector<float> input = in.download();
  std::vector<float> expected(input.size());
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) expected[c * rows + r] = input[r * cols + c];
  }
  return describeMismatches(actual.data(), expected.data(), expected.size(), kernel, where);
}

}  // namespace wb::perf
