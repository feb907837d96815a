// Times a student's reduction kernel against a reference kernel, the way
// every reduction performance claim is measured (book sections 5.3 and
// 5.6.3): each kernel is checked first (a performance claim about a wrong
// kernel means nothing), then both are timed on the same inputs of 2^24
// ints (64 MiB, more than the L2 of an H100 or an H200), their runs
// interleaved, L2 flushed before every timed run. In-place kernels get
// their input restored before every run, outside the timed region.
//
// The yardstick is never the student's: the other kernel of a comparison
// is loaded from the reference build (TimedReduction::modules, a
// wb::ModuleFolderScope), so a slow reduceSmem of the student's own cannot
// make a slow reduceSmemDyn pass.
//
// Every timed run gets its own input: InputSchedule::kInputs random inputs,
// a different one from run to run in an order drawn from the seed, the
// same order for both kernels, and before every timed run one element of
// its input, drawn from the seed, changes (outside the timed region), so
// no two runs see the same input. The output is re-poisoned before every
// run and the partial sums of every timed run are checked against those of
// the input it was given: a kernel that is correct when checked and then
// skips its work (device code can count its launches), or replays sums it
// kept in `__device__` memory from an earlier launch, fails.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
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
#include "wb/modules.h"
#include "wb/stats.h"
#include "wb/timing.h"

namespace wb::reduction::testing {

/// Elements of each timed input.
constexpr unsigned int kTimedElements = 1u << 24;

/// Elements of the correctness check before timing: seven unrolled spans
/// and a ragged tail, so a kernel that drops the tail is not timed.
constexpr unsigned int kCheckedElements = 4 * 128 * 7 + 5;

/// A kernel to time and the build it comes from.
struct TimedReduction {
  const ReduceKernel& kernel;
  /// The reference build's module folders (a wb::ModuleFolderScope), or
  /// null for the modules under test (WB_MODULES).
  const char* referenceModules = nullptr;

  /// "reduceSmem", or "reference reduceSmem".
  std::string label() const {
    return (referenceModules != nullptr ? std::string("reference ") : std::string()) +
           kernel.exercise;
  }
};

/// The inputs every timed run of a comparison chooses from, and the order
/// in which the runs get them.
struct TimedInputs {
  TimedInputs(std::uint64_t seed, int repetitions) : schedule(repetitions, seed + 1) {
    for (int i = 0; i < schedule.inputs(); ++i) {
      host.push_back(randomInput(kTimedElements, seed + 1 + static_cast<std::uint64_t>(i)));
    }
  }
  std::vector<std::vector<int>> host;
  InputSchedule schedule;
};

/// One reduction kernel, checked on input drawn from @p seed, with its own
/// copy of every timed input and its own output on the device, ready to be
/// timed. Must outlive the TimedKernel that timed() returns.
class ReductionUnderTest {
 public:
  ReductionUnderTest(const TimedReduction& k, std::uint64_t seed, const TimedInputs& inputs)
      : k_(k.kernel), modules_(k.referenceModules), label_(k.label()), inputs_(inputs),
        n_(kTimedElements), out_(k_.blocks(n_)) {
    {
      const ModuleFolderScope scope(modules_);
      const std::string wrong = runAndCheck(k_, randomInput(kCheckedElements, seed));
      if (!wrong.empty()) {
        throw std::runtime_error("cannot time " + label_ + " before it is correct: " + wrong);
      }
    }
    for (const std::vector<int>& input : inputs_.host) {
      if (input.size() != n_) throw std::invalid_argument("timed inputs of another size");
      host_.push_back(input);
      in_.push_back(std::make_unique<DeviceBuffer<int>>(n_));
      uploadGuarded(*in_.back(), input);
      if (k_.inPlace) {
        pristine_.push_back(std::make_unique<DeviceBuffer<int>>(n_, 0));
        pristine_.back()->upload(input);
      }
      want_.push_back(referencePartialSums(input, k_.span()));
    }
  }

  TimedKernel timed() {
    TimedKernel t;
    t.name = label_;
    t.launch = [this] {
      const ModuleFolderScope scope(modules_);
      launch(k_, in_[current_]->data(), out_.data(), n_);
    };
    t.options.flushL2 = true;  // every run reads its input from device memory
    t.options.beforeEach = [this] { out_.poison(); };
    t.options.beforeRun = [this](int run) {
      current_ = static_cast<std::size_t>(inputs_.schedule.inputOf(run));
      if (run >= 0) changeOneElement(run);
      restoreInput();  // an in-place kernel overwrote this input last time
    };
    t.options.afterEach = [this](int run) { checkRun(run); };
    // Nothing of a checked run's answers stays on the device while the other
    // kernel runs: its sums are wiped, and so is what an in-place kernel
    // left in its input (block b's sum at element b * span), which a kernel
    // timed beside it could otherwise find and copy.
    t.options.afterCheck = [this] {
      out_.poison();
      restoreInput();
    };
    return t;
  }

