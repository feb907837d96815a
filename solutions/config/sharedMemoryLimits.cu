// Book 5.1, the worked example: what a device offers in shared memory. Every
// number comes from cudaDeviceGetAttribute, which reads one attribute
// without filling a whole cudaDeviceProp; only the allocation granularity
// has no attribute and comes from the compute capability.
#include <stdexcept>
#include <string>

#include "config/config.cuh"

namespace wb::config {
namespace {

// One attribute of the device, or a std::runtime_error that names it and
// the CUDA error (no device, an index that is not a device).
int attribute(cudaDeviceAttr which, const char* name, int device) {
  int value = 0;
  const cudaError_t err = cudaDeviceGetAttribute(&value, which, device);
  if (err != cudaSuccess) {
    throw std::runtime_error(std::string("cudaDeviceGetAttribute(") + name + ", device " +
                             std::to_string(device) + ") failed: " + cudaGetErrorName(err));
  }
  return value;
}

}  // namespace

SharedMemoryLimits sharedMemoryLimits(int device) {
  SharedMemoryLimits limits;
  limits.computeMajor = attribute(cudaDevAttrComputeCapabilityMajor, "major", device);
  limits.computeMinor = attribute(cudaDevAttrComputeCapabilityMinor, "minor", device);
  // 48 KB on every GPU: what a block gets without opting in.
  limits.perBlockDefault = static_cast<std::size_t>(
      attribute(cudaDevAttrMaxSharedMemoryPerBlock, "MaxSharedMemoryPerBlock", device));
  // What a block may ask for after cudaFuncAttributeMaxDynamicSharedMemorySize.
  limits.perBlockOptin = static_cast<std::size_t>(
      attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, "MaxSharedMemoryPerBlockOptin", device));
  // The SM's shared memory at the largest carveout.
  limits.perMultiprocessor = static_cast<std::size_t>(attribute(
      cudaDevAttrMaxSharedMemoryPerMultiprocessor, "MaxSharedMemoryPerMultiprocessor", device));
  // What the runtime keeps for itself in every resident block (1 KB from sm_80).
  limits.reservedPerBlock = static_cast<std::size_t>(attribute(
      cudaDevAttrReservedSharedMemoryPerBlock, "ReservedSharedMemoryPerBlock", device));
  limits.allocationGranularity = allocationGranularityFor(limits.computeMajor);
  limits.maxBlocksPerMultiprocessor =
      attribute(cudaDevAttrMaxBlocksPerMultiprocessor, "MaxBlocksPerMultiprocessor", device);
  return limits;
}

}  // namespace wb::config
