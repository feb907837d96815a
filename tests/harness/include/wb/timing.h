/**
 * @file timing.h
 * @brief Timing kernels with CUDA events: warm-up, a settled GPU clock, many
 *        repetitions, the median, and an L2 flush between repetitions.
 *
 * Every performance claim in the workbook is a ratio of two medians measured
 * in the same process with timeKernelPair, on data larger than L2, the two
 * kernels' samples interleaved so that whatever changes while they are
 * timed (clocks, temperature, a neighbour on the machine) changes both.
 */
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "wb/stats.h"

namespace wb {

/// How a launch is repeated and timed.
struct TimingOptions {
  int warmup = 3;        ///< untimed runs first (module load, TLB, first-launch checks)
  int repetitions = 31;  ///< timed runs; the median is reported
  /// Read a buffer twice the L2 size before every timed run, so each run
  /// starts with its data in device memory, not in cache, and with no dirty
  /// line of anyone else's left in L2 for it to write back.
  bool flushL2 = true;
  /// Runs before every run (warm-up and timed), outside the timed region:
  /// restoring an input that the kernel overwrites, re-poisoning an output.
  std::function<void()> beforeEach;
  /// Runs before every run, after beforeEach, with the run's number: 0 to
  /// repetitions - 1 for the timed runs, -1 for the warm-up runs. A kernel
  /// timed on several inputs picks the run's input here (InputSchedule).
  std::function<void(int run)> beforeRun;
  /// Runs after every timed run, once its stop event has been reached and
  /// its launch checked, outside the timed region, with the run's index
  /// (0 to repetitions - 1): checking what that run wrote. It may throw to
  /// end the timing; the exception leaves timeKernel or timeKernelPair.
  std::function<void(int run)> afterEach;
  /// Runs after every run (warm-up and timed) once it has been checked:
  /// wiping what the run wrote (re-poisoning its output). The kernels of a
  /// comparison share one CUDA context, so device code can read the other
  /// kernel's buffers; a correct output left there is an answer a kernel
  /// timed next could copy instead of computing its own.
  std::function<void()> afterCheck;
};

/// One launch to time and how to time it.
struct TimedKernel {
  std::string name;              ///< named in errors (every timed run is checkLaunch'ed)
  std::function<void()> launch;  ///< enqueues the work to time on the default stream
  TimingOptions options;
};

/**
 * @brief Times @p launch (one kernel launch on the default stream) with CUDA
 *        events around each repetition.
 * @param name   named in errors: the first run and every timed run are
 *               checked with checkLaunch.
 * @param launch enqueues the work to time.
 */
TimingStats timeKernel(const std::string& name, const std::function<void()>& launch,
                       const TimingOptions& options = {});

/**
 * @brief Times two launches with their samples interleaved: both warm up,
 *        then each round times one run of each, the order alternating
 *        (A B, B A, A B, ...), each run preceded by its own beforeEach and
 *        flush and followed by its own afterEach.
 *
 * Timing all of A and then all of B lets anything that drifts during the
 * process (a clock still ramping up, the GPU warming) favour one of them;
 * interleaved, both see the same conditions.
 * @throws std::invalid_argument when their options.repetitions differ.
 */
std::pair<TimingStats, TimingStats> timeKernelPair(const TimedKernel& a, const TimedKernel& b);

/// timeKernelPair for any number of launches (a comparison with the best of
/// several): round r starts with kernel r modulo their count. The results
/// are in the order of @p kernels.
std::vector<TimingStats> timeKernelsInterleaved(const std::vector<TimedKernel>& kernels);

/**
 * @brief Which of several inputs each timed run is given, in an order drawn
 *        from a seed: no run gets the input of the run before it (the
 *        warm-up runs get input 0, so the first timed run gets another).
 *
 * Device code can keep results in `__device__` memory from one launch to
 * the next. Timed on one input, a kernel that sums its input once and then
 * replays the sums it kept is as right as it is fast; timed on inputs that
 * change from run to run in an order it cannot foresee, a replayed output
 * is another input's, which the check of every timed run catches. Both
 * kernels of a comparison use the same schedule (the same seed), and the
 * same changed elements (changedElement).
 */
class InputSchedule {
 public:
  /// Inputs of a timed comparison: 4 x 256 MiB for the largest (transpose).
  static constexpr int kInputs = 4;

