// Times two reduction kernels against each other, the way every reduction
// performance claim is measured (book sections 5.3 and 5.6.3): each kernel
// is checked first (a performance claim about a wrong kernel means nothing),
// then both are timed on the same 2^24-int input (64 MiB, more than the L2
// of an H100 or an H200), their runs interleaved, L2 flushed before every
// timed run. In-place kernels get their input restored before every run,
// outside the timed region.
//
// The output is re-poisoned before every run and the partial sums of every
// timed run are checked: a kernel that is correct when checked and then
// skips its work (device code can count its launches) leaves poison behind
// and fails.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "reduction/reduction.cuh"
#include "reduction_check.h"
#include "reduction_inputs.h"
#include "wb/buffer.h"
#include "wb/cuda_check.h"
#include "wb/stats.h"
#include "wb/timing.h"

namespace wb::reduction::testing {

/// Elements of the timed input.
constexpr unsigned int kTimedElements = 1u << 24;

/// Elements of the correctness check before timing: seven unrolled spans
/// and a ragged tail, so a kernel that drops the tail is not timed.
constexpr unsigned int kCheckedElements = 4 * 128 * 7 + 5;

/// One reduction kernel, checked on input drawn from @p seed, with its own
/// input and output on the device, ready to be timed on @p input. Must
/// outlive the TimedKernel that timed() returns.
class ReductionUnderTest {
 public:
  ReductionUnderTest(const ReduceKernel& k, std::uint64_t seed, const std::vector<int>& input)
      : k_(k),
        input_(input),
        n_(static_cast<unsigned int>(input.size())),
        in_(n_),
        out_(k_.blocks(n_)),
        want_(referencePartialSums(input, k_.span())) {
    const std::string wrong = runAndCheck(k_, randomInput(kCheckedElements, seed));
    if (!wrong.empty()) {
      throw std::runtime_error(std::string("cannot time ") + k_.exercise +
                               " before it is correct: " + wrong);
    }
    uploadGuarded(in_, input_);
    if (k_.inPlace) {
      pristine_.emplace(n_, 0);
      pristine_->upload(input_);
    }
  }

  TimedKernel timed() {
    TimedKernel t;
    t.name = k_.exercise;
    t.launch = [this] { launch(k_, in_.data(), out_.data(), n_); };
    t.options.flushL2 = true;  // every run reads its input from device memory
    t.options.beforeEach = [this] {
      if (pristine_) {  // an in-place kernel overwrote its input last time
        WB_CUDA(cudaMemcpyAsync(in_.data(), pristine_->data(), in_.bytes(),
                                cudaMemcpyDeviceToDevice));
      }
      out_.poison();
    };
    t.options.afterEach = [this](int run) { checkRun(run); };
    return t;
  }

  /// Checks everything the last timed run left (checkResult): besides the
  /// sums checked after every run, that the input and the guards around it
  /// are intact, which also shows that an in-place kernel's input really was
  /// restored every time. Then prints @p stats and the effective bandwidth.
  void checkLastRunAndReport(const TimingStats& stats) const {
    const std::string wrong = checkResult(k_, input_, in_, out_);
    if (!wrong.empty()) {
      throw std::runtime_error(std::string(k_.exercise) + " was wrong on the " +
                               std::to_string(n_) + "-element input it was timed on: " + wrong);
    }
    std::printf("%s: median %.4f ms (min %.4f, max %.4f, %zu runs), "
                "effective bandwidth %.0f GB/s\n",
                k_.exercise, stats.medianMs, stats.minMs, stats.maxMs, stats.samplesMs.size(),
                gbPerSecond(static_cast<double>(k_.bytesRead(n_)),
                            static_cast<double>(k_.bytesWritten(n_)), stats.medianMs));
  }

 private:
  /// Checks the partial sums of timed run @p run on the host: one int per
  /// block, small enough to download after every run without leaving the
  /// GPU idle for long. (The whole of checkResult would also download and
  /// compare the 2^24-int input every time.)
  void checkRun(int run) const {
    const std::string problem = checkPartialSums(k_, n_, out_, want_);
    if (!problem.empty()) {
      throw std::runtime_error(std::string(k_.exercise) + " was wrong in timed run " +
                               std::to_string(run + 1) + " on " + std::to_string(n_) +
                               " elements: " + problem);
    }
  }

  const ReduceKernel& k_;
  const std::vector<int>& input_;
  unsigned int n_;
  DeviceBuffer<int> in_;
  DeviceBuffer<int> out_;
  std::optional<DeviceBuffer<int>> pristine_;  // restores the input of in-place kernels
  std::vector<std::int64_t> want_;             // the partial sums of input_
};

/// Median times in ms of kernels @p first and @p second, each checked first
/// (on input drawn from @p seed), then timed with their runs interleaved on
/// the same kTimedElements input (drawn from seed + 1). Throws, failing the
/// test with the reason, when either is wrong.
inline std::pair<double, double> interleavedMedianMs(const ReduceKernel& first,
                                                     const ReduceKernel& second,
                                                     std::uint64_t seed) {
  const std::vector<int> input = randomInput(kTimedElements, seed + 1);
  ReductionUnderTest a(first, seed, input);
  ReductionUnderTest b(second, seed, input);
  const auto [aStats, bStats] = timeKernelPair(a.timed(), b.timed());
  a.checkLastRunAndReport(aStats);
  b.checkLastRunAndReport(bStats);
  return {aStats.medianMs, bStats.medianMs};
}

}  // namespace wb::reduction::testing
