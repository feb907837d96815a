#include "wb/cuda_check.h"

#include <sstream>

namespace wb {

void throwIfFailed(cudaError_t code, const char* call, const char* file, int line) {
  if (code == cudaSuccess) return;
  std::ostringstream msg;
  msg << call << " failed at " << file << ":" << line << ": " << cudaGetErrorName(code) << " ("
      << cudaGetErrorString(code) << ")";
  throw CudaError(code, msg.str());
}

void checkLaunch(const std::string& kernelName) {
  cudaError_t launch = cudaGetLastError();
  if (launch != cudaSuccess) {
    throw CudaError(launch, "launching " + kernelName + " failed: " + cudaGetErrorName(launch) +
                                " (" + cudaGetErrorString(launch) + ")");
  }
  cudaError_t run = cudaDeviceSynchronize();
  if (run != cudaSuccess) {
    throw CudaError(run, kernelName + " failed while running: " + cudaGetErrorName(run) + " (" +
                             cudaGetErrorString(run) + ")");
  }
}

}  // namespace wb
