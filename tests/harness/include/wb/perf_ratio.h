// Judging a performance claim as the ratio of two median times measured in
// the same process, and printing it in the one format the GPU suite script
// collects: "slow 0.1230 ms / fast 0.0870 ms = 1.41x (need >= 1.15x)".
// Shared by every section's performance tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace wb::perf {

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

}  // namespace wb::perf
