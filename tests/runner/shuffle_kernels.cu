// Section 5.6 kernels for the runner. The exchanges run at width 16 over two
// blocks with every argument set the tests use at that width, so a
// sanitizer sees segments inside a warp and more than one block; the
// reductions run over a few blocks with a partial last one, as the
// reduction section's do. No bank behaviour is graded: the exchanges use no
// shared memory, the reductions' warp sums are one word per warp, and
// reduceSmemShfl's tree reads consecutive words, as reduceSmem's does.
#include <vector>

#include "reduction/reduction_check.h"
#include "reduction/reduction_inputs.h"
#include "registry.h"
#include "shuffle/shuffle.cuh"
#include "shuffle/shuffle_check.h"

namespace wb::runner {

namespace {

std::vector<RunnableKernel> shuffleKernels() {
  std::vector<RunnableKernel> out;
  for (const shuffle::ExchangeKernel& k : shuffle::exchangeKernels()) {
    RunnableKernel r;
    r.section = "shuffle";
    r.id = k.exercise;
    r.exercise = k.exercise;
    r.qualifiedName = std::string("wb::shuffle::") + k.exercise;
    // The exchange itself: each warp trades its values by shuffle.
    r.minShufflesPerWarp = kShufflesPerWarp;
    r.runOnce = [&k] { return shuffle::testing::runAndCheckWidth(k, 16, 2, inputSeed()); };
    // runAndCheckWidth's first argument set, with its seed.
    r.runFirst = [&k] {
      return shuffle::testing::runAndCheck(k, shuffle::testArgs(k.exchange, 16).front(),
                                           2, inputSeed());
    };
    out.push_back(std::move(r));
  }
  for (const reduction::ReduceKernel& k : shuffle::shuffleReductionKernels()) {
    RunnableKernel r;
    r.section = "shuffle";
    r.id = k.exercise;
    r.exercise = k.exercise;
    r.qualifiedName = std::string("wb::shuffle::") + k.exercise;
    // The input is read coalesced, unrolled or not (as in the reduction
    // section's runner file): each warp load reads consecutive words.
    r.minGlobalLoadEfficiency = kCoalescedLoadEfficiencyPercent;
    // Shuffles keep every lane of a warp busy; a serial sum would not.
    r.minActiveThreadsPerInstruction = kTreeActiveThreads;
    // Every warp adds its lanes' sums by shuffle; in reduceSmemShfl only
    // warp 0 does, five shuffles a block, 1.25 per warp of the launch.
    r.minShufflesPerWarp = kShufflesPerWarp;
    // reduceSmemShfl's tree runs in shared memory and only warp 0 of a block
    // shuffles, once its 32 sums are in registers: five shuffles a block of
    // kReduceWarps warps (1.25 per warp), exactly, on every GPU. A kernel in
    // which every warp shuffles its own values first (5 per warp), or
    // reduceShfl with rolled loops, is the other exercise's technique.
    if (k.shared == reduction::SharedArray::Static) {
      r.maxShufflesPerWarp = static_cast<double>(kWarpReduceShuffles) / reduction::kReduceWarps;
    }
    r.runOnce = [&k] {
      // Three full blocks and a partial fourth, with a tail that is not a
      // multiple of a warp, the block or the unroll factor.
      const std::size_t n = 3 * static_cast<std::size_t>(k.span()) + 37;
      return reduction::testing::runAndCheck(k, reduction::testing::randomInput(n, inputSeed()));
    };
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

}  // namespace wb::runner

WB_RUNNER_SECTION(shuffle, wb::runner::shuffleKernels);
