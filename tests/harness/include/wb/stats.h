/**
 * @file stats.h
 * @brief Statistics of repeated timings and effective bandwidth. Pure C++.
 */
#pragma once

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace wb {

/// The median of @p samples (the mean of the middle two for an even count).
/// Throws std::invalid_argument when there are none.
inline double median(std::vector<double> samples) {
  if (samples.empty()) throw std::invalid_argument("median of no samples");
  const std::size_t mid = samples.size() / 2;
  std::nth_element(samples.begin(), samples.begin() + mid, samples.end());
  const double upper = samples[mid];
  if (samples.size() % 2) return upper;
  const double lower = *std::max_element(samples.begin(), samples.begin() + mid);
  return (lower + upper) / 2.0;
}

/**
 * @brief Effective bandwidth in GB/s (10^9 bytes per second), book section
 *        5.3.4: the bytes a kernel must read plus the bytes it must write,
 *        over its time.
 * @param bytesRead    bytes read from device memory
 * @param bytesWritten bytes written to device memory
 * @param milliseconds the kernel's time
 */
inline double gbPerSecond(double bytesRead, double bytesWritten, double milliseconds) {
  if (milliseconds <= 0.0) throw std::invalid_argument("bandwidth of a non-positive time");
  return (bytesRead + bytesWritten) / 1e9 / (milliseconds / 1e3);
}

/// Summary of repeated timings of one kernel.
struct TimingStats {
  std::vector<double> samplesMs;  ///< every timed repetition, in launch order
  double medianMs = 0.0;
  double minMs = 0.0;
  double maxMs = 0.0;
  /// Builds the summary of @p samples.
  static TimingStats of(std::vector<double> samples) {
    TimingStats s;
    s.medianMs = median(samples);
    s.minMs = *std::min_element(samples.begin(), samples.end());
    s.maxMs = *std::max_element(samples.begin(), samples.end());
    s.samplesMs = std::move(samples);
    return s;
  }
};

}  // namespace wb
