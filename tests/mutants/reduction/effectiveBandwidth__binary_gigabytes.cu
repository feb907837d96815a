// bug: counts a gigabyte as 2^30 bytes, as some tools do, not 10^9
// expect: host
#include <stdexcept>

#include "reduction/reduction.cuh"

namespace wb::reduction {

double effectiveBandwidthGBs(std::size_t bytesRead, std::size_t bytesWritten,
                             double milliseconds) {
  if (!(milliseconds > 0.0)) throw std::invalid_argument("the time must be positive");
  const double bytes = static_cast<double>(bytesRead) + static_cast<double>(bytesWritten);
  return bytes / double(1u << 30) / (milliseconds / 1e3);
}

}  // namespace wb::reduction
