// What the config tests share: reading a device attribute or a kernel's
// attributes inside a GPU check (which runs in a child process and reports
// problems as text, wb/isolated_gpu.h), and naming CUDA errors.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>

#include "config/config.cuh"
#include "wb/cuda_check.h"

namespace wb::config::check {

/// "cudaErrorInvalidValue (1)"
inline std::string errorName(cudaError_t err) {
  return std::string(cudaGetErrorName(err)) + " (" + std::to_string(static_cast<int>(err)) + ")";
}

/// The current device's attribute, read by the test itself; throws when it
/// cannot be read (the check then fails with the message).
inline int deviceAttribute(cudaDeviceAttr which, const char* name) {
  int device = 0;
  int value = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess) err = cudaDeviceGetAttribute(&value, which, device);
  if (err != cudaSuccess) {
    noteCudaFailure(err, std::string("the test reading ") + name);
    throw std::runtime_error(std::string("the test could not read ") + name + ": " +
                             errorName(err));
  }
  return value;
}

/// The current device's limits, as the test reads them (not through the
/// worked example, whose object the other exercises' tests do not link).
inline SharedMemoryLimits deviceLimits() {
  SharedMemoryLimits l;
  l.computeMajor = deviceAttribute(cudaDevAttrComputeCapabilityMajor, "the compute capability");
  l.computeMinor = deviceAttribute(cudaDevAttrComputeCapabilityMinor, "the compute capability");
  l.perBlockDefault = static_cast<std::size_t>(
      deviceAttribute(cudaDevAttrMaxSharedMemoryPerBlock, "MaxSharedMemoryPerBlock"));
  l.perBlockOptin = static_cast<std::size_t>(
      deviceAttribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, "MaxSharedMemoryPerBlockOptin"));
  l.perMultiprocessor = static_cast<std::size_t>(deviceAttribute(
      cudaDevAttrMaxSharedMemoryPerMultiprocessor, "MaxSharedMemoryPerMultiprocessor"));
  l.reservedPerBlock = static_cast<std::size_t>(deviceAttribute(
      cudaDevAttrReservedSharedMemoryPerBlock, "ReservedSharedMemoryPerBlock"));
  l.allocationGranularity = allocationGranularityFor(l.computeMajor);
  l.maxBlocksPerMultiprocessor =
      deviceAttribute(cudaDevAttrMaxBlocksPerMultiprocessor, "MaxBlocksPerMultiprocessor");
  return l;
}

/// A kernel's attributes; throws when they cannot be read.
inline cudaFuncAttributes kernelAttributes(const void* kernel, const char* name) {
  cudaFuncAttributes a{};
  const cudaError_t err = cudaFuncGetAttributes(&a, kernel);
  if (err != cudaSuccess) {
    throw std::runtime_error(std::string("cudaFuncGetAttributes(") + name + ") failed: " +
                             errorName(err));
  }
  return a;
}

/// How many blocks of @p threads threads with @p dynamicBytes of dynamic
/// shared memory the occupancy API says one SM holds; throws on an error.
inline int occupancy(const void* kernel, int threads, std::size_t dynamicBytes) {
  int blocks = -1;
  const cudaError_t err =
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, dynamicBytes);
  if (err != cudaSuccess) {
    noteCudaFailure(err, "the test's occupancy query");
    throw std::runtime_error("cudaOccupancyMaxActiveBlocksPerMultiprocessor(" +
                             std::to_string(dynamicBytes) + " bytes) failed: " + errorName(err));
  }
  return blocks;
}

}  // namespace wb::config::check