  InputSchedule(int runs, std::uint64_t seed, int inputs = kInputs)
      : inputs_(inputs), seed_(seed ^ 0x5bd1e9955bd1e995ull) {
    if (inputs < 2) throw std::invalid_argument("InputSchedule needs at least two inputs");
    int previous = 0;  // the warm-up runs' input
    for (int run = 0; run < runs; ++run) {
      // Any input but the previous one, each equally likely.
      const std::uint64_t z = mix(seed_ + 0x9e3779b97f4a7c15ull * (run + 1ull));
      previous = (previous + 1 + static_cast<int>(z % static_cast<std::uint64_t>(inputs - 1))) %
                 inputs;
      order_.push_back(previous);
    }
  }

  int inputs() const { return inputs_; }

  /// The element, of @p n, that changes in its input before timed run
  /// @p run, drawn from the seed. With several kept results per input, a
  /// kernel could still replay the outputs of the kInputs inputs it has
  /// seen; one changed element per run, where it cannot foresee, makes
  /// every run's input one that no earlier run had, and a replayed output
  /// wrong somewhere.
  std::size_t changedElement(int run, std::size_t n) const {
    return static_cast<std::size_t>(mix(seed_ + 0x632be59bd9b4e019ull * (run + 1ull)) % n);
  }

  /// The input of run @p run (TimingOptions::beforeRun's number; -1, a
  /// warm-up run, gets input 0).
  int inputOf(int run) const {
    if (run < 0) return 0;
    if (run >= static_cast<int>(order_.size())) {
      throw std::out_of_range("InputSchedule: run " + std::to_string(run) + " of " +
                              std::to_string(order_.size()));
    }
    return order_[static_cast<std::size_t>(run)];
  }

 private:
  /// splitmix64's output function: a well-mixed 64-bit value from @p z.
  static std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

  int inputs_;
  std::uint64_t seed_;
  std::vector<int> order_;
};

/// What settling the GPU clock found.
struct ClockSettling {
  bool settled = false;  ///< the last samples agreed before the time cap
  int launches = 0;      ///< kernel launches it took
  double ms = 0.0;       ///< wall-clock time it took
};

/**
 * @brief Keeps the GPU busy until its clocks have settled, once per process;
 *        later calls return the first call's result at once.
 *
 * An idle GPU runs at low clocks (an idle H100 at 345 MHz, against 1980)
 * and raises them only once work arrives, over a time that depends on the
 * machine. Without this step the first timed samples of a process can be
 * slow: on a freshly started GPU a kernel timed first measured 1.22x its
 * twin timed second, failing a 1.10x limit. timeKernel and timeKernelPair
 * call this after their warm-up runs, before their first timed sample, and
 * it prints one line saying how long it took ("GPU clock settled after 4094
 * warm-up launches (156 ms)", on an H100). The decision is ClockSettleRule's.
 */
const ClockSettling& settleGpuClock();

/**
 * @brief Decides, from successive timings of the same batch of work, when
 *        the clocks have settled. Pure C++: the host tests check it.
 *
 * Settled means kAgreeing successive samples within kTolerance of each
 * other. Samples are made long (batch() doubles until one takes at least
 * kMinSampleMs) because a clock that ramps up slowly changes short samples
 * by less than the tolerance from one to the next: three agreeing samples
 * must span enough time that a ramp still under way shows between them.
 */
class ClockSettleRule {
 public:
  static constexpr int kAgreeing = 3;
  static constexpr double kTolerance = 0.02;  ///< (slowest - fastest) / fastest
  static constexpr double kMinSampleMs = 20.0;
  static constexpr int kMaxBatch = 1 << 16;
  /// The caller gives up, unsettled, after this long (wall clock).
  static constexpr double kCapMs = 2000.0;

  /// Launches of the probe work to time as one sample.
  int batch() const { return batch_; }

  /// Takes the time of one sample of batch() launches.
  /// @return true once the last kAgreeing samples agree.
  bool add(double sampleMs) {
    if (sampleMs < kMinSampleMs && batch_ < kMaxBatch) {
      batch_ *= 2;  // too short to show a ramp: lengthen the samples, start over
      recent_.clear();
      return false;
    }
    recent_.push_back(sampleMs);
    if (recent_.size() > static_cast<std::size_t>(kAgreeing)) recent_.erase(recent_.begin());
    if (recent_.size() < static_cast<std::size_t>(kAgreeing)) return false;
    const auto [fastest, slowest] = std::minmax_element(recent_.begin(), recent_.end());
    return *slowest - *fastest <= kTolerance * *fastest;
  }

 private:
  int batch_ = 1;
  std::vector<double> recent_;
};

}  // namespace wb
