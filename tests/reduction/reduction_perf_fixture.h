// The fixture of the reduction timing claims of book sections 5.3 and
// 5.6.3 (tests/reduction/reduction_perf_test.cu and tests/shuffle/
// shuffle_perf_test.cu): a seed per test, the student's kernel and the
// reference build's kernel of an exercise, and their interleaved median
// times (reduction_timing.h says how they are measured). Included only by
// test files whose target defines WB_REFERENCE_MODULES, the reference
// build's module folder (tests/CMakeLists.txt).
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "reduction/reduction.cuh"
#include "reduction_timing.h"
#include "wb/gtest_support.h"

namespace wb::reduction::testing {

/// @p Lookup gives the ReduceKernel of an exercise name (each section's
/// perf tests know their own kernels and the ones they compare against).
template <const ReduceKernel& (*Lookup)(const std::string&)>
class ReductionTimingTest : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    seed_ = testSeed();
  }

  /// The student's kernel @p exercise (the modules under test).
  static TimedReduction student(const std::string& exercise) { return {Lookup(exercise)}; }

  /// The reference build's kernel @p exercise.
  static TimedReduction reference(const std::string& exercise) {
    return {Lookup(exercise), WB_REFERENCE_MODULES};
  }

  /// Median times in ms of @p first and @p second, timed against each
  /// other (interleavedMedianMs).
  std::pair<double, double> medianMs(const TimedReduction& first,
                                     const TimedReduction& second) const {
    return interleavedMedianMs(first, second, seed_);
  }

  std::uint64_t seed_ = 0;
};

}  // namespace wb::reduction::testing
