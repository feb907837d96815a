// Performance claims of book section 5.3, as ratios of median times of two
// kernels measured in one process (reduction_timing.h says how: 2^24 ints,
// a different input from run to run, runs interleaved, L2 flushed, every
// timed run checked).
//
// Every claim times a student's kernel against a kernel of the reference
// build (tests/reduction/CMakeLists.txt compiles them from solutions/ into
// a module folder of their own, WB_REFERENCE_MODULES, also in the grader's
// build): the claim is about the student's kernel, and the yardstick is the
// same for everyone. Where both kernels of a book claim are exercises, the
// student's kernel is the one the claim teaches (the faster one: shared
// memory, unrolling), timed against the reference of the other; timing the
// student's slower kernel against the reference of the faster would reward
// a slow kernel. Instead, each student kernel that is a yardstick in the
// book (reduceSmem, reduceSmemUnroll, reduceGmemUnroll) must keep the
// reference kernel's own speed, in a check of its own (KeepsReferenceSpeed),
// so a correct kernel that idles on the timed size earns nothing there.
//
// Thresholds sit well inside the ratios measured on an H100 and an H200,
// each test in its own process after the GPU idled (docs/results/): a
// performance test that flakes is a bug. Against the reference build, on
// an H100 (eight runs of the suite, min-median-max; docs/results/
// timing-against-reference-nvidia-h100.md): 1.62x, 1.63-1.64x,
// 3.31-3.32-3.33x, 0.999-1.000-1.001x and 0.996-0.998-1.010x, in the order
// of the tests.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>

#include "reduction/reduction.cuh"
#include "reduction_perf_fixture.h"
#include "wb/gtest_support.h"
#include "wb/perf_compares.h"
#include "wb/perf_ratio.h"

