/**
 * @file cuda_check.h
 * @brief The workbook's one error-check macro, WB_CUDA, and launch checks.
 *
 * A failing CUDA call throws wb::CudaError naming the call, the file and the
 * line. Inside a GoogleTest test the exception fails that test (GoogleTest
 * reports the message) and the rest of the suite goes on; a command-line tool
 * catches it in main() and exits non-zero with the message. Nothing calls
 * exit() from library code.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace wb {

/// A CUDA runtime call or kernel launch failed.
class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  /// The runtime's error code.
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

/// Throws CudaError when @p code is not cudaSuccess. Use WB_CUDA instead.
void throwIfFailed(cudaError_t code, const char* call, const char* file, int line);

/**
 * @brief Checks that the last launch of @p kernelName was accepted and ran to
 *        completion: cudaGetLastError (bad configuration), then
 *        cudaDeviceSynchronize (faults inside the kernel).
 */
void checkLaunch(const std::string& kernelName);

/// True for the errors a CUDA call gets when another process holds the GPU:
/// its memory (cudaErrorMemoryAllocation) or, on an H100 whose memory is all
/// taken, a new context (cudaErrorDevicesUnavailable).
bool isGpuContention(cudaError_t code);

/**
 * @brief Notes that the harness's own CUDA call met another process's hold
 *        on the GPU: sets gpuContentionSeen() and appends @p what as one line
 *        to the file WB_GPU_CONTENTION_LOG names, when it is set.
 *
 * wbcore/gtest_verdict.py hands that file to the grader, which runs a failed
 * test again alone only on such a note (or a time limit), never on what the
 * test printed: a kernel's printf lands in the same output. A process
 * confined for a student's function cannot open the file, and a kernel
 * cannot write files, so only the harness writes it.
 */
void noteGpuContention(const std::string& what);

/**
 * @brief Notes that one of the harness's own CUDA calls failed: appends
 *        "error @p what" as one line to the file WB_CUDA_ERROR_LOG names,
 *        when it is set (noteGpuContention does so too).
 *
 * wbcore/gtest_verdict.py sets it for a batch, the tests of an exercise run
 * in one process, where each test's start is marked too (noteTestStart):
 * a failure of the batch stands for the test's run alone only up to the
 * test in which the first CUDA call failed, since a kernel that faults
 * breaks the context for every test after it. As for contention, only the
 * harness writes the file.
 */
void noteCudaError(const std::string& what);

/// Appends "test @p test" (SUITE.NAME) to the file WB_CUDA_ERROR_LOG names,
/// when it is set: the errors noted after it belong to that test. Called
/// by the harness's GoogleTest listener as each test starts.
void noteTestStart(const std::string& test);

/// Appends "end {JSON}" to the same file: @p test ended with @p result
/// ("passed", "failed" or "skipped") and GoogleTest's @p failures, as
/// "FILE:LINE: Failure" and the message. A batch killed at its time limit
/// leaves no report; these lines are what its tests that ended said.
void noteTestEnd(const std::string& test, const char* result,
                 const std::vector<std::string>& failures);

/// Nothing for cudaSuccess; noteGpuContention(@p what) when
/// isGpuContention(@p code); else noteCudaError(@p what).
void noteCudaFailure(cudaError_t code, const std::string& what);

/// Whether this process noted contention (noteGpuContention).
bool gpuContentionSeen();

/**
 * @brief Whether a kernel whose threads each need @p localBytesPerThread of
 *        local memory asks the driver for more than half of the device's
 *        @p deviceBytes: the driver reserves the frame for every thread the
 *        GPU can hold (@p threadsPerSm times @p smCount).
 *
 * Such a kernel's launches fail with cudaErrorMemoryAllocation on a free GPU
 * (a 496 KB frame needs about 137 GB on an H100), or take most of the memory
 * from everything beside it; no exercise's reference uses local memory.
 */
bool localMemoryOutgrowsDevice(std::size_t localBytesPerThread, int threadsPerSm, int smCount,
                               std::size_t deviceBytes);

/**
 * @brief From now on this process notes no contention: its out-of-memory
 *        errors are its own doing. Called when a loaded kernel's local frame
 *        outgrows the device (localMemoryOutgrowsDevice), so that a kernel
 *        cannot pass its own launch failures off as another process's hold
 *        (which would keep them out of the result cache and buy a run alone).
 *        @p why is printed once, for the student.
 */
void disownGpuContention(const std::string& why);

}  // namespace wb

/// Runs a CUDA runtime call and throws wb::CudaError naming it if it fails.
#define WB_CUDA(call) ::wb::throwIfFailed((call), #call, __FILE__, __LINE__)
