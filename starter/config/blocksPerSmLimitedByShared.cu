// Exercise blocksPerSmLimitedByShared (book section 5.1). How many blocks
// fit on one SM when shared memory is what limits them; tested on the CPU
// against fixed GPUs and, on a GPU, against the runtime's occupancy API.
// The contract is in chapters/config/config.cuh.
#include "config/config.cuh"

namespace wb::config {

int blocksPerSmLimitedByShared(const SharedMemoryLimits& limits, std::size_t bytesPerBlock) {
  // TODO(book 5.1): return how many blocks using bytesPerBlock of shared
  // memory fit on one SM of a device with these limits.
  // Contract: blocksPerSmLimitedByShared in chapters/config/config.cuh.
  // Roughly 9 lines; `./workbook hint blocksPerSmLimitedByShared` gives it step by step.
  // Until then it returns 0 and its tests fail.
  (void)limits;
  (void)bytesPerBlock;
  return 0;
}

}  // namespace wb::config