namespace wb::reduction {
namespace {

const ReduceKernel& kernelNamed(const std::string& exercise) {
  const ReduceKernel* k = findReductionKernel(exercise);
  if (k == nullptr) throw std::invalid_argument("no reduction kernel " + exercise);
  return *k;
}

class PerfReduction : public testing::ReductionTimingTest<kernelNamed> {};

// 5.3.1: shared memory beats global memory, as the book measures (1.58x on
// its GPU). The baseline keeps the book's traffic: in reduceGmem's warp
// phase every lane of warp 0 loads two sums and stores one through global
// memory at every step, each a dependent round trip through L2, and that is
// what reduceSmem keeps on chip. Measured with the interleaved timing, one
// process: 1.55x on an H100 (127 us against 82 us in Nsight Compute), 1.36x
// on an H200 (110.6 against 81.4 us); the limit sits under both.
WB_PERF_COMPARES(PerfReduction, SharedMemoryBeatsGlobalMemory, "reduceSmem");
TEST_F(PerfReduction, SharedMemoryBeatsGlobalMemory) {
  SCOPED_TRACE(seedNote(seed_));
  const auto [gmem, smem] = medianMs(reference("reduceGmem"), student("reduceSmem"));
  perf::expectSlowerBy("reference reduceGmem", gmem, "reduceSmem", smem, 1.2);
}

// The same once each thread first adds four elements: the book's programs
// measure 1.66x on an H100 and 1.62x on an H200 (reduceGmemUnroll against
// reduceSmemUnroll). The student's reduceSmemUnroll against the reference
// reduceGmemUnroll.
WB_PERF_COMPARES(PerfReduction, SharedMemoryBeatsGlobalMemoryWhenUnrolled, "reduceSmemUnroll");
TEST_F(PerfReduction, SharedMemoryBeatsGlobalMemoryWhenUnrolled) {
  SCOPED_TRACE(seedNote(seed_));
  const auto [gmem, smem] =
      medianMs(reference("reduceGmemUnroll"), student("reduceSmemUnroll"));
  perf::expectSlowerBy("reference reduceGmemUnroll", gmem, "reduceSmemUnroll", smem, 1.2);
}

// 5.3.2: four elements per thread, a quarter of the blocks. Measured
// 3.15-3.31x on an H200. The student's reduceSmemUnroll against the
// reference reduceSmem.
WB_PERF_COMPARES(PerfReduction, UnrollingBeatsSharedMemoryAlone, "reduceSmemUnroll");
TEST_F(PerfReduction, UnrollingBeatsSharedMemoryAlone) {
  SCOPED_TRACE(seedNote(seed_));
  const auto [smem, unrolled] = medianMs(reference("reduceSmem"), student("reduceSmemUnroll"));
  perf::expectSlowerBy("reference reduceSmem", smem, "reduceSmemUnroll", unrolled, 1.8);
}

// 5.3.3: dynamic shared memory is the same memory; it must cost at most 10%
// more than the reference's static version.
WB_PERF_COMPARES(PerfReduction, DynamicSharedMemoryCostsNoMoreThanStatic, "reduceSmemDyn");
TEST_F(PerfReduction, DynamicSharedMemoryCostsNoMoreThanStatic) {
  SCOPED_TRACE(seedNote(seed_));
  const auto [dyn, twin] = medianMs(student("reduceSmemDyn"), reference("reduceSmem"));
  perf::expectNoSlowerThan("reduceSmemDyn", dyn, "reference reduceSmem", twin, 1.10);
}

WB_PERF_COMPARES(PerfReduction, DynamicUnrolledCostsNoMoreThanStatic, "reduceSmemUnrollDyn");
TEST_F(PerfReduction, DynamicUnrolledCostsNoMoreThanStatic) {
  SCOPED_TRACE(seedNote(seed_));
  const auto [dyn, twin] =
      medianMs(student("reduceSmemUnrollDyn"), reference("reduceSmemUnroll"));
  perf::expectNoSlowerThan("reduceSmemUnrollDyn", dyn, "reference reduceSmemUnroll", twin, 1.10);
}

// The yardsticks of the claims above (reduction_perf_fixture.h): the
// reference solutions measured 0.999-1.000x (reduceSmem), 0.996-1.000x
// (reduceSmemUnroll) and 0.998-1.007x (reduceGmemUnroll) of themselves.
class PerfReductionYardstick : public testing::ReductionYardstickTest<kernelNamed> {};
TEST_P(PerfReductionYardstick, KeepsReferenceSpeed) { expectKeepsReferenceSpeed(); }
INSTANTIATE_TEST_SUITE_P(Yardsticks, PerfReductionYardstick,
                         ::testing::Values("reduceSmem", "reduceSmemUnroll", "reduceGmemUnroll"),
                         testing::yardstickName);

// The book's exercise 8: the block-size experiment. The student's kernel
// for any block size is timed at every size of kAnyBlockSizes (the book's
// 64, 128, 512 and 1024, and 256) against the reference kernel at the same
// size, and must keep its speed at every one (the yardsticks' 10%): a kernel
// that is fast at 128 threads and slow, or serial, at another size, or idles
// on the timed size, fails (on an H100, a kernel raking the values in warp 0
// at every size but 128 ran 1.246x of the reference at 1024 threads). Speed
// does not show a serial sum at one size, though: the sum is memory-bound,
// and thread 0 adding a block's values one by one at 256 threads ran 0.877x
// of the reference (an open forgery, grader/tests/forgeries/open/). The
// test prints the reference's times by block size, which is the
// experiment's answer on the GPU at hand (the book's Table 36 found 512
// fastest for most kernels).
class PerfReductionBlockSize : public testing::ReductionYardstickTest<kernelNamed> {
 protected:
  void expectKeepsReferenceSpeedAtEachSize() const {
    SCOPED_TRACE(seedNote(this->seed_));
    const ReduceKernel& k = kernelNamed(this->GetParam());
    int fastest = 0;
    double fastestMs = 0.0;
    for (const int threads : kAnyBlockSizes) {
      SCOPED_TRACE("blocks of " + std::to_string(threads) + " threads");
      const ReduceKernel sized = k.withThreads(threads);
      const testing::TimedReduction mine{sized};
      const testing::TimedReduction theirs{sized, WB_REFERENCE_MODULES};
      const auto [mineMs, theirMs] = this->medianMs(mine, theirs);
      const std::string size = " (" + std::to_string(threads) + " threads)";
      perf::expectNoSlowerThan(GetParam() + size, mineMs, "reference " + GetParam() + size,
                               theirMs, kMaxRatio);
      if (fastest == 0 || theirMs < fastestMs) {
        fastest = threads;
        fastestMs = theirMs;
      }
    }
    std::printf("fastest block size of the reference %s on this GPU: %d threads\n",
                GetParam().c_str(), fastest);
  }
};
TEST_P(PerfReductionBlockSize, KeepsReferenceSpeedAtEveryBlockSize) {
  expectKeepsReferenceSpeedAtEachSize();
}
INSTANTIATE_TEST_SUITE_P(Yardsticks, PerfReductionBlockSize, ::testing::Values("reduceSmemAnyBlock"),
                         testing::yardstickName);

}  // namespace
}  // namespace wb::reduction
