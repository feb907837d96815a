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

#include <stdexcept>
#include <string>

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

}  // namespace wb

/// Runs a CUDA runtime call and throws wb::CudaError naming it if it fails.
#define WB_CUDA(call) ::wb::throwIfFailed((call), #call, __FILE__, __LINE__)
