// Tests of preferSharedCarveout (book section 5.1). The test owns the
// kernels it configures. The GPU tests call the exercise in one child and
// judge in another that runs no student code (recorded_check.h): there they
// set the recorded preference again, read it back with cudaFuncGetAttributes
// and ask the occupancy API how many blocks of a shared-memory-heavy kernel
// fit, against a twin kernel the test configures itself; the host test needs
// no GPU.
#include <gtest/gtest.h>

#include <string>

#include "config/config.cuh"
#include "config_check.h"
#include "config_test_kernels.h"
#include "recorded_check.h"
#include "wb/isolated.h"
#include "wb/isolated_gpu.h"

namespace wb::config {
namespace {

// The kernel the exercise configures, and its twin the test configures.
const void* kernel() { return test_kernels::carveoutKernel(); }
const void* twin() { return test_kernels::carveoutTwin(); }

// 8 KB per block of 32 threads: shared memory is what limits these blocks,
// and a quarter of the SM's shared memory holds fewer of them than all of it
// on every GPU from sm_75 on (notes.md, the carveout).
constexpr int kThreads = 32;
constexpr std::size_t kHeavyBytes = 8 * 1024;

TEST(HostPreferSharedCarveout, RefusesAPercentOutsideMinusOneToHundred) {
  // Called in a child without CUDA: the refusal must come before any runtime
  // call, and the record says whether one was made. The last percent is
  // allowed, and must reach the runtime: refusing every percent is no refusal.
  const int percents[] = {101, 150, -2, -100, 50};
  const check::RecordedCalls r = check::callRecorded(
      5, [&percents](std::size_t i) { return static_cast<double>(preferSharedCarveout(kernel(), percents[i])); },
      ChildSetup::HostOnly, 20);
  ASSERT_EQ(r.problem, "");
  for (std::size_t i = 0; i < 4; ++i) {
    ASSERT_EQ(r.results[i].kind, IsolatedResult::Kind::Returned)
        << "preferSharedCarveout(" << percents[i] << ") " << r.results[i].describe();
    EXPECT_EQ(static_cast<int>(r.results[i].value), static_cast<int>(cudaErrorInvalidValue))
        << "preferSharedCarveout(kernel, " << percents[i] << ") returned "
        << cudaGetErrorName(static_cast<cudaError_t>(static_cast<int>(r.results[i].value)))
        << "; a percent outside [-1, 100] must be refused with cudaErrorInvalidValue, "
           "without calling the runtime";
    EXPECT_TRUE(r.calls[i].empty())
        << "preferSharedCarveout(kernel, " << percents[i]
        << ") called cudaFuncSetAttribute; refuse a percent outside [-1, 100] before calling "
           "the runtime";
  }
  ASSERT_EQ(r.results[4].kind, IsolatedResult::Kind::Returned)
      << "preferSharedCarveout(kernel, 50) " << r.results[4].describe();
  EXPECT_FALSE(r.calls[4].empty())
      << "preferSharedCarveout(kernel, 50) did not call the runtime: only a percent outside "
         "[-1, 100] is refused without asking it";
}

TEST(HostPreferSharedCarveout, SetsThePreferredCarveoutToThePercent) {
  // Without a GPU: each percent the contract allows, -1 (no preference)
  // included, is passed to the runtime in one cudaFuncSetAttribute call on
  // the kernel passed in, and what the runtime returns is returned (here the
  // recorder's refusal, cudaErrorInitializationError, since the child has no
  // CUDA).
  const int percents[] = {cudaSharedmemCarveoutDefault, 0, 25, 100};
  const check::RecordedCalls r = check::callRecorded(
      4, [&percents](std::size_t i) { return static_cast<double>(preferSharedCarveout(kernel(), percents[i])); },
      ChildSetup::HostOnly, 20);
  ASSERT_EQ(r.problem, "");
  for (std::size_t i = 0; i < 4; ++i) {
    const std::string call = "preferSharedCarveout(kernel, " + std::to_string(percents[i]) + ")";
    ASSERT_EQ(r.results[i].kind, IsolatedResult::Kind::Returned) << call << " " << r.results[i].describe();
    ASSERT_EQ(r.calls[i].size(), 1u) << call << " made " << r.calls[i].size()
                                     << " cudaFuncSetAttribute calls; it takes one";
    const check::AttributeCall& c = r.calls[i].front();
    EXPECT_EQ(c.kernel, kernel()) << call << " set an attribute of another function";
    EXPECT_EQ(c.attribute, static_cast<int>(cudaFuncAttributePreferredSharedMemoryCarveout))
        << call << " set attribute " << c.attribute
        << "; the preference is cudaFuncAttributePreferredSharedMemoryCarveout";
    EXPECT_EQ(c.value, percents[i]) << call << " set the attribute to " << c.value;
    EXPECT_EQ(static_cast<int>(r.results[i].value), c.returned)
        << call << " returned " << r.results[i].value << " where the runtime returned " << c.returned
        << ": return what the runtime says";
  }
}

// What call `i`, preferSharedCarveout(kernel, percent), did: "" when it
// returned cudaSuccess and its recorded calls could be made again here.
std::string judgeCall(const std::vector<IsolatedResult>& results, const check::Replay& replay,
                      std::size_t i, int percent) {
  const std::string call = "preferSharedCarveout(kernel, " + std::to_string(percent) + ")";
  if (results[i].kind != IsolatedResult::Kind::Returned) return call + " " + results[i].describe() + "; ";
  const check::Replayed done = replay.apply(i);
  if (!done.problems.empty()) return call + ": " + done.problems;
  const auto err = static_cast<cudaError_t>(static_cast<int>(results[i].value));
  if (err != cudaSuccess) return call + " returned " + check::errorName(err) + "; ";
  return "";
}

TEST(GpuPreferSharedCarveout, TheKernelReportsThePreferenceSet) {
  static const int percents[] = {25, 100, 0, 50};
  WB_EXPECT_ISOLATED_CHECK(check::checkOnGpu(
      4, [](std::size_t i) { return static_cast<double>(preferSharedCarveout(kernel(), percents[i])); },
      {kernel()},
      [](const std::vector<IsolatedResult>& results, const check::Replay& replay) {
        std::string problems;
        for (std::size_t i = 0; i < 4; ++i) {
          const std::string wrong = judgeCall(results, replay, i, percents[i]);
          if (!wrong.empty()) {
            problems += wrong;
            continue;
          }
          const int got = check::kernelAttributes(kernel(), "carveoutKernel").preferredShmemCarveout;
          if (got != percents[i]) {
            problems += "after preferSharedCarveout(kernel, " + std::to_string(percents[i]) +
                        ") cudaFuncGetAttributes reports preferredShmemCarveout " +
                        std::to_string(got) +
                        " (set cudaFuncAttributePreferredSharedMemoryCarveout); ";
          }
        }
        return problems;
      }));
}

TEST(GpuPreferSharedCarveout, ASmallCarveoutHoldsFewerSharedHeavyBlocks) {
  static const int percents[2] = {25, 100};
  WB_EXPECT_ISOLATED_CHECK(check::checkOnGpu(
      2, [](std::size_t i) { return static_cast<double>(preferSharedCarveout(kernel(), percents[i])); },
      {kernel()},
      [](const std::vector<IsolatedResult>& results, const check::Replay& replay) {
        std::string problems;
        int blocks[2] = {0, 0};
        for (std::size_t i = 0; i < 2; ++i) {
          const std::string wrong = judgeCall(results, replay, i, percents[i]);
          if (!wrong.empty()) return wrong;
          blocks[i] = check::occupancy(kernel(), kThreads, kHeavyBytes);
          // The twin, configured by the test itself, is the expected answer.
          const cudaError_t twinErr = cudaFuncSetAttribute(
              twin(), cudaFuncAttributePreferredSharedMemoryCarveout, percents[i]);
          if (twinErr != cudaSuccess) return std::string("the test could not configure its twin kernel");
          const int expected = check::occupancy(twin(), kThreads, kHeavyBytes);
          if (blocks[i] != expected) {
            problems += "with a " + std::to_string(percents[i]) + "% carveout the occupancy API " +
                        "holds " + std::to_string(blocks[i]) + " blocks of 8 KB per SM; the same " +
                        "preference set by the test gives " + std::to_string(expected) + "; ";
          }
        }
        if (blocks[0] >= blocks[1]) {
          problems += "a 25% carveout holds " + std::to_string(blocks[0]) +
                      " blocks of 8 KB per SM and 100% holds " + std::to_string(blocks[1]) +
                      ": the preference had no effect; ";
        }
        return problems;
      }));
}

}  // namespace
}  // namespace wb::config
