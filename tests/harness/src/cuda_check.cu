#include "wb/cuda_check.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace wb {
namespace {

std::atomic<bool> contentionSeen{false};
std::atomic<bool> contentionDisowned{false};

}  // namespace

bool isGpuContention(cudaError_t code) {
  return code == cudaErrorMemoryAllocation || code == cudaErrorDevicesUnavailable;
}

void noteGpuContention(const std::string& what) {
  if (contentionDisowned) return;
  contentionSeen = true;
  const char* log = std::getenv("WB_GPU_CONTENTION_LOG");
  if (log == nullptr || *log == '\0') return;
  // Appended whole in one write, never through a link; a failure to write
  // leaves the test without the note (it is then not run again), nothing worse.
  const int fd = ::open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return;
  std::string line = what;
  for (char& c : line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  line += '\n';
  ssize_t n;
  do {
    n = ::write(fd, line.data(), line.size());
  } while (n < 0 && errno == EINTR);
  ::close(fd);
}

void noteIfGpuContention(cudaError_t code, const std::string& what) {
  if (isGpuContention(code)) noteGpuContention(what);
}

bool gpuContentionSeen() { return contentionSeen; }

bool localMemoryOutgrowsDevice(std::size_t localBytesPerThread, int threadsPerSm, int smCount,
                               std::size_t deviceBytes) {
  if (localBytesPerThread == 0 || threadsPerSm <= 0 || smCount <= 0) return false;
  const std::size_t threads =
      static_cast<std::size_t>(threadsPerSm) * static_cast<std::size_t>(smCount);
  // Compared by division: the product may not fit in 64 bits for a forged
  // attribute, and 2 * reservation > deviceBytes is what is asked.
  return localBytesPerThread > deviceBytes / 2 / threads;
}

void disownGpuContention(const std::string& why) {
  if (contentionDisowned.exchange(true)) return;
  std::fprintf(stderr, "%s\n", why.c_str());
}

void throwIfFailed(cudaError_t code, const char* call, const char* file, int line) {
  if (code == cudaSuccess) return;
  std::ostringstream msg;
  msg << call << " failed at " << file << ":" << line << ": " << cudaGetErrorName(code) << " ("
      << cudaGetErrorString(code) << ")";
  noteIfGpuContention(code, msg.str());
  throw CudaError(code, msg.str());
}

void checkLaunch(const std::string& kernelName) {
  cudaError_t launch = cudaGetLastError();
  if (launch != cudaSuccess) {
    const std::string what = "launching " + kernelName + " failed: " +
                             cudaGetErrorName(launch) + " (" + cudaGetErrorString(launch) + ")";
    noteIfGpuContention(launch, what);
    throw CudaError(launch, what);
  }
  cudaError_t run = cudaDeviceSynchronize();
  if (run != cudaSuccess) {
    const std::string what = kernelName + " failed while running: " + cudaGetErrorName(run) +
                             " (" + cudaGetErrorString(run) + ")";
    noteIfGpuContention(run, what);
    throw CudaError(run, what);
  }
}

}  // namespace wb
