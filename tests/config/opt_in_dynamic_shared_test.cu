// Tests of optInDynamicShared (book section 5.1). The test owns a kernel
// that reverses each block's slice of an array through a dynamic shared
// array as large as the launch gives it. The GPU tests call the exercise in
// one child and judge in another that runs no student code
// (recorded_check.h): there they set the recorded opt-in again, read the
// kernel's maxDynamicSharedSizeBytes back, launch it above 48 KB and check
// every element; the host test needs no GPU.
#include <gtest/gtest.h>

#include <climits>
#include <cstddef>
#include <string>
#include <vector>

#include "config/config.cuh"
#include "config_check.h"
#include "config_test_kernels.h"
#include "recorded_check.h"
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

// Judged in a child that runs no student code (recorded_check.h): the
// opt-in the student's call `i` made, set again here, then a launch that uses
// all `bytes` and the attribute read back; every problem found, "" when
// there is none.
std::string judgeOptIn(const std::vector<IsolatedResult>& results, const check::Replay& replay,
                       std::size_t i, std::size_t bytes) {
  const std::string call = "optInDynamicShared(kernel, " + std::to_string(bytes) + ")";
  if (results[i].kind != IsolatedResult::Kind::Returned) return call + " " + results[i].describe();
  const check::Replayed done = replay.apply(i);
  if (!done.problems.empty()) return call + ": " + done.problems;
  const auto err = static_cast<cudaError_t>(static_cast<int>(results[i].value));
  if (err != cudaSuccess) return call + " returned " + check::errorName(err);
  std::string problems = launchAndCheck(bytes);
  const int max = check::kernelAttributes(kernel(), "reverseThroughShared").maxDynamicSharedSizeBytes;
  if (static_cast<std::size_t>(max) != bytes) {
    problems += std::string(problems.empty() ? "" : "; ") + "after " + call +
                " the kernel's maxDynamicSharedSizeBytes is " + std::to_string(max) +
                ": it was not opted in to that size";
  }
  return problems;
}

// The opt-in of `bytes(limits)`: the student's call in one child, the
// judgement in another (check::checkOnGpu).
IsolatedResult checkOptIn(std::size_t (*bytesFor)(const SharedMemoryLimits&)) {
  return check::checkOnGpu(
      1,
      [bytesFor](std::size_t) {
        return static_cast<double>(optInDynamicShared(kernel(), bytesFor(check::deviceLimits())));
      },
      {kernel()},
      [bytesFor](const std::vector<IsolatedResult>& results, const check::Replay& replay) {
        return judgeOptIn(results, replay, 0, bytesFor(check::deviceLimits()));
      });
}

TEST(HostOptInDynamicShared, RefusesACountThatDoesNotFitInAnInt) {
  // 4 GiB + 1 KB would become 1 KB as an int: a silent opt-in to the wrong
  // size. Called in a child without CUDA: the refusal must come before any
  // runtime call, and the record says whether one was made. The last count
  // fits, and must reach the runtime: refusing every count is no refusal.
  const std::size_t counts[] = {(std::size_t{1} << 32) + 1024,
                                static_cast<std::size_t>(INT_MAX) + 1, 1024};
  const check::RecordedCalls r = check::callRecorded(
      3, [&counts](std::size_t i) { return static_cast<double>(optInDynamicShared(kernel(), counts[i])); },
      ChildSetup::HostOnly, 20);
  ASSERT_EQ(r.problem, "");
  for (std::size_t i = 0; i < 2; ++i) {
    ASSERT_EQ(r.results[i].kind, IsolatedResult::Kind::Returned)
        << "optInDynamicShared(" << counts[i] << ") " << r.results[i].describe();
    EXPECT_EQ(static_cast<int>(r.results[i].value), static_cast<int>(cudaErrorInvalidValue))
        << "optInDynamicShared(kernel, " << counts[i] << ") returned "
        << cudaGetErrorName(static_cast<cudaError_t>(static_cast<int>(r.results[i].value)))
        << "; a count that does not fit in an int must be refused with cudaErrorInvalidValue, "
           "without calling the runtime";
    EXPECT_TRUE(r.calls[i].empty())
        << "optInDynamicShared(kernel, " << counts[i] << ") called cudaFuncSetAttribute with "
        << (r.calls[i].empty() ? 0 : r.calls[i].front().value)
        << "; refuse a count that does not fit in an int before calling the runtime";
  }
  ASSERT_EQ(r.results[2].kind, IsolatedResult::Kind::Returned)
      << "optInDynamicShared(kernel, 1024) " << r.results[2].describe();
  EXPECT_FALSE(r.calls[2].empty())
      << "optInDynamicShared(kernel, 1024) did not call the runtime: only a count that does not "
         "fit in an int is refused without asking it";
}

