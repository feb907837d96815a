#include <cstdio>
#include <sstream>

#include "wb/cuda_check.h"
#include "wb/device.h"

namespace wb {

std::string DeviceInfo::describe() const {
  std::ostringstream s;
  s << name << " (sm_" << major << minor << ", " << smCount << " SMs, " << l2Bytes / (1024 * 1024)
    << " MB L2)";
  return s.str();
}

namespace {

std::optional<std::string> probeGpu() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    std::ostringstream msg;
    msg << "no usable CUDA GPU: cudaGetDeviceCount reported " << cudaGetErrorName(err) << " ("
        << cudaGetErrorString(err) << "), " << count
        << " device(s). GPU tests need an NVIDIA GPU of compute capability " << kMinComputeMajor
        << "." << kMinComputeMinor
        << " or newer and its driver; on this machine only the host tests run.";
    return msg.str();
  }
  int device = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    return std::string("a CUDA device was listed but its properties could not be read");
  }
  if (prop.major < kMinComputeMajor ||
      (prop.major == kMinComputeMajor && prop.minor < kMinComputeMinor)) {
    std::ostringstream msg;
    msg << prop.name << " has compute capability " << prop.major << "." << prop.minor
        << "; the workbook needs " << kMinComputeMajor << "." << kMinComputeMinor
        << " or newer (CUDA 13 builds nothing older).";
    return msg.str();
  }
  return std::nullopt;
}

}  // namespace

std::optional<int> stopBeforeTheWork(const char* program, const std::string& badArgument,
                                     bool help, const std::string& usage,
                                     int badArgumentStatus, int noGpuStatus) {
  if (!badArgument.empty()) {
    std::fprintf(stderr, "%s: %s\n\n%s", program, badArgument.c_str(), usage.c_str());
    return badArgumentStatus;
  }
  if (help) {
    std::printf("%s", usage.c_str());
    return 0;
  }
  if (const auto reason = gpuUnavailableReason()) {
    std::fprintf(stderr, "%s: %s\n", program, reason->c_str());
    return noGpuStatus;
  }
  return std::nullopt;
}

std::optional<std::string> gpuUnavailableReason() {
  static const std::optional<std::string> reason = probeGpu();
  return reason;
}

DeviceInfo currentDevice() {
  DeviceInfo info;
  WB_CUDA(cudaGetDevice(&info.index));
  cudaDeviceProp prop{};
  WB_CUDA(cudaGetDeviceProperties(&prop, info.index));
  info.name = prop.name;
  info.major = prop.major;
  info.minor = prop.minor;
  info.smCount = prop.multiProcessorCount;
  info.l2Bytes = static_cast<std::size_t>(prop.l2CacheSize);
  info.globalBytes = prop.totalGlobalMem;
  WB_CUDA(cudaDeviceGetAttribute(&info.memoryClockKHz, cudaDevAttrMemoryClockRate, info.index));
  WB_CUDA(cudaDeviceGetAttribute(&info.busWidthBits, cudaDevAttrGlobalMemoryBusWidth, info.index));
  WB_CUDA(cudaDriverGetVersion(&info.driverVersion));
  WB_CUDA(cudaRuntimeGetVersion(&info.runtimeVersion));
  return info;
}

}  // namespace wb
