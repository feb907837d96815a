#include "wb/cuda_check.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <vector>

namespace wb {
namespace {

std::atomic<bool> contentionSeen{false};
std::atomic<bool> contentionDisowned{false};

// Appends @p what as one line to the file the variable @p logVariable names,
// when it is set: whole, in one write, never through a link. A failure to
// write leaves the note out, nothing worse.
void appendNote(const char* logVariable, const std::string& what) {
  const char* log = std::getenv(logVariable);
  if (log == nullptr || *log == '\0') return;
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

// @p text as a JSON string, every control character escaped.
std::string jsonString(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (u < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", u);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

void noteCudaError(const std::string& what) { appendNote("WB_CUDA_ERROR_LOG", "error " + what); }

void noteTestStart(const std::string& test) { appendNote("WB_CUDA_ERROR_LOG", "test " + test); }

void noteTestEnd(const std::string& test, const char* result,
                 const std::vector<std::string>& failures) {
  // One line of JSON: the line's own newlines would split the record.
  std::string line = "end {\"test\": " + jsonString(test) + ", \"result\": " +
                     jsonString(result) + ", \"failures\": [";
  for (std::size_t i = 0; i < failures.size(); ++i) {
    line += (i ? ", " : "") + jsonString(failures[i]);
  }
  appendNote("WB_CUDA_ERROR_LOG", line + "]}");
}

void noteGpuContention(const std::string& what) {
  noteCudaError(what);
  if (contentionDisowned) return;
  contentionSeen = true;
  // Without the note the failed test is not run again, nothing worse.
  appendNote("WB_GPU_CONTENTION_LOG", what);
}

bool isGpuContention(cudaError_t code) {
  return code == cudaErrorMemoryAllocation || code == cudaErrorDevicesUnavailable;
}

void noteCudaFailure(cudaError_t code, const std::string& what) {
  if (code == cudaSuccess) return;
  if (isGpuContention(code)) {
    noteGpuContention(what);
  } else {
    noteCudaError(what);
  }
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
  noteCudaFailure(code, msg.str());
  throw CudaError(code, msg.str());
}

void checkLaunch(const std::string& kernelName) {
  cudaError_t launch = cudaGetLastError();
  if (launch != cudaSuccess) {
    const std::string what = "launching " + kernelName + " failed: " +
                             cudaGetErrorName(launch) + " (" + cudaGetErrorString(launch) + ")";
    noteCudaFailure(launch, what);
    throw CudaError(launch, what);
  }
  cudaError_t run = cudaDeviceSynchronize();
  if (run != cudaSuccess) {
    const std::string what = kernelName + " failed while running: " + cudaGetErrorName(run) +
                             " (" + cudaGetErrorString(run) + ")";
    noteCudaFailure(run, what);
    throw CudaError(run, what);
  }
}

}  // namespace wb
