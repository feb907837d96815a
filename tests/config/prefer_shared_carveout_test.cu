// Tests of preferSharedCarveout (book section 5.1). The test owns the
// kernels it configures. The GPU tests run whole in a child process
// (wb/isolated_gpu.h): after the call they read the preference back with
// cudaFuncGetAttributes and ask the occupancy API how many blocks of a
// shared-memory-heavy kernel fit, against a twin kernel the test configures
// itself; the host test needs no GPU.
#include <gtest/gtest.h>

#include <string>

#include "config/config.cuh"
#include "config_check.h"
#include "config_test_kernels.h"
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
  for (const int percent : {101, 150, -2, -100}) {
    const IsolatedResult r =
        callIsolated([percent] { return static_cast<double>(preferSharedCarveout(kernel(), percent)); },
                     20, ChildSetup::Cuda);
    ASSERT_EQ(r.kind, IsolatedResult::Kind::Returned) << "preferSharedCarveout(" << percent << ") "
                                                      << r.describe();
    EXPECT_EQ(static_cast<int>(r.value), static_cast<int>(cudaErrorInvalidValue))
        << "preferSharedCarveout(kernel, " << percent << ") returned "
        << cudaGetErrorName(static_cast<cudaError_t>(static_cast<int>(r.value)))
        << "; a percent outside [-1, 100] must be refused with cudaErrorInvalidValue, "
           "without calling the runtime";
  }
}

TEST(GpuPreferSharedCarveout, TheKernelReportsThePreferenceSet) {
  WB_EXPECT_ISOLATED_CHECK(checkIsolatedOnGpu([] {
    std::string problems;
    for (const int percent : {25, 100, 0, 50}) {
      const cudaError_t err = preferSharedCarveout(kernel(), percent);
      if (err != cudaSuccess) {
        problems += "preferSharedCarveout(kernel, " + std::to_string(percent) + ") returned " +
                    check::errorName(err) + "; ";
        continue;
      }
      const int got = check::kernelAttributes(kernel(), "carveoutKernel").preferredShmemCarveout;
      if (got != percent) {
        problems += "after preferSharedCarveout(kernel, " + std::to_string(percent) +
                    ") cudaFuncGetAttributes reports preferredShmemCarveout " +
                    std::to_string(got) +
                    " (set cudaFuncAttributePreferredSharedMemoryCarveout); ";
      }
    }
    return problems;
  }));
}

TEST(GpuPreferSharedCarveout, ASmallCarveoutHoldsFewerSharedHeavyBlocks) {
  WB_EXPECT_ISOLATED_CHECK(checkIsolatedOnGpu([] {
    std::string problems;
    int blocks[2] = {0, 0};
    const int percents[2] = {25, 100};
    for (int i = 0; i < 2; ++i) {
      const cudaError_t err = preferSharedCarveout(kernel(), percents[i]);
      if (err != cudaSuccess) {
        return "preferSharedCarveout(kernel, " + std::to_string(percents[i]) + ") returned " +
               check::errorName(err);
      }
      blocks[i] = check::occupancy(kernel(), kThreads, kHeavyBytes);
      // The twin, configured by the test itself, is the expected answer.
      const cudaError_t twinErr =
          cudaFuncSetAttribute(twin(), cudaFuncAttributePreferredSharedMemoryCarveout, percents[i]);
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
