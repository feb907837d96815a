// Book 5.3.4: effective bandwidth, the measure the section compares its
// kernels by. It counts the bytes the algorithm must move (each input
// element read once, each partial sum written once), not what a particular
// kernel happens to move, and divides by the measured time. Gigabytes are
// decimal (10^9 bytes), as memory datasheets quote them.
#include <stdexcept>
#include <string>

#include "reduction/reduction.cuh"

namespace wb::reduction {

double effectiveBandwidthGBs(std::size_t bytesRead, std::size_t bytesWritten,
                             double milliseconds) {
  if (!(milliseconds > 0.0)) {
    throw std::invalid_argument("effective bandwidth needs a positive time, got " +
                                std::to_string(milliseconds) + " ms");
  }
  // Convert to double before adding: the counts may exceed any int, and the
  // quotient must not be truncated to whole gigabytes.
  const double gigabytes = (static_cast<double>(bytesRead) + static_cast<double>(bytesWritten)) / 1e9;
  const double seconds = milliseconds / 1e3;
  return gigabytes / seconds;
}

}  // namespace wb::reduction
