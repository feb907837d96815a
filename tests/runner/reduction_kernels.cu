// Section 5.3 kernels for the runner: a few blocks with a partial last block,
// so a sanitizer sees the tail handling and the barriers of a short block.
// Their bank behaviour is not graded: each step reads consecutive words.
// Their method is: the kernels that keep the partial sums in shared memory
// read the input coalesced (a global-load efficiency near 100%), and their
// rounds (the neighbored pairs and the interleaved trees of 5.3) keep whole
// warps busy, where one thread adding the block's values one by one runs
// most instructions with a single lane.
#include <vector>

#include "reduction/reduction.cuh"
#include "reduction/reduction_check.h"
#include "reduction/reduction_inputs.h"
#include "registry.h"

namespace wb::runner {

namespace {

// A kernel for any block size (reduceSmemAnyBlock) is launched at every
// size of kAnyBlockSizes, each an entry of its own, so that its method
// counters and sanitizers see each size against the reference at the same
// size: a kernel that keeps the technique at 128 threads and adds the
// block's values one by one at another size is seen there (its correctness
// tests at that size pass, and the timing does not tell). The 128-thread
// entry keeps the exercise's name as its id.
std::vector<reduction::ReduceKernel> launchesOf(const reduction::ReduceKernel& k) {
  if (!k.anyBlock) return {k};
  std::vector<reduction::ReduceKernel> sized;
  for (const int threads : reduction::kAnyBlockSizes) sized.push_back(k.withThreads(threads));
  return sized;
}

std::vector<RunnableKernel> reductionKernels() {
  std::vector<RunnableKernel> out;
  for (const reduction::ReduceKernel& each : reduction::reductionKernels()) {
    for (const reduction::ReduceKernel& k : launchesOf(each)) {
      RunnableKernel r;
      r.section = "reduction";
      r.id = k.threads == reduction::kReduceBlock
                 ? std::string(k.exercise)
                 : std::string(k.exercise) + "_" + std::to_string(k.threads) + "threads";
      r.exercise = k.exercise;
      r.qualifiedName = std::string("wb::reduction::") + k.exercise;
      if (k.shared != reduction::SharedArray::None) {
        r.minGlobalLoadEfficiency = kCoalescedLoadEfficiencyPercent;
        // The neighbored rounds too: for all their `if (tid % (2 * stride)
        // == 0)`, a warp runs them with 31.4 of 32 lanes active on an H100
        // (Nsight Compute), against 14.4 for one thread's serial sum.
        r.minActiveThreadsPerInstruction = kTreeActiveThreads;
      }
      r.runOnce = [k] {
        // Three full blocks and a partial fourth, with a tail that is not a
        // multiple of the block or of the unroll factor.
        const std::size_t n = 3 * static_cast<std::size_t>(k.span()) + 37;
        return reduction::testing::runAndCheck(k, reduction::testing::randomInput(n, inputSeed()));
      };
      out.push_back(std::move(r));
    }
  }
  return out;
}

}  // namespace

}  // namespace wb::runner

WB_RUNNER_SECTION(reduction, wb::runner::reductionKernels);
