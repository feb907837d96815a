// Section 5.2 kernels for the runner: one block per launch, so Nsight
// Compute's per-request counters are exact (with thousands of blocks the raw
// conflict counters pick up noise).
#include "layout/layout.cuh"
#include "layout/layout_check.h"
#include "registry.h"

namespace wb::runner {

namespace {

std::vector<RunnableKernel> layoutKernels() {
  std::vector<RunnableKernel> out;
  for (const layout::LayoutKernel& k : layout::layoutKernels()) {
    RunnableKernel r;
    r.section = "layout";
    r.id = k.id();
    r.exercise = k.exercise;
    r.qualifiedName = std::string("wb::layout::") + k.shapeName + "::" + k.exercise;
    r.sharedLoadWays = k.loadWays();
    r.sharedStoreWays = k.storeWays();
    r.runOnce = [&k] { return layout::testing::runAndCheck(k, 1); };
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

}  // namespace wb::runner

WB_RUNNER_SECTION(layout, wb::runner::layoutKernels);
