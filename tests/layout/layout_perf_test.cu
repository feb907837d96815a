// Performance claims of book section 5.2, as ratios of medians measured in
// one process, the two kernels' runs interleaved. Each launch covers many
// blocks (a single block is bound by launch latency, not by shared memory),
// enough that the output is twice the size of L2. Thresholds sit well
// inside the spread measured on an H100 and an H200 (see docs/results): a
// performance test that flakes is a bug.
//
// Every claim times a student's kernel against a kernel of the reference
// build (tests/layout/CMakeLists.txt compiles them from solutions/ into a
// module folder of their own, WB_REFERENCE_MODULES, also in the grader's
// build), never against the student's own. Where both kernels of a book
// claim are exercises, the claim is checked for the kernel it teaches (the
// padded tile, the dynamic tile) against the reference of the other: timed
// the other way round, a slow student kernel would pass. The student's
// setRowReadCol and setRowReadColPad, the yardsticks of those claims in the
// book, must keep the reference kernels' speed in a check of their own
// (KeepsReferenceSpeed). The claim about conflicts (row against column
// access) times the student's column kernel against the reference
// setRowReadRow, the worked example.
//
// Every run's output is re-poisoned before it, and every timed run's output
// is compared with the exact expected output, by its fingerprint (the
// expected output is never in device memory, where a kernel could find it
// and copy it): a kernel that is correct when checked and then skips its
// work (device code can count its launches) leaves poison behind and fails. These kernels read no input (each writes
// a pattern of its indices through the tile), so there is no input to vary
// from run to run, and nothing a kernel could keep from an earlier launch
// spares it the writes that are checked.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>

#include "layout/layout.cuh"
#include "layout_check.h"
#include "wb/buffer.h"
#include "wb/device.h"
#include "wb/gtest_support.h"
#include "wb/modules.h"
#include "wb/perf_compares.h"
#include "wb/perf_ratio.h"
#include "wb/timing.h"

namespace wb::layout {
namespace {

/// Blocks per launch: enough tiles that the output is twice the L2 size.
int blocksFor(const TileShape& shape) {
  const std::size_t tileBytes = static_cast<std::size_t>(shape.elements()) * sizeof(int);
  const std::size_t wanted = 2 * currentDevice().l2Bytes / tileBytes;
  return static_cast<int>(std::max<std::size_t>(wanted, 1024));
}

/// The kernel with id @p id, once it has passed the correctness check
/// (from @p referenceModules, the reference build, when not null): a
/// performance claim about a wrong kernel means nothing.
const LayoutKernel& checkedKernel(const std::string& id, const char* referenceModules) {
  const LayoutKernel* k = findLayoutKernel(id);
  if (k == nullptr) throw std::invalid_argument("no layout kernel " + id);
  const ModuleFolderScope scope(referenceModules);
  const std::string wrong = testing::runAndCheck(*k, 3);
  if (!wrong.empty()) {
    throw std::runtime_error("cannot time " + id + " before it is correct: " + wrong);
  }
  return *k;
}

/// A kernel to time: its id and the build it comes from.
struct Timed {
  std::string id;
  const char* referenceModules = nullptr;  ///< null: the modules under test

  std::string label() const { return (referenceModules != nullptr ? "reference " : "") + id; }
};

/// The student's kernel @p id.
Timed student(const std::string& id) { return {id}; }
/// The reference build's kernel @p id.
Timed reference(const std::string& id) { return {id, WB_REFERENCE_MODULES}; }

/// One checked layout kernel, its output and the output it must write,
/// ready to be timed. Must outlive the TimedKernel that timed() returns.
class LayoutUnderTest {
 public:
  explicit LayoutUnderTest(const Timed& which)
      : k_(checkedKernel(which.id, which.referenceModules)),
        modules_(which.referenceModules),
        label_(which.label()),
        blocks_(blocksFor(k_.shape)),
        out_(static_cast<std::size_t>(k_.shape.elements()) * blocks_),
        want_(perf::fingerprintOnHost(k_.expected(blocks_))) {}

  TimedKernel timed() {
    TimedKernel t;
    t.name = label_;
    t.launch = [this] {
      const ModuleFolderScope scope(modules_);
      launch(k_, out_.data(), blocks_);
    };
    // The poison leaves L2 full of dirty lines; the flush that follows it
    // (a read, see timing.cu) writes them back before the timed run, which
    // would otherwise pay for writing back the poison.
    t.options.flushL2 = true;
    t.options.beforeEach = [this] { out_.poison(); };
    t.options.afterEach = [this](int run) { checkRun(run); };
    t.options.afterCheck = [this] { out_.poison(); };
    return t;
  }