  /// Checks what the last timed run left besides the sums checked after
  /// every run (and wiped since): that its input and the guards around it
  /// are intact, which also shows that an in-place kernel's input really was
  /// restored. Then prints @p stats and the effective bandwidth.
  void checkLastRunAndReport(const TimingStats& stats) const {
    const std::string wrong = checkInput(k_, host_[current_], *in_[current_]);
    if (!wrong.empty()) {
      throw std::runtime_error(label_ + " was wrong on the " + std::to_string(n_) +
                               "-element input of its last timed run: " + wrong);
    }
    std::printf("%s: median %.4f ms (min %.4f, max %.4f, %zu runs), "
                "effective bandwidth %.0f GB/s\n",
                label_.c_str(), stats.medianMs, stats.minMs, stats.maxMs,
                stats.samplesMs.size(),
                gbPerSecond(static_cast<double>(k_.bytesRead(n_)),
                            static_cast<double>(k_.bytesWritten(n_)), stats.medianMs));
  }

 private:
  /// Changes the element of the current input that the schedule names for
  /// timed run @p run, in the host copy, on the device (and in the pristine
  /// copy of an in-place kernel) and in the partial sum it belongs to. The
  /// new value stays in the range of randomInput: -x, or 5 for -1.
  void changeOneElement(int run) {
    const std::size_t i = inputs_.schedule.changedElement(run, n_);
    int& x = host_[current_][i];
    const int value = x == -1 ? 5 : -x;
    want_[current_][i / k_.span()] += static_cast<std::int64_t>(value) - x;
    x = value;
    WB_CUDA(cudaMemcpy(in_[current_]->data() + i, &value, sizeof value, cudaMemcpyHostToDevice));
    if (k_.inPlace) {
      WB_CUDA(cudaMemcpy(pristine_[current_]->data() + i, &value, sizeof value,
                         cudaMemcpyHostToDevice));
    }
  }

  /// Copies the current input back over an in-place kernel's, which holds
  /// its block sums after a run.
  void restoreInput() {
    if (!k_.inPlace) return;
    WB_CUDA(cudaMemcpyAsync(in_[current_]->data(), pristine_[current_]->data(),
                            in_[current_]->bytes(), cudaMemcpyDeviceToDevice));
  }

  /// Checks the partial sums of timed run @p run on the host against those
  /// of the input the run was given: one int per block, small enough to
  /// download after every run without leaving the GPU idle for long. (The
  /// whole of checkResult would also download and compare the 2^24-int
  /// input every time.)
  void checkRun(int run) const {
    const std::string problem = checkPartialSums(k_, n_, out_, want_[current_]);
    if (!problem.empty()) {
      throw std::runtime_error(label_ + " was wrong in timed run " + std::to_string(run + 1) +
                               " on " + std::to_string(n_) + " elements (input " +
                               std::to_string(current_ + 1) + " of " +
                               std::to_string(in_.size()) + "): " + problem);
    }
  }

  const ReduceKernel& k_;
  const char* modules_;
  std::string label_;
  const TimedInputs& inputs_;
  unsigned int n_;
  std::vector<std::vector<int>> host_;  // the inputs as changed so far
  // Device buffers are not movable: one allocation each.
  std::vector<std::unique_ptr<DeviceBuffer<int>>> in_;
  std::vector<std::unique_ptr<DeviceBuffer<int>>> pristine_;  // in-place kernels' inputs
  std::vector<std::vector<std::int64_t>> want_;              // each input's partial sums
  DeviceBuffer<int> out_;
  std::size_t current_ = 0;  // the input of the run under way
};

/// Median times in ms of kernels @p first and @p second, each checked first
/// (on input drawn from @p seed), then timed with their runs interleaved on
/// the inputs of TimedInputs(seed). Throws, failing the test with the
/// reason, when either is wrong.
inline std::pair<double, double> interleavedMedianMs(const TimedReduction& first,
                                                     const TimedReduction& second,
                                                     std::uint64_t seed) {
  const TimedInputs inputs(seed, TimingOptions{}.repetitions);
  ReductionUnderTest a(first, seed, inputs);
  ReductionUnderTest b(second, seed, inputs);
  const auto [aStats, bStats] = timeKernelPair(a.timed(), b.timed());
  a.checkLastRunAndReport(aStats);
  b.checkLastRunAndReport(bStats);
  return {aStats.medianMs, bStats.medianMs};
}

}  // namespace wb::reduction::testing
