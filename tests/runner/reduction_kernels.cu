// Section 5.3 kernels for the runner: a few blocks with a partial last block,
// so a sanitizer sees the tail handling and the barriers of a short block.
// Their bank behaviour is not graded: each step reads consecutive words.
#include <vector>

#include "reduction/reduction.cuh"
#include "reduction/reduction_check.h"
#include "reduction/reduction_inputs.h"
#include "registry.h"

namespace wb::runner {

namespace {

std::vector<RunnableKernel> reductionKernels() {
  std::vector<RunnableKernel> out;
  for (const reduction::ReduceKernel& k : reduction::reductionKernels()) {
    RunnableKernel r;
    r.section = "reduction";
    r.id = k.exercise;
    r.exercise = k.exercise;
    r.qualifiedName = std::string("wb::reduction::") + k.exercise;
    r.runOnce = [&k] {
      // Three full blocks and a partial fourth, with a tail that is not a
      // multiple of the block or of the unroll factor.
      const std::size_t n = 3 * static_cast<std::size_t>(k.span()) + 37;
      return reduction::testing::runAndCheck(k, reduction::testing::randomInput(n, 20261122));
    };
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

}  // namespace wb::runner

WB_RUNNER_SECTION(reduction, wb::runner::reductionKernels);
