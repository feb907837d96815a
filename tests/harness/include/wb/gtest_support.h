/**
 * @file gtest_support.h
 * @brief GoogleTest glue: skipping without a GPU, seeds, assertion helpers.
 */
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "wb/device.h"
#include "wb/modules.h"

/// Skips the current test, with the reason, when no usable GPU is present.
/// CTest reports such a test as skipped (its SKIP_REGULAR_EXPRESSION).
#define WB_REQUIRE_GPU()                                      \
  do {                                                        \
    if (const auto wbReason = ::wb::gpuUnavailableReason()) { \
      GTEST_SKIP() << *wbReason;                              \
    }                                                         \
  } while (0)

namespace wb {

/// Base fixture of every test that needs a GPU. Each test ends by unloading
/// the exercise modules it loaded (wb::unloadModules): in an exercise's batch
/// (one process for all its tests) the next test meets them as it would
/// alone.
class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override { WB_REQUIRE_GPU(); }
  void TearDown() override { ::wb::unloadModules(); }
};

/// Base fixture of every parameterised test that needs a GPU (as GpuTest).
template <class Param>
class GpuTestWithParam : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override { WB_REQUIRE_GPU(); }
  void TearDown() override { ::wb::unloadModules(); }
};

/// Turns a problem description ("" when all is well) into a gtest result.
inline ::testing::AssertionResult noProblem(const std::string& problem) {
  if (problem.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << problem;
}

/**
 * @brief The seed for this test's random inputs: WB_SEED from the
 *        environment when set (to replay a failure), otherwise fresh.
 *
 * Tests print it with SCOPED_TRACE, so every failure message carries the
 * seed that reproduces it.
 */
std::uint64_t testSeed();

/// "seed 1234 (rerun with WB_SEED=1234)"
std::string seedNote(std::uint64_t seed);

}  // namespace wb
