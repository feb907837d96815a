// What every section's performance tests share: judging a performance
// claim as the ratio of two median times measured in the same process,
// printed in the one format the GPU suite script collects ("slow 0.1230 ms /
// fast 0.0870 ms = 1.41x (need >= 1.15x)"), and checking the output of every
// timed run (by its fingerprint, computed on the device by the harness,
// src/compare_on_device.cu, so this header needs no device compiler).
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "wb/buffer.h"
#include "wb/fingerprint.h"
#include "wb/verify.h"

namespace wb::perf {

/// The fingerprint (wb/fingerprint.h) of the @p n elements at device
/// pointer @p data, computed on the device.
std::uint64_t fingerprintOnDevice(const int* data, std::size_t n);
std::uint64_t fingerprintOnDevice(const float* data, std::size_t n);
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
 * @brief "" when @p got's fingerprint (wb/fingerprint.h) is @p want;
 *        otherwise what is wrong with it: unwritten elements or writes out
 *        of bounds, named by @p kernel and the positions as @p where writes
 *        them, or else what @p describe says, given the output downloaded.
 *
 * For checking every timed run of a kernel whose output is larger than L2:
 * fingerprinted on the device, a check costs about one more read of the
 * output. On the host every run would cost a download of it and a loop over
 * it, while the GPU idled (and could lower its clocks) between timed runs;
 * and checking only some runs would let a kernel that skips its work now and
 * then pass now and then. The expected output is not on the device at all
 * (see wb/fingerprint.h for why); only a wrong output is described, on the
 * host, where @p describe may compute what was expected.
 */
template <class T, class Describe>
std::string compareWithFingerprint(const DeviceBuffer<T>& got, std::uint64_t want,
                                   const std::string& kernel, const IndexFormatter& where,
                                   Describe describe) {
  if (fingerprintOnDevice(got.data(), got.size()) == want) return {};
  const std::string problem = got.checkWritten(kernel, where);
  if (!problem.empty()) return problem;
  const std::string wrong = describe(got.download());
  if (!wrong.empty()) return wrong;
  return kernel + "'s output is not bit for bit the one expected (a float that compares "
                  "equal to the expected one, -0 for 0, is not the same output)";
}

/// compareWithFingerprint, describing a wrong output against @p expected(),
/// the output expected, computed on the host only when needed.
template <class T, class Expected>
std::string compareWithExpected(const DeviceBuffer<T>& got, std::uint64_t want,
                                const std::string& kernel, const IndexFormatter& where,
                                Expected expected) {
  return compareWithFingerprint(got, want, kernel, where, [&](const std::vector<T>& actual) {
    const std::vector<T> wanted = expected();
    return describeMismatches(actual.data(), wanted.data(), wanted.size(), kernel, where);
  });
}

/**
 * @brief "" when @p got holds the transpose of the @p rows x @p cols matrix
 *        @p in; otherwise what is wrong with it, as compareWithExpected says it.
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
