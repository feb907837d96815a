// bug: divides by the exact bytes plus reservation, never rounding a block up to whole allocation units
// expect: host
#include "config/config.cuh"

namespace wb::config {

int blocksPerSmLimitedByShared(const SharedMemoryLimits& limits, std::size_t bytesPerBlock) {
  if (bytesPerBlock > limits.perBlockOptin) return 0;
  const std::size_t occupied = bytesPerBlock + limits.reservedPerBlock;
  if (occupied == 0) return limits.maxBlocksPerMultiprocessor;
  const std::size_t fit = limits.perMultiprocessor / occupied;
  const std::size_t cap = static_cast<std::size_t>(limits.maxBlocksPerMultiprocessor);
  return static_cast<int>(fit < cap ? fit : cap);
}

}  // namespace wb::config
