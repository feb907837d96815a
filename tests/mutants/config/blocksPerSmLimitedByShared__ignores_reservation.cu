// bug: leaves out the 1 KB the runtime reserves in every block (sm_80 and newer)
// expect: host
#include "config/config.cuh"

namespace wb::config {

int blocksPerSmLimitedByShared(const SharedMemoryLimits& limits, std::size_t bytesPerBlock) {
  if (bytesPerBlock > limits.perBlockOptin) return 0;
  const std::size_t unit = limits.allocationGranularity;
  const std::size_t allocated = (bytesPerBlock + unit - 1) / unit * unit;
  if (allocated == 0) return limits.maxBlocksPerMultiprocessor;
  const std::size_t fit = limits.perMultiprocessor / allocated;
  const std::size_t cap = static_cast<std::size_t>(limits.maxBlocksPerMultiprocessor);
  return static_cast<int>(fit < cap ? fit : cap);
}

}  // namespace wb::config
