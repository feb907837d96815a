// Book section 5.5 in the benchmark: the three stencils on one float input
// of n elements (the coefficients from global memory, the baseline; from
// constant memory; through the read-only cache), beside the copy ceilings,
// and the two lookup kernels with n outputs (the broadcast, the baseline of
// the scattered reads; lanes reading 32 different constant words).
//
// Bytes counted: a stencil must read its input once and write its output
// once (the halo is read again from L2 or L1, not counted; the 16 bytes of
// coefficients are negligible). A lookup kernel reads only constant memory
// and writes one int per thread, so its GB/s is the rate it writes; the
// speedup column shows what scattering the reads costs.
#include <memory>
#include <string>
#include <vector>

#include "bench.h"
#include "constant/constant.cuh"
#include "constant/constant_check.h"
#include "constant/constant_inputs.h"
#include "wb/buffer.h"
#include "wb/cuda_check.h"

namespace wb::bench {
namespace {

const std::string kStencilBaseline = "stencilGmemCoef";
const std::string kLookupBaseline = "constantBroadcast";
constexpr std::uint64_t kInputSeed = 55;  // any fixed seed: the same input every run
constexpr unsigned int kStart = 7;
constexpr unsigned int kScatteredDistinct = 32;

/// "constantScattered" with its spread, as the table names it.
std::string lookupName(const constant::LookupKernel& k) {
  return k.scattered ? std::string(k.exercise) + "_distinct" + std::to_string(kScatteredDistinct)
                     : std::string(k.exercise);
}

}  // namespace

std::vector<std::string> constantKernelNames() {
  std::vector<std::string> names;
  for (const constant::StencilKernel& k : constant::stencilKernels()) names.push_back(k.exercise);
  for (const constant::LookupKernel& k : constant::lookupKernels()) names.push_back(lookupName(k));
  names.insert(names.end(), {kCopyKernelName, kMemcpyName});
  return names;
}

std::vector<Row> runConstant(std::uint64_t elements, Context& context) {
  namespace ct = constant::testing;
  const auto n = static_cast<unsigned int>(elements);
  const std::vector<float> input = ct::randomStencilInput(n, kInputSeed);
  const double bytes = static_cast<double>(n) * sizeof(float);

  DeviceBuffer<float> in(n);
  in.poison();
  in.upload(input);

  std::vector<Candidate> candidates;
  std::vector<std::unique_ptr<DeviceBuffer<float>>> outputs;
  std::vector<std::unique_ptr<DeviceBuffer<float>>> coefficients;
  for (const constant::StencilKernel& k : constant::stencilKernels()) {
    outputs.push_back(std::make_unique<DeviceBuffer<float>>(n));
    coefficients.push_back(std::make_unique<DeviceBuffer<float>>(constant::kRadius, 64));
    DeviceBuffer<float>& out = *outputs.back();
    DeviceBuffer<float>& coef = *coefficients.back();
    const std::string name = k.exercise;
    candidates.push_back(
        {name, name == kStencilBaseline ? Kind::Baseline : Kind::Exercise, kStencilBaseline,
         bytes, bytes,
         [&, &k = k, &out = out, &coef = coef] {
           ct::placeCoefficients(k, coef);  // also sets the module's constant memory
           out.poison();
           constant::launch(k, in.data(), out.data(), n, coef.data());
           checkLaunch(k.exercise);
           return ct::checkStencilResult(k, input, in, out);
         },
         [&, &k = k, &out = out, &coef = coef] {
           constant::launch(k, in.data(), out.data(), n, coef.data());
         },
         {}, true});
  }

  // The lookups, n outputs each, on one table.
  const std::vector<int> table = ct::randomTable(kInputSeed);
  DeviceBuffer<int> sums(n);
  const double written = static_cast<double>(n) * sizeof(int);
  for (const constant::LookupKernel& k : constant::lookupKernels()) {
    const std::string name = lookupName(k);
    const unsigned int distinct = k.scattered ? kScatteredDistinct : 1u;
    candidates.push_back(
        {name, name == kLookupBaseline ? Kind::Baseline : Kind::Exercise, kLookupBaseline, 0.0,
         written,
         [&, &k = k, distinct] { return ct::runAndCheckLookup(k, table, n, kStart, distinct); },
         [&, &k = k, distinct] { constant::launch(k, sums.data(), n, kStart, distinct); }, {},
         /*flushL2=*/false});  // nothing is read from device memory
  }

  DeviceBuffer<float> copyTarget(n, 0);
  addCopyCeilings(candidates, in.data(), copyTarget.data(), n * sizeof(float), kStencilBaseline);

  return measureSection("constant", elements, candidates, context);
}

}  // namespace wb::bench

WB_BENCH_SECTION(constant, "float elements of the stencil (and lookup outputs)",
                 std::uint64_t{1} << 26, 100003, std::uint64_t{1} << 28,
                 wb::bench::constantKernelNames, wb::bench::runConstant,
                 "stencilGmemCoef (and constantBroadcast for constantScattered)");
