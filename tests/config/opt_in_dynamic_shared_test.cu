// Tests of optInDynamicShared (book section 5.1). The test owns a kernel
// that reverses each block's slice of an array through a dynamic shared
// array as large as the launch gives it. The GPU tests run whole in a child
// process (wb/isolated_gpu.h): after the call they read the kernel's
// maxDynamicSharedSizeBytes back, launch it above 48 KB and check every
// element; the host test needs no GPU.
#include <gtest/gtest.h>

#include <climits>
#include <cstddef>
#include <string>
#include <vector>

#include "config/config.cuh"
#include "config_check.h"
#include "config_test_kernels.h"
#include "wb/isolated.h"
#include "wb/isolated_gpu.h"

namespace wb::config {
namespace {

// The kernel the exercise opts in (config_test_kernels.h).
const void* kernel() { return test_kernels::reverseThroughShared(); }

constexpr int kBlocks = 3;
constexpr int kThreads = 256;

// Launches the kernel with `bytes` of dynamic shared memory and checks its
// output; "" when every element is right.
std::string launchAndCheck(std::size_t bytes) {
  const unsigned int n = static_cast<unsigned int>(bytes / sizeof(int));
  const std::size_t total = static_cast<std::size_t>(n) * kBlocks;
  std::vector<int> host(total);
  for (std::size_t i = 0; i < total; ++i) host[i] = static_cast<int>(i * 7 + 3);
  int* in = nullptr;
  int* out = nullptr;
  if (cudaMalloc(&in, total * sizeof(int)) != cudaSuccess ||
      cudaMalloc(&out, total * sizeof(int)) != cudaSuccess) {
    return "the test could not allocate its buffers";
  }
  cudaMemcpy(in, host.data(), total * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(out, 0xff, total * sizeof(int));
  const cudaError_t launch =
      test_kernels::launchReverseThroughShared(kBlocks, kThreads, bytes, in, out, n);
  const cudaError_t done = cudaDeviceSynchronize();
  std::string problem;
  if (launch != cudaSuccess) {
    problem = "the launch with " + std::to_string(bytes) + " bytes of dynamic shared memory " +
              "failed with " + check::errorName(launch) +
              (launch == cudaErrorInvalidValue
                   ? ": above 48 KB the kernel must be opted in first "
                     "(cudaFuncAttributeMaxDynamicSharedMemorySize)"
                   : "");
  } else if (done != cudaSuccess) {
    problem = "the kernel failed: " + check::errorName(done);
  } else {
    std::vector<int> got(total);
    cudaMemcpy(got.data(), out, total * sizeof(int), cudaMemcpyDeviceToHost);
    for (std::size_t i = 0; i < total && problem.empty(); ++i) {
      const std::size_t block = i / n, k = i % n;
      const int expected = host[block * n + (n - 1 - k)];
      if (got[i] != expected) {
        problem = "element " + std::to_string(i) + " is " + std::to_string(got[i]) +
                  ", expected " + std::to_string(expected);
      }
    }
  }
  cudaFree(in);
  cudaFree(out);
  return problem;
}

// The exercise's opt-in to `bytes`, a launch that uses all of it, and the
// attribute read back: every problem found, "" when there is none.
std::string optInAndLaunch(std::size_t bytes) {
  const cudaError_t err = optInDynamicShared(kernel(), bytes);
  if (err != cudaSuccess) {
    return "optInDynamicShared(kernel, " + std::to_string(bytes) + ") returned " +
           check::errorName(err);
  }
  std::string problems = launchAndCheck(bytes);
  const int max = check::kernelAttributes(kernel(), "reverseThroughShared").maxDynamicSharedSizeBytes;
  if (static_cast<std::size_t>(max) != bytes) {
    problems += std::string(problems.empty() ? "" : "; ") + "after optInDynamicShared(kernel, " +
                std::to_string(bytes) + ") the kernel's maxDynamicSharedSizeBytes is " +
                std::to_string(max) + ": it was not opted in to that size";
  }
  return problems;
}

TEST(HostOptInDynamicShared, RefusesACountThatDoesNotFitInAnInt) {
  // 4 GiB + 1 KB would become 1 KB as an int: a silent opt-in to the wrong size.
  const std::size_t counts[] = {(std::size_t{1} << 32) + 1024,
                                static_cast<std::size_t>(INT_MAX) + 1};
  for (const std::size_t bytes : counts) {
    const IsolatedResult r =
        callIsolated([bytes] { return static_cast<double>(optInDynamicShared(kernel(), bytes)); },
                     20, ChildSetup::Cuda);
    ASSERT_EQ(r.kind, IsolatedResult::Kind::Returned) << "optInDynamicShared(" << bytes << ") "
                                                      << r.describe();
    EXPECT_EQ(static_cast<int>(r.value), static_cast<int>(cudaErrorInvalidValue))
        << "optInDynamicShared(kernel, " << bytes << ") returned "
        << cudaGetErrorName(static_cast<cudaError_t>(static_cast<int>(r.value)))
        << "; a count that does not fit in an int must be refused with cudaErrorInvalidValue, "
           "without calling the runtime";
  }
}

TEST(GpuOptInDynamicShared, LaunchesJustAbove48KB) {
  WB_EXPECT_ISOLATED_CHECK(checkIsolatedOnGpu([] {
    // The premise first, on this GPU and runtime: before the opt-in, a launch
    // with 49 KB fails. (Part of this test rather than one of its own, which
    // would pass, and earn points, whatever the exercise does.)
    const std::size_t bytes = kDefaultSharedPerBlock + 1024;
    const cudaError_t before =
        test_kernels::launchReverseThroughShared(1, kThreads, bytes, nullptr, nullptr, 0);
    cudaDeviceSynchronize();
    if (before != cudaErrorInvalidValue) {
      return "the test's premise does not hold: a launch with 49 KB of dynamic shared memory "
             "and no opt-in returned " + check::errorName(before) + ", not cudaErrorInvalidValue";
    }
    return optInAndLaunch(bytes);
  }));
}

TEST(GpuOptInDynamicShared, LaunchesWithTheWholeOptInLimit) {
  WB_EXPECT_ISOLATED_CHECK(checkIsolatedOnGpu([] {
    const std::size_t limit = check::deviceLimits().perBlockOptin;
    return optInAndLaunch(limit - limit % sizeof(int));
  }));
}

TEST(GpuOptInDynamicShared, ReturnsTheErrorForMoreThanTheDeviceGives) {
  WB_EXPECT_ISOLATED_CHECK(checkIsolatedOnGpu([] {
    const std::size_t bytes = check::deviceLimits().perBlockOptin + 1024;
    const cudaError_t err = optInDynamicShared(kernel(), bytes);
    if (err == cudaSuccess) {
      return "optInDynamicShared(kernel, " + std::to_string(bytes) + "), more than a block may " +
             "have on this GPU, returned cudaSuccess: return what the runtime says";
    }
    return std::string();
  }));
}

}  // namespace
}  // namespace wb::config
