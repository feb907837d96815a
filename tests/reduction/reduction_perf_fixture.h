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
#include "wb/perf_ratio.h"

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

/// A student's kernel that the book uses as a yardstick, against the
/// reference build of the same exercise (the test's parameter, which names
/// the exercise and so gives the test its `exercise=` label): at most
/// kMaxRatio times its time. The reference solutions measured 0.996-1.007x
/// of themselves on an H100 (eight runs of the suite, min-max;
/// docs/results/timing-against-reference-nvidia-h100.md). kMaxRatio, the
/// sections' own 10% for a change that should cost nothing, is ten times
/// that spread: room for a different but reasonable kernel, and a kernel
/// that idles on the timed size fails.
template <const ReduceKernel& (*Lookup)(const std::string&)>
class ReductionYardstickTest : public ReductionTimingTest<Lookup>,
                               public ::testing::WithParamInterface<std::string> {
 protected:
  static constexpr double kMaxRatio = 1.10;

  void expectKeepsReferenceSpeed() const {
    SCOPED_TRACE(seedNote(this->seed_));
    const std::string& exercise = this->GetParam();
    const auto [mine, theirs] = this->medianMs(this->student(exercise), this->reference(exercise));
    perf::expectNoSlowerThan(exercise, mine, "reference " + exercise, theirs, kMaxRatio);
  }
};

/// The test name of a yardstick: the exercise it times.
inline std::string yardstickName(const ::testing::TestParamInfo<std::string>& info) {
  return info.param;
}

}  // namespace wb::reduction::testing