 private:
  /// Compares timed run @p run's output with the expected one by its
  /// fingerprint, on the device (see compareWithFingerprint for why).
  void checkRun(int run) const {
    const std::string problem = perf::compareWithExpected(
        out_, want_, label_, flatIndex, [this] { return k_.expected(blocks_); });
    if (!problem.empty()) {
      throw std::runtime_error(label_ + " was wrong in timed run " + std::to_string(run + 1) +
                               " (" + std::to_string(blocks_) + " blocks): " + problem);
    }
  }

  const LayoutKernel& k_;
  const char* modules_;
  std::string label_;
  int blocks_;
  DeviceBuffer<int> out_;
  std::uint64_t want_;  // the expected output's fingerprint: the output itself is not on the device
};

class PerfLayout : public GpuTest {
 protected:
  /// Median times in ms of @p first and @p second, both checked first and
  /// then timed with their runs interleaved.
  static std::pair<double, double> medianMs(const Timed& first, const Timed& second) {
    LayoutUnderTest a(first);
    LayoutUnderTest b(second);
    const auto [aStats, bStats] = timeKernelPair(a.timed(), b.timed());
    std::printf("%s: median %.4f ms (min %.4f, max %.4f)\n", first.label().c_str(),
                aStats.medianMs, aStats.minMs, aStats.maxMs);
    std::printf("%s: median %.4f ms (min %.4f, max %.4f)\n", second.label().c_str(),
                bStats.medianMs, bStats.minMs, bStats.maxMs);
    return {aStats.medianMs, bStats.medianMs};
  }

  /// Expects @p slow to take at least @p minRatio times as long as @p fast.
  static void expectSlower(const Timed& slow, const Timed& fast, double minRatio) {
    const auto [slowMs, fastMs] = medianMs(slow, fast);
    perf::expectSlowerBy(slow.label(), slowMs, fast.label(), fastMs, minRatio);
  }

