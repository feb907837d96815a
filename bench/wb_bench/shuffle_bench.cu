// Book section 5.6 in the benchmark: the shuffle reductions beside the
// shared-memory reductions of section 5.3 they replace, and the copy
// ceilings, on one input of n int32 values.
//
// Bytes counted as in the reduction section (book 5.3.4): the input read
// once plus one partial sum per block written. Each shuffle kernel's
// speedup is taken over its shared-memory twin: reduceShfl over reduceSmem,
// reduceShflUnroll over reduceSmemUnroll. All four come from the reference
// solutions' modules (WB_SOLUTION_MODULES, as for every section), and none
// works in place, so the input is never restored. The exchange kernels of
// 5.6.2 are not timed: each moves one int per thread through one shuffle,
// which the copy ceilings already bound.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bench.h"
#include "reduction/reduction.cuh"
#include "reduction/reduction_check.h"
#include "reduction/reduction_inputs.h"
#include "shuffle/shuffle.cuh"
#include "wb/buffer.h"
#include "wb/cuda_check.h"

namespace wb::bench {
namespace {

constexpr std::uint64_t kInputSeed = 56;  // any fixed seed: the same input every run

/// Each shuffle reduction and the section 5.3 kernel it is measured against.
const std::vector<std::pair<std::string, std::string>>& pairs() {
  static const std::vector<std::pair<std::string, std::string>> all = {
      {"reduceShfl", "reduceSmem"}, {"reduceShflUnroll", "reduceSmemUnroll"}};
  return all;
}

}  // namespace

std::vector<std::string> shuffleKernelNames() {
  std::vector<std::string> names;
  for (const auto& [shfl, smem] : pairs()) names.insert(names.end(), {smem, shfl});
  names.insert(names.end(), {kCopyKernelName, kMemcpyName});
  return names;
}

std::vector<Row> runShuffle(std::uint64_t elements, Context& context) {
  namespace rt = reduction::testing;
  const auto n = static_cast<unsigned int>(elements);  // the contract's type; at most 2^26
  const std::vector<int> input = rt::randomInput(n, kInputSeed);

  DeviceBuffer<int> in(n);
  rt::uploadGuarded(in, input);

  std::vector<Candidate> candidates;
  std::vector<std::unique_ptr<DeviceBuffer<int>>> partials;
  const auto add = [&](const reduction::ReduceKernel& k, Kind kind, const std::string& baseline) {
    partials.push_back(std::make_unique<DeviceBuffer<int>>(k.blocks(n)));
    DeviceBuffer<int>& out = *partials.back();
    candidates.push_back(
        {k.exercise, kind, baseline, static_cast<double>(k.bytesRead(n)),
         static_cast<double>(k.bytesWritten(n)),
         [&, &k = k, &out = out] {
           out.poison();
           reduction::launch(k, in.data(), out.data(), n);
           checkLaunch(k.exercise);
           return rt::checkResult(k, input, in, out);
         },
         [&, &k = k, &out = out] { reduction::launch(k, in.data(), out.data(), n); }, {}, true});
  };
  for (const auto& [shfl, smem] : pairs()) {
    add(*reduction::findReductionKernel(smem), Kind::Baseline, "");
    add(*shuffle::findShuffleReduction(shfl), Kind::Exercise, smem);
  }

  DeviceBuffer<int> source(n, 0);
  source.upload(input);
  DeviceBuffer<int> copyTarget(n, 0);
  addCopyCeilings(candidates, source.data(), copyTarget.data(), n * sizeof(int), "reduceSmem");

  return measureSection("shuffle", elements, candidates, context);
}

}  // namespace wb::bench

WB_BENCH_SECTION(shuffle, "int32 elements", std::uint64_t{1} << 26, 100003, std::uint64_t{1} << 26,
                 wb::bench::shuffleKernelNames, wb::bench::runShuffle,
                 "each kernel's shared-memory twin (reduceSmem, reduceSmemUnroll)");
