// Performance claims of book section 5.6.3: the shuffle reductions against
// the shared-memory reductions of section 5.3 they replace, as ratios of
// median times measured in one process on 2^24 ints (64 MiB, more than the
// L2 of an H100 or an H200), the two kernels' runs interleaved, with L2
// flushed before every timed run, in the style and with the harness of
// tests/reduction/reduction_perf_test.cu.
//
// The baselines, reduceSmem and reduceSmemUnroll, are the reference
// solutions' kernels, not the student's: their modules are compiled from
// solutions/reduction/ into a folder of their own (tests/shuffle/
// CMakeLists.txt, WB_BASELINE_MODULES), always, also in the grader's build,
// which builds no solutions, and this process loads them only from there
// (wb::pinModuleFolders). So a shuffle kernel is measured against the same
// yardstick whoever wrote reduceSmem, and a slow reduceSmem of the
// student's own cannot make a slow reduceShfl pass.
//
// Every timed run is checked: the output is re-poisoned before each run and
// the partial sums are compared with the reference after each, so a kernel
// that is right when checked and then skips its work fails.
//
// Measured on an H100 (chapters/shuffle/notes.md quotes the runs); the
// ratios varied by less than 1% over five runs in one process.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "reduction/reduction.cuh"
#include "reduction/reduction_check.h"
#include "reduction/reduction_inputs.h"
#include "shuffle/shuffle.cuh"
#include "wb/buffer.h"
#include "wb/gtest_support.h"
#include "wb/modules.h"
#include "wb/perf_ratio.h"
#include "wb/stats.h"
#include "wb/timing.h"

namespace wb::shuffle {
namespace {

namespace rt = reduction::testing;
using reduction::ReduceKernel;

/// Elements of the correctness check before timing: seven unrolled spans
/// and a ragged tail, so a kernel that drops the tail is not timed.
constexpr unsigned int kCheckedElements = 4 * 128 * 7 + 5;

/// The reduction kernel named @p exercise: a shuffle reduction from the
/// modules under test, or a section 5.3 baseline from the reference build.
const ReduceKernel& kernelNamed(const std::string& exercise) {
  if (const ReduceKernel* k = findShuffleReduction(exercise)) return *k;
  if (const ReduceKernel* k = reduction::findReductionKernel(exercise)) {
    pinModuleFolders(std::string("reduction/") + exercise, WB_BASELINE_MODULES);
    return *k;
  }
  throw std::invalid_argument("no reduction kernel " + exercise);
}

/// One reduction kernel, checked first (a performance claim about a wrong
/// kernel means nothing), with its own input and output on the device,
/// ready to be timed. None of these kernels works in place, so the input
/// needs no restoring between runs.
class ReductionUnderTest {
 public:
  ReductionUnderTest(const std::string& exercise, std::uint64_t seed,
                     const std::vector<int>& input)
      : k_(kernelNamed(exercise)),
        input_(input),
        n_(static_cast<unsigned int>(input.size())),
        in_(n_),
        out_(k_.blocks(n_)),
        want_(reduction::referencePartialSums(input, k_.span())) {
    if (k_.inPlace) throw std::logic_error(exercise + " works in place; this test cannot time it");
    const std::string wrong = rt::runAndCheck(k_, rt::randomInput(kCheckedElements, seed));
    if (!wrong.empty()) {
      throw std::runtime_error("cannot time " + exercise + " before it is correct: " + wrong);
    }
    rt::uploadGuarded(in_, input_);
  }

  TimedKernel timed() {
    TimedKernel t;
    t.name = k_.exercise;
    t.launch = [this] { reduction::launch(k_, in_.data(), out_.data(), n_); };
    t.options.flushL2 = true;  // every run reads its input from device memory
    t.options.beforeEach = [this] { out_.poison(); };
    t.options.afterEach = [this](int run) {
      const std::string problem = rt::checkPartialSums(k_, n_, out_, want_);
      if (!problem.empty()) {
        throw std::runtime_error(std::string(k_.exercise) + " was wrong in timed run " +
                                 std::to_string(run + 1) + " on " + std::to_string(n_) +
                                 " elements: " + problem);
      }
    };
    return t;
  }

  /// Checks everything the last timed run left (the input and its guards
  /// too), then prints @p stats and the effective bandwidth.
  void checkLastRunAndReport(const TimingStats& stats) const {
    const std::string wrong = rt::checkResult(k_, input_, in_, out_);
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
  const ReduceKernel& k_;
  const std::vector<int>& input_;
  unsigned int n_;
  DeviceBuffer<int> in_;
  DeviceBuffer<int> out_;
  std::vector<std::int64_t> want_;  // the partial sums of input_
};

class PerfShuffle : public GpuTest {
 protected:
  /// Elements of the timed input.
  static constexpr unsigned int kTimedElements = 1u << 24;

  void SetUp() override {
    GpuTest::SetUp();
    seed_ = testSeed();
  }

  /// Median times in ms of kernels @p first and @p second, each checked
  /// first, then timed with their runs interleaved on the same input.
  std::pair<double, double> medianMs(const std::string& first, const std::string& second) const {
    const std::vector<int> input = rt::randomInput(kTimedElements, seed_ + 1);
    ReductionUnderTest a(first, seed_, input);
    ReductionUnderTest b(second, seed_, input);
    const auto [aStats, bStats] = timeKernelPair(a.timed(), b.timed());
    a.checkLastRunAndReport(aStats);
    b.checkLastRunAndReport(bStats);
    return {aStats.medianMs, bStats.medianMs};
  }

  std::uint64_t seed_ = 0;
};

// 5.6.3: the book finds the shuffle reduction faster than the shared-memory
// one, since a warp's steps need neither shared-memory traffic nor
// __syncwarp(). The claim tested is the half that holds: reduceShfl costs
// at most 10% more than reduceSmem. H100: 1.000x; both kernels wait on the
// one load per thread, not on the warp phase, so neither wins.
TEST_F(PerfShuffle, ShuffleCostsNoMoreThanSharedMemory) {
  SCOPED_TRACE(seedNote(seed_));
  const auto [shfl, smem] = medianMs("reduceShfl", "reduceSmem");
  perf::expectNoSlowerThan("reduceShfl", shfl, "reduceSmem", smem, 1.10);
}

// The same after unrolling by four. H100: 1.001x.
TEST_F(PerfShuffle, UnrolledShuffleCostsNoMoreThanSharedMemory) {
  SCOPED_TRACE(seedNote(seed_));
  const auto [shfl, smem] = medianMs("reduceShflUnroll", "reduceSmemUnroll");
  perf::expectNoSlowerThan("reduceShflUnroll", shfl, "reduceSmemUnroll", smem, 1.10);
}

// 5.3.2's unrolling pays off with shuffles too: four elements per thread, a
// quarter of the blocks. H100: 3.31x, as for reduceSmem against
// reduceSmemUnroll (3.30x); the limit is that pair's, 1.8x.
TEST_F(PerfShuffle, UnrollingBeatsShuffleAlone) {
  SCOPED_TRACE(seedNote(seed_));
  const auto [plain, unrolled] = medianMs("reduceShfl", "reduceShflUnroll");
  perf::expectSlowerBy("reduceShfl", plain, "reduceShflUnroll", unrolled, 1.8);
}

}  // namespace
}  // namespace wb::shuffle