  /// Expects @p variant to cost at most @p maxRatio times @p baseline.
  static void expectNoDearer(const Timed& variant, const Timed& baseline, double maxRatio) {
    const auto [variantMs, baselineMs] = medianMs(variant, baseline);
    perf::expectNoSlowerThan(variant.label(), variantMs, baseline.label(), baselineMs, maxRatio);
  }
};

// 5.2.1.1: a 32-way conflict on every store and load costs far more than
// conflict-free row access: the student's column kernel against the
// reference setRowReadRow (the worked example). H100 (eight runs): square
// 5.14-5.15x, rectangle 3.39-3.42x.
WB_PERF_COMPARES(PerfLayout, SquareRowRowBeatsColCol, "setColReadCol");
TEST_F(PerfLayout, SquareRowRowBeatsColCol) {
  expectSlower(student("square_setColReadCol"), reference("square_setRowReadRow"), 1.5);
}
WB_PERF_COMPARES(PerfLayout, RectRowRowBeatsColCol, "setColReadCol");
TEST_F(PerfLayout, RectRowRowBeatsColCol) {
  expectSlower(student("rect_setColReadCol"), reference("rect_setRowReadRow"), 1.3);
}

// 5.2.1.4: padding removes the column-read conflict: the student's padded
// kernel against the reference unpadded one. H100: square 2.89-2.91x,
// rectangle 2.16-2.17x.
WB_PERF_COMPARES(PerfLayout, SquarePaddingSpeedsUpColumnRead, "setRowReadColPad");
TEST_F(PerfLayout, SquarePaddingSpeedsUpColumnRead) {
  expectSlower(reference("square_setRowReadCol"), student("square_setRowReadColPad"), 1.2);
}
WB_PERF_COMPARES(PerfLayout, RectPaddingSpeedsUpColumnRead, "setRowReadColPad");
TEST_F(PerfLayout, RectPaddingSpeedsUpColumnRead) {
  expectSlower(reference("rect_setRowReadCol"), student("rect_setRowReadColPad"), 1.1);
}

// 5.2.1.3: dynamic allocation is the same memory; at most a small overhead
// for the run-time index arithmetic: the student's dynamic kernels against
// the reference static ones. H100: 0.958-1.014x over the four.
WB_PERF_COMPARES(PerfLayout, SquareDynamicCostsNoMoreThanStatic, "setRowReadColDyn");
TEST_F(PerfLayout, SquareDynamicCostsNoMoreThanStatic) {
  expectNoDearer(student("square_setRowReadColDyn"), reference("square_setRowReadCol"), 1.10);
}
WB_PERF_COMPARES(PerfLayout, SquareDynamicPaddedCostsNoMoreThanStatic, "setRowReadColDynPad");
TEST_F(PerfLayout, SquareDynamicPaddedCostsNoMoreThanStatic) {
  expectNoDearer(student("square_setRowReadColDynPad"), reference("square_setRowReadColPad"),
                 1.10);
}
WB_PERF_COMPARES(PerfLayout, RectDynamicCostsNoMoreThanStatic, "setRowReadColDyn");
TEST_F(PerfLayout, RectDynamicCostsNoMoreThanStatic) {
  expectNoDearer(student("rect_setRowReadColDyn"), reference("rect_setRowReadCol"), 1.10);
}
WB_PERF_COMPARES(PerfLayout, RectDynamicPaddedCostsNoMoreThanStatic, "setRowReadColDynPad");
TEST_F(PerfLayout, RectDynamicPaddedCostsNoMoreThanStatic) {
  expectNoDearer(student("rect_setRowReadColDynPad"), reference("rect_setRowReadColPad"), 1.10);
}

// The end-of-chapter exercises make the same claims with the conflict on
// the store: padding removes the column-store conflict (exercises 4 and 7),
// and the dynamic tile costs no more than the static one (exercise 3), each
// against the reference setColReadRow. The thresholds are those of the
// column-load claims above; these four have not yet been measured on a GPU.
WB_PERF_COMPARES(PerfLayout, SquarePaddingSpeedsUpColumnWrite, "setColReadRowPad");
TEST_F(PerfLayout, SquarePaddingSpeedsUpColumnWrite) {
  expectSlower(reference("square_setColReadRow"), student("square_setColReadRowPad"), 1.2);
}
WB_PERF_COMPARES(PerfLayout, RectPaddingSpeedsUpColumnWrite, "setColReadRowPad");
TEST_F(PerfLayout, RectPaddingSpeedsUpColumnWrite) {
  expectSlower(reference("rect_setColReadRow"), student("rect_setColReadRowPad"), 1.1);
}
WB_PERF_COMPARES(PerfLayout, SquareDynamicColumnWriteCostsNoMoreThanStatic, "setColReadRowDyn");
TEST_F(PerfLayout, SquareDynamicColumnWriteCostsNoMoreThanStatic) {
  expectNoDearer(student("square_setColReadRowDyn"), reference("square_setColReadRow"), 1.10);
}
WB_PERF_COMPARES(PerfLayout, RectDynamicColumnWriteCostsNoMoreThanStatic, "setColReadRowDyn");
TEST_F(PerfLayout, RectDynamicColumnWriteCostsNoMoreThanStatic) {
  expectNoDearer(student("rect_setColReadRowDyn"), reference("rect_setColReadRow"), 1.10);
}

// A student's kernel that the book uses as a yardstick (the unpadded and
// the padded static tile, which padding and dynamic allocation are measured
// against), against the reference build of the same kernel: at most
// kMaxRatio times its time. The reference solutions measured
// 0.992-1.010x on an H100 (eight runs of the suite; docs/results/
// timing-against-reference-nvidia-h100.md); kMaxRatio, the 10% of the
// dynamic-tile claims, is far above that, and a kernel that idles on the
// timed size fails. The parameter, `<exercise>_<shape>`, gives the test
// its `exercise=` label.
class PerfLayoutYardstick : public PerfLayout, public ::testing::WithParamInterface<std::string> {
 protected:
  static constexpr double kMaxRatio = 1.10;
};

TEST_P(PerfLayoutYardstick, KeepsReferenceSpeed) {
  const std::string& param = GetParam();  // "setRowReadCol_square"
  const std::string::size_type cut = param.find('_');
  const std::string id = param.substr(cut + 1) + "_" + param.substr(0, cut);
  expectNoDearer(student(id), reference(id), kMaxRatio);
}

INSTANTIATE_TEST_SUITE_P(Yardsticks, PerfLayoutYardstick,
                         ::testing::Values("setRowReadCol_square", "setRowReadCol_rect",
                                           "setRowReadColPad_square", "setRowReadColPad_rect"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
}  // namespace wb::layout
