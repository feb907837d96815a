// Book 5.1: shared memory and occupancy. The SM divides its shared memory
// between the blocks resident on it, so the more a block uses, the fewer
// blocks (and warps) it can hold at once.
#include "config/config.cuh"

namespace wb::config {

int blocksPerSmLimitedByShared(const SharedMemoryLimits& limits, std::size_t bytesPerBlock) {
  // A block that needs more than a block may have never launches.
  if (bytesPerBlock > limits.perBlockOptin) {
    return 0;
  }
  // What the block occupies: its own bytes plus the runtime's reservation,
  // rounded up to whole allocation units.
  const std::size_t unit = limits.allocationGranularity;
  const std::size_t allocated = (bytesPerBlock + limits.reservedPerBlock + unit - 1) / unit * unit;
  // Whole allocations only (integer division floors), never more blocks than the SM holds.
  const int cap = limits.maxBlocksPerMultiprocessor;
  if (allocated == 0) {
    return cap;
  }
  const std::size_t fit = limits.perMultiprocessor / allocated;
  return fit < static_cast<std::size_t>(cap) ? static_cast<int>(fit) : cap;
}

}  // namespace wb::config
