// bug: forgets that an SM holds at most maxBlocksPerMultiprocessor blocks whatever their shared memory
// expect: host
#include <climits>

#include "config/config.cuh"

namespace wb::config {

int blocksPerSmLimitedByShared(const SharedMemoryLimits& limits, std::size_t bytesPerBlock) {
  if (bytesPerBlock > limits.perBlockOptin) return 0;
  const std::size_t unit = limits.allocationGranularity;
  const std::size_t allocated = (bytesPerBlock + limits.reservedPerBlock + unit - 1) / unit * unit;
  if (allocated == 0) return INT_MAX;
  return static_cast<int>(limits.perMultiprocessor / allocated);
}

}  // namespace wb::config
