// Section 5.5 kernels for the runner. The stencils run over three blocks and
// a ragged fourth, so a sanitizer sees both halos, the barrier of a short
// block and the ends of the input; they are not profiled. The lookups run
// one block of whole warps, so every warp-level constant load is a full
// warp's and the constant model's passes per request are exact: one for the
// broadcast, `distinct` for the scattered reads.
#include <vector>

#include "constant/constant.cuh"
#include "constant/constant_check.h"
#include "constant/constant_inputs.h"
#include "registry.h"

namespace wb::runner {

namespace {

constexpr unsigned int kStart = 3;

RunnableKernel lookupEntry(const constant::LookupKernel& k, unsigned int distinct) {
  RunnableKernel r;
  r.section = "constant";
  r.exercise = k.exercise;
  r.id = k.scattered ? std::string(k.exercise) + "_distinct" + std::to_string(distinct)
                     : std::string(k.exercise);
  r.qualifiedName = std::string("wb::constant::") + k.exercise;
  const unsigned int modelled = k.scattered ? distinct : 0u;
  r.constantPasses = constant::lookupPasses(kStart, 0, modelled);
  // One block: kLookupBlock / 32 warps, each making kLookupReads loads.
  r.constantRequests = static_cast<double>(constant::kLookupBlock / constant::kWarpLanes) *
                       constant::kLookupReads;
  r.runOnce = [&k, distinct] {
    return constant::testing::runAndCheckLookup(k, constant::testing::randomTable(inputSeed()),
                                                constant::kLookupBlock, kStart, distinct);
  };
  return r;
}

}  // namespace

namespace {

std::vector<RunnableKernel> constantKernels() {
  std::vector<RunnableKernel> out;
  for (const constant::StencilKernel& k : constant::stencilKernels()) {
    RunnableKernel r;
    r.section = "constant";
    r.id = k.exercise;
    r.exercise = k.exercise;
    r.qualifiedName = std::string("wb::constant::") + k.exercise;
    r.runOnce = [&k] {
      const std::size_t n = 3 * static_cast<std::size_t>(constant::kStencilBlock) + 37;
      return constant::testing::runAndCheckStencil(k,
                                                   constant::testing::randomStencilInput(n, inputSeed()));
    };
    out.push_back(std::move(r));
  }
  for (const constant::LookupKernel& k : constant::lookupKernels()) {
    if (k.scattered) {
      for (unsigned int distinct : {4u, 32u}) out.push_back(lookupEntry(k, distinct));
    } else {
      out.push_back(lookupEntry(k, 1));
    }
  }
  return out;
}

}  // namespace

}  // namespace wb::runner

WB_RUNNER_SECTION(constant, wb::runner::constantKernels);