TEST(HostOptInDynamicShared, SetsTheMaxDynamicSharedSizeToTheCount) {
  // Without a GPU: each count that fits in an int is passed to the runtime in
  // one cudaFuncSetAttribute call on the kernel passed in, and what the
  // runtime returns is returned (here the recorder's refusal,
  // cudaErrorInitializationError, since the child has no CUDA).
  const std::size_t counts[] = {1024, kDefaultSharedPerBlock + 1024, 200 * 1024,
                                static_cast<std::size_t>(INT_MAX)};
  const check::RecordedCalls r = check::callRecorded(
      4, [&counts](std::size_t i) { return static_cast<double>(optInDynamicShared(kernel(), counts[i])); },
      ChildSetup::HostOnly, 20);
  ASSERT_EQ(r.problem, "");
  for (std::size_t i = 0; i < 4; ++i) {
    const std::string call = "optInDynamicShared(kernel, " + std::to_string(counts[i]) + ")";
    ASSERT_EQ(r.results[i].kind, IsolatedResult::Kind::Returned) << call << " " << r.results[i].describe();
    ASSERT_EQ(r.calls[i].size(), 1u) << call << " made " << r.calls[i].size()
                                     << " cudaFuncSetAttribute calls; it takes one";
    const check::AttributeCall& c = r.calls[i].front();
    EXPECT_EQ(c.kernel, kernel()) << call << " set an attribute of another function";
    EXPECT_EQ(c.attribute, static_cast<int>(cudaFuncAttributeMaxDynamicSharedMemorySize))
        << call << " set attribute " << c.attribute
        << "; the opt-in is cudaFuncAttributeMaxDynamicSharedMemorySize";
    EXPECT_EQ(static_cast<std::size_t>(c.value), counts[i]) << call << " set the attribute to " << c.value;
    EXPECT_EQ(static_cast<int>(r.results[i].value), c.returned)
        << call << " returned " << r.results[i].value << " where the runtime returned " << c.returned
        << ": return what the runtime says";
  }
}

std::size_t justAbove48KB(const SharedMemoryLimits&) { return kDefaultSharedPerBlock + 1024; }
std::size_t wholeOptInLimit(const SharedMemoryLimits& l) {
  return l.perBlockOptin - l.perBlockOptin % sizeof(int);
}

TEST(GpuOptInDynamicShared, LaunchesJustAbove48KB) {
  // The premise first, on this GPU and runtime: before the opt-in, a launch
  // with 49 KB fails. (Part of this test rather than one of its own, which
  // would pass, and earn points, whatever the exercise does.)
  WB_EXPECT_ISOLATED_CHECK(judgeOnGpu([] {
    const cudaError_t before = test_kernels::launchReverseThroughShared(
        1, kThreads, justAbove48KB({}), nullptr, nullptr, 0);
    cudaDeviceSynchronize();
    if (before != cudaErrorInvalidValue) {
      return "the test's premise does not hold: a launch with 49 KB of dynamic shared memory "
             "and no opt-in returned " + check::errorName(before) + ", not cudaErrorInvalidValue";
    }
    return std::string();
  }));
  WB_EXPECT_ISOLATED_CHECK(checkOptIn(justAbove48KB));
}

TEST(GpuOptInDynamicShared, LaunchesWithTheWholeOptInLimit) {
  WB_EXPECT_ISOLATED_CHECK(checkOptIn(wholeOptInLimit));
}

TEST(GpuOptInDynamicShared, ReturnsTheErrorForMoreThanTheDeviceGives) {
  const auto tooMuch = [] { return check::deviceLimits().perBlockOptin + 1024; };
  WB_EXPECT_ISOLATED_CHECK(check::checkOnGpu(
      1, [&tooMuch](std::size_t) { return static_cast<double>(optInDynamicShared(kernel(), tooMuch())); },
      {kernel()},
      [&tooMuch](const std::vector<IsolatedResult>& results, const check::Replay& replay) {
        const std::string call = "optInDynamicShared(kernel, " + std::to_string(tooMuch()) + ")";
        if (results[0].kind != IsolatedResult::Kind::Returned) return call + " " + results[0].describe();
        const check::Replayed done = replay.apply(0);
        if (!done.problems.empty()) return call + ": " + done.problems;
        const auto err = static_cast<cudaError_t>(static_cast<int>(results[0].value));
        if (err == cudaSuccess) {
          return call + ", more than a block may have on this GPU, returned cudaSuccess: " +
                 "return what the runtime says";
        }
        if (done.calls == 0) {
          return call + " returned " + check::errorName(err) + " without asking the runtime: " +
                 "a count that fits in an int is the runtime's to judge";
        }
        if (err != done.last) {
          return call + " returned " + check::errorName(err) + " where the runtime said " +
                 check::errorName(done.last) + ": return what the runtime says";
        }
        return std::string();
      }));
}

}  // namespace
}  // namespace wb::config
