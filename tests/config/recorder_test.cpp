// Tests of the config checks' recorder and replay (recorded_check.h),
// without an exercise: the record of a function's cudaFuncSetAttribute
// calls comes back whole and in order, the replay sets attributes on the
// test's kernels only, and (on a GPU) what a recorded call set is what the
// judging child finds.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "config_check.h"
#include "config_test_kernels.h"
#include "recorded_check.h"
#include "wb/isolated.h"
#include "wb/isolated_gpu.h"

namespace wb::config {
namespace {

const void* kernel() { return test_kernels::reverseThroughShared(); }

TEST(HostRecorder, SendsBackEveryCallInOrderWithTheResult) {
  // Call i sets the attribute i + 1 times; without CUDA, each call is
  // recorded and refused, never passed to the runtime.
  const check::RecordedCalls r = check::callRecorded(
      3,
      [](std::size_t i) {
        for (std::size_t k = 0; k <= i; ++k) {
          cudaFuncSetAttribute(kernel(), cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(1000 * i + k));
        }
        return 7.0 + static_cast<double>(i);
      },
      ChildSetup::HostOnly);
  ASSERT_EQ(r.problem, "");
  ASSERT_EQ(r.results.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    ASSERT_EQ(r.results[i].kind, IsolatedResult::Kind::Returned) << r.results[i].describe();
    EXPECT_EQ(r.results[i].value, 7.0 + static_cast<double>(i));
    EXPECT_EQ(r.results[i].detail, "") << "the record must not be left in the result";
    ASSERT_EQ(r.calls[i].size(), i + 1);
    for (std::size_t k = 0; k <= i; ++k) {
      const check::AttributeCall& c = r.calls[i][k];
      EXPECT_EQ(c.kernel, kernel());
      EXPECT_EQ(c.attribute, static_cast<int>(cudaFuncAttributeMaxDynamicSharedMemorySize));
      EXPECT_EQ(c.value, static_cast<int>(1000 * i + k));
      EXPECT_EQ(c.returned, static_cast<int>(cudaErrorInitializationError));
    }
  }
}

TEST(HostRecorder, AFunctionThatCallsNothingHasAnEmptyRecord) {
  const check::RecordedCalls r =
      check::callRecorded(1, [](std::size_t) { return 1.0; }, ChildSetup::HostOnly);
  ASSERT_EQ(r.problem, "");
  EXPECT_TRUE(r.calls[0].empty());
}

TEST(HostRecorder, RefusesToJudgeMoreCallsThanARecordHolds) {
  const check::RecordedCalls r = check::callRecorded(
      1,
      [](std::size_t) {
        for (int k = 0; k < 40; ++k) {
          cudaFuncSetAttribute(kernel(), cudaFuncAttributePreferredSharedMemoryCarveout, k);
        }
        return 0.0;
      },
      ChildSetup::HostOnly);
  EXPECT_NE(r.problem.find("more than 16 cudaFuncSetAttribute calls"), std::string::npos)
      << r.problem;
}

TEST(HostRecorder, AnExceptionKeepsItsMessageAndNoRecord) {
  const check::RecordedCalls r = check::callRecorded(
      1, [](std::size_t) -> double { throw std::runtime_error("no device"); },
      ChildSetup::HostOnly);
  ASSERT_EQ(r.problem, "");
  EXPECT_EQ(r.results[0].kind, IsolatedResult::Kind::OtherException);
  EXPECT_EQ(r.results[0].detail, "no device");
  EXPECT_TRUE(r.calls[0].empty());
}

TEST(HostRecorder, TheReplayTouchesOnlyTheTestsKernels) {
  // A record naming another function (here, a host function's address) is
  // refused before anything reaches the runtime.
  check::RecordedCalls r;
  r.results.resize(1);
  r.calls.push_back({check::AttributeCall{reinterpret_cast<const void*>(&malloc),
                                          cudaFuncAttributeMaxDynamicSharedMemorySize, 1024, 0}});
  const check::Replay replay(r, {kernel()});
  const check::Replayed done = replay.apply(0);
  EXPECT_EQ(done.calls, 1u);
  EXPECT_NE(done.problems.find("not the kernel passed in"), std::string::npos) << done.problems;
  EXPECT_EQ(replay.apply(5).calls, 0u) << "a call the record does not hold sets nothing";
}

TEST(GpuRecorder, WhatTheRecordedCallSetIsWhatTheJudgeFinds) {
  // The premise of every config GPU check: an opt-in made in the student's
  // child and recorded there is in place in the judging child once replayed,
  // and absent before.
  const int bytes = 50 * 1024;
  WB_EXPECT_ISOLATED_CHECK(check::checkOnGpu(
      1,
      [bytes](std::size_t) {
        return static_cast<double>(
            cudaFuncSetAttribute(kernel(), cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
      },
      {kernel()},
      [bytes](const std::vector<IsolatedResult>& results, const check::Replay& replay) {
        if (results[0].kind != IsolatedResult::Kind::Returned) return results[0].describe();
        const auto attribute = [] {
          return check::kernelAttributes(kernel(), "reverseThroughShared").maxDynamicSharedSizeBytes;
        };
        if (attribute() == bytes) return std::string("the attribute was set before the replay");
        const check::Replayed done = replay.apply(0);
        if (!done.problems.empty() || done.calls != 1) return "replay: " + done.problems;
        if (attribute() != bytes) {
          return "after the replay the attribute is " + std::to_string(attribute());
        }
        return std::string();
      }));
}

}  // namespace
}  // namespace wb::config
