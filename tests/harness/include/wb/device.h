/**
 * @file device.h
 * @brief Finding a usable GPU and reading what the timing code needs of it.
 */
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace wb {

/// The oldest GPU the workbook supports: compute capability 7.5 (Turing),
/// the oldest that CUDA 13 compiles for.
constexpr int kMinComputeMajor = 7;
constexpr int kMinComputeMinor = 5;

/// What the harness reads off the current device.
struct DeviceInfo {
  int index = 0;
  std::string name;
  int major = 0;                ///< compute capability, major
  int minor = 0;                ///< compute capability, minor
  int smCount = 0;              ///< streaming multiprocessors
  std::size_t l2Bytes = 0;      ///< L2 cache size
  std::size_t globalBytes = 0;  ///< device memory
  int memoryClockKHz = 0;       ///< peak memory clock (device attribute 36)
  int busWidthBits = 0;         ///< memory bus width
  int driverVersion = 0;        ///< e.g. 13000 for CUDA 13.0
  int runtimeVersion = 0;

  /// Theoretical peak memory bandwidth in GB/s (10^9 bytes): two transfers
  /// per clock (double data rate) times the bus width in bytes. CUDA 13
  /// dropped cudaDeviceProp::memoryClockRate; the attribute still reports it.
  double peakGBs() const { return 2.0 * memoryClockKHz * 1e3 * (busWidthBits / 8.0) / 1e9; }
  /// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 50 MB L2)"
  std::string describe() const;
};

/**
 * @brief Why GPU work cannot run here, or nothing when it can.
 *
 * Reasons: no CUDA driver, no device, or a device older than compute
 * capability 7.5. The text says what was found and what to do. The answer is
 * computed once per process.
 */
std::optional<std::string> gpuUnavailableReason();

/**
 * @brief What a benchmark program (wb_bench, wb_transpose_sweep) settles
 *        before its work: a wrong command line (@p badArgument not empty:
 *        said on stderr with the usage), a request for @p usage (printed),
 *        no usable GPU (its reason on stderr).
 * @return the exit status to stop with (@p badArgumentStatus, 0,
 *         @p noGpuStatus), or nothing when the work can start
 */
std::optional<int> stopBeforeTheWork(const char* program, const std::string& badArgument,
                                     bool help, const std::string& usage,
                                     int badArgumentStatus, int noGpuStatus);

/// The current device's properties. Throws wb::CudaError without a device.
DeviceInfo currentDevice();

}  // namespace wb
