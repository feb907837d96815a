// bug: rounds the number of blocks to the nearest whole block instead of flooring it
// expect: host
#include <cmath>

#include "config/config.cuh"

namespace wb::config {

int blocksPerSmLimitedByShared(const SharedMemoryLimits& limits, std::size_t bytesPerBlock) {
  if (bytesPerBlock > limits.perBlockOptin) return 0;
  const std::size_t unit = limits.allocationGranularity;
  const std::size_t allocated = (bytesPerBlock + limits.reservedPerBlock + unit - 1) / unit * unit;
  if (allocated == 0) return limits.maxBlocksPerMultiprocessor;
  const double fit = std::round(static_cast<double>(limits.perMultiprocessor) /
                                static_cast<double>(allocated));
  const double cap = static_cast<double>(limits.maxBlocksPerMultiprocessor);
  return static_cast<int>(fit < cap ? fit : cap);
}

}  // namespace wb::config
