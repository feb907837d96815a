// Performance claims of book section 5.3, as ratios of median times measured
// in one process on 2^24 ints (64 MiB, more than the L2 of an H100 or an
// H200), with L2 flushed before every timed run. In-place kernels get their
// input restored before every run, outside the timed region. Thresholds sit
// well inside the ratios measured on an H200 (../shared/gpu-facts.md, 20
// processes): a performance test that flakes is a bug.
#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "wb/perf_ratio.h"
#include "reduction/reduction.cuh"
#include "reduction_check.h"
#include "reduction_inputs.h"
#include "wb/buffer.h"
#include "wb/gtest_support.h"
#include "wb/stats.h"
#include "wb/timing.h"

namespace wb::reduction {
namespace {

class PerfReduction : public GpuTest {
 protected:
  /// Elements of the timed input.
  static constexpr unsigned int kTimedElements = 1u << 24;
  /// Elements of the correctness check before timing: seven unrolled spans
  /// and a ragged tail, so a kernel that drops the tail is not timed.
  static constexpr unsigned int kCheckedElements = 4 * 128 * 7 + 5;

  void SetUp() override {
    GpuTest::SetUp();
    seed_ = testSeed();
  }

  /// Median time of kernel @p exercise in milliseconds, after checking that
  /// it is correct. Throws (failing the test with the reason) when it is not.
  double medianMs(const std::string& exercise) const {
    const ReduceKernel* k = findReductionKernel(exercise);
    if (k == nullptr) throw std::invalid_argument("no reduction kernel " + exercise);
    const std::string wrong =
        testing::runAndCheck(*k, testing::randomInput(kCheckedElements, seed_));
    if (!wrong.empty()) {
      throw std::runtime_error("cannot time " + exercise + " before it is correct: " + wrong);
    }

    const std::vector<int> input = testing::randomInput(kTimedElements, seed_ + 1);
    const unsigned int n = kTimedElements;
    DeviceBuffer<int> in(n);
    testing::uploadGuarded(in, input);
    DeviceBuffer<int> out(k->blocks(n));
    out.poison();
    DeviceBuffer<int> pristine(n, 0);  // restores the input of in-place kernels
    TimingOptions options;
    options.flushL2 = true;  // every run reads its input from device memory
    if (k->inPlace) {
      pristine.upload(input);
      options.beforeEach = [&] {
        WB_CUDA(cudaMemcpyAsync(in.data(), pristine.data(), in.bytes(), cudaMemcpyDeviceToDevice));
      };
    }
    const TimingStats stats = timeKernel(
        exercise, [&] { launch(*k, in.data(), out.data(), n); }, options);

    // The last timed run must have produced the right sums too: this also
    // shows that an in-place kernel's input really was restored every time.
    const std::string wrongTimed = testing::checkResult(*k, input, in, out);
    if (!wrongTimed.empty()) {
      throw std::runtime_error(exercise + " was wrong on the 2^24-element input it was timed on: " +
                               wrongTimed);
    }
    std::printf("%s: median %.4f ms (min %.4f, max %.4f, %zu runs), effective bandwidth %.0f GB/s\n",
                exercise.c_str(), stats.medianMs, stats.minMs, stats.maxMs, stats.samplesMs.size(),
                gbPerSecond(static_cast<double>(k->bytesRead(n)),
                            static_cast<double>(k->bytesWritten(n)), stats.medianMs));
    return stats.medianMs;
  }

  std::uint64_t seed_ = 0;
};

// 5.3.1: the book measures reduceSmem faster than reduceGmem. On an H200
// both take 0.083 ms at 2^24 ints (1.02x in 20 of 20 runs): with one load
// per thread and 128-thread blocks, both are bound by the latency of that
// one load, and the in-place steps of reduceGmem hit the on-chip caches.
// What holds is that shared memory costs nothing here...
TEST_F(PerfReduction, SharedMemoryIsNoSlowerThanGlobalMemory) {
  SCOPED_TRACE(seedNote(seed_));
  const double gmem = medianMs("reduceGmem");
  const double smem = medianMs("reduceSmem");
  perf::expectNoSlowerThan("reduceSmem", smem, "reduceGmem", gmem, 1.03);
}

// ...and that it wins once each thread keeps several loads in flight, so the
// reduction steps are no longer hidden behind the load latency: at 2^26 ints
// on an H200 reduceGmemUnroll took 0.103 ms, reduceSmemUnroll 0.087 ms
// (1.18x).
TEST_F(PerfReduction, SharedMemoryBeatsGlobalMemoryWhenUnrolled) {
  SCOPED_TRACE(seedNote(seed_));
  const double gmem = medianMs("reduceGmemUnroll");
  const double smem = medianMs("reduceSmemUnroll");
  perf::expectSlowerBy("reduceGmemUnroll", gmem, "reduceSmemUnroll", smem, 1.06);
}

// 5.3.2: four elements per thread, a quarter of the blocks. Measured
// 3.15-3.31x on an H200.
TEST_F(PerfReduction, UnrollingBeatsSharedMemoryAlone) {
  SCOPED_TRACE(seedNote(seed_));
  const double smem = medianMs("reduceSmem");
  const double unrolled = medianMs("reduceSmemUnroll");
  perf::expectSlowerBy("reduceSmem", smem, "reduceSmemUnroll", unrolled, 1.8);
}

// 5.3.3: dynamic shared memory is the same memory; it must cost at most 10%.
TEST_F(PerfReduction, DynamicSharedMemoryCostsNoMoreThanStatic) {
  SCOPED_TRACE(seedNote(seed_));
  const double dyn = medianMs("reduceSmemDyn");
  const double twin = medianMs("reduceSmem");
  perf::expectNoSlowerThan("reduceSmemDyn", dyn, "reduceSmem", twin, 1.10);
}

TEST_F(PerfReduction, DynamicUnrolledCostsNoMoreThanStatic) {
  SCOPED_TRACE(seedNote(seed_));
  const double dyn = medianMs("reduceSmemUnrollDyn");
  const double twin = medianMs("reduceSmemUnroll");
  perf::expectNoSlowerThan("reduceSmemUnrollDyn", dyn, "reduceSmemUnroll", twin, 1.10);
}

}  // namespace
}  // namespace wb::reduction
