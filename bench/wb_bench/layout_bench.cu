// Book section 5.2 in the benchmark: every layout kernel over enough tiles
// that the output is far larger than L2.
//
// What the numbers mean here. A layout kernel reads nothing from device
// memory and writes one int per thread; everything else happens in shared
// memory. Its GB/s is therefore the rate at which it writes its output, and
// share_of_copy says how close the kernel comes to being limited by device
// memory rather than by shared-memory bank conflicts: a conflict-free kernel
// comes near the copy (or above it: a copy also reads), a conflicted one
// falls behind by the conflict's cost. The baseline of each tile shape is
// its setColReadCol, which conflicts on both the store and the load (32-way
// on the square tile, 16-way on the rectangle), so the speedup column is what
// each fix buys over the worst layout. (setRowReadRow, the worked example,
// is conflict-free: the best case, not a baseline.)
#include <numeric>
#include <string>
#include <vector>

#include "bench.h"
#include "layout/layout.cuh"
#include "layout/layout_check.h"
#include "wb/buffer.h"

namespace wb::bench {
namespace {

/// Tiles in the correctness check before timing: several blocks, so a
/// kernel that mixes up blocks is caught, small enough to check quickly.
constexpr int kCheckedBlocks = 64;

/// The exercise whose timing is each shape's baseline.
const char* const kBaselineExercise = "setColReadCol";

std::string baselineOf(const layout::LayoutKernel& k) {
  return std::string(k.shapeName) + "_" + kBaselineExercise;
}

/// Blocks of @p k that write at least @p outputInts ints.
int blocksFor(const layout::LayoutKernel& k, std::uint64_t outputInts) {
  const std::uint64_t perBlock = static_cast<std::uint64_t>(k.shape.elements());
  return static_cast<int>((outputInts + perBlock - 1) / perBlock);
}

}  // namespace

std::vector<std::string> layoutKernelNames() {
  std::vector<std::string> names;
  for (const layout::LayoutKernel& k : layout::layoutKernels()) names.push_back(k.id());
  names.push_back(kCopyKernelName);
  names.push_back(kMemcpyName);
  return names;
}

std::vector<Row> runLayout(std::uint64_t outputInts, Context& context) {
  // Room for the largest output any shape writes (whole tiles).
  std::size_t capacity = 0;
  for (const layout::LayoutKernel& k : layout::layoutKernels()) {
    capacity = std::max(capacity, static_cast<std::size_t>(blocksFor(k, outputInts)) *
                                      static_cast<std::size_t>(k.shape.elements()));
  }
  DeviceBuffer<int> out(capacity, 0);

  std::vector<Candidate> candidates;
  for (const layout::LayoutKernel& k : layout::layoutKernels()) {
    const int blocks = blocksFor(k, outputInts);
    const double written = static_cast<double>(blocks) * k.shape.elements() * sizeof(int);
    const bool isBaseline = std::string(k.exercise) == kBaselineExercise;
    candidates.push_back({k.id(), isBaseline ? Kind::Baseline : Kind::Exercise, baselineOf(k),
                          0.0, written,
                          [&k] { return layout::testing::runAndCheck(k, kCheckedBlocks); },
                          [&k, &out, blocks] { layout::launch(k, out.data(), blocks); }, {},
                          /*flushL2=*/false});  // nothing is read: nothing to evict
  }

  // The copy ceilings over as many bytes as the output, from a ramp (any
  // values do; a ramp shows a misplaced word).
  const std::size_t words = static_cast<std::size_t>(outputInts);
  DeviceBuffer<int> source(words, 0);
  std::vector<int> ramp(words);
  std::iota(ramp.begin(), ramp.end(), 0);
  source.upload(ramp);
  addCopyCeilings(candidates, source.data(), out.data(), words * sizeof(int), "");

  return measureSection("layout", outputInts, candidates, context);
}

}  // namespace wb::bench

WB_BENCH_SECTION(layout, "output ints (rounded up to whole tiles)", std::uint64_t{1} << 26,
                 std::uint64_t{1} << 16, std::uint64_t{1} << 28, wb::bench::layoutKernelNames,
                 wb::bench::runLayout,
                 "the setColReadCol kernel of the same tile shape (conflicted on store and "
                 "load, the worst layout: the speedup is what each layout buys over it); a "
                 "layout kernel reads nothing from device memory, so its GB/s is the rate it "
                 "writes its output, and of copy shows how close it comes to being "
                 "memory-bound rather than bound by shared-memory bank conflicts");
