// Exercise effectiveBandwidth (book section 5.3.4). The host function the
// section compares its kernels with; tested on the CPU.
// The contract is in chapters/reduction/reduction.cuh.
#include <stdexcept>

#include "reduction/reduction.cuh"

namespace wb::reduction {

double effectiveBandwidthGBs(std::size_t bytesRead, std::size_t bytesWritten,
                             double milliseconds) {
  // TODO(book 5.3.4): return the effective bandwidth in GB/s (decimal
  // gigabytes) of a kernel that moved these bytes in this many milliseconds.
  // Contract: effectiveBandwidthGBs in chapters/reduction/reduction.cuh.
  // Roughly 6 lines; `./workbook hint effectiveBandwidth` gives it step by step.
  // Until then it returns 0 and its tests fail.
  (void)bytesRead;
  (void)bytesWritten;
  (void)milliseconds;
  return 0.0;
}

}  // namespace wb::reduction
