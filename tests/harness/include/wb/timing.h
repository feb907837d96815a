/**
 * @file timing.h
 * @brief Timing kernels with CUDA events: warm-up, many repetitions, the
 *        median, and an L2 flush between repetitions.
 *
 * Every performance claim in the workbook is a ratio of two medians measured
 * in the same process with these functions, on data larger than L2.
 */
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <string>

#include "wb/stats.h"

namespace wb {

/// How timeKernel repeats a launch.
struct TimingOptions {
  int warmup = 3;        ///< untimed runs first (module load, clocks, TLB)
  int repetitions = 31;  ///< timed runs; the median is reported
  /// Read a buffer twice the L2 size before every timed run, so each run
  /// starts with its data in device memory, not in cache, and with no dirty
  /// line of anyone else's left in L2 for it to write back.
  bool flushL2 = true;
  /// Runs before every run (warm-up and timed), outside the timed region:
  /// restoring an input that the kernel overwrites, re-poisoning an output.
  std::function<void()> beforeEach;
};

/**
 * @brief Times @p launch (one kernel launch on the default stream) with CUDA
 *        events around each repetition.
 * @param name   named in errors: the first run is checked with checkLaunch.
 * @param launch enqueues the work to time.
 */
TimingStats timeKernel(const std::string& name, const std::function<void()>& launch,
                       const TimingOptions& options = {});

}  // namespace wb
