// Book section 5.3 in the benchmark: every reduction kernel of the chapter,
// the reference kernel beyond it (reduceInt4Shuffle), cub::DeviceReduce::Sum
// and the copy ceilings, on one input of n int32 values.
//
// Bytes counted (book 5.3.4): the input read once, plus what the job must
// write: one partial sum per block for the chapter's kernels (which leave
// the final sum to the host), one int for the whole-input sums. The
// in-place kernels get their input restored before every run, outside the
// timed region. Speedups are over reduceGmem, the chapter's worked example.
#include <cub/cub.cuh>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench.h"
#include "beyond/reduction_beyond_check.h"
#include "reduction/beyond.cuh"
#include "reduction/reduction.cuh"
#include "reduction/reduction_check.h"
#include "reduction/reduction_inputs.h"
#include "wb/buffer.h"
#include "wb/cuda_check.h"

namespace wb::bench {
namespace {

const std::string kBaseline = "reduceGmem";
const std::string kReferenceName = "reduceInt4Shuffle";
const std::string kCubName = "cub::DeviceReduce::Sum";
constexpr std::uint64_t kInputSeed = 53;  // any fixed seed: the same input every run

}  // namespace

std::vector<std::string> reductionKernelNames() {
  std::vector<std::string> names;
  for (const reduction::ReduceKernel& k : reduction::reductionKernels()) {
    names.push_back(k.exercise);
  }
  names.insert(names.end(), {kReferenceName, kCubName, kCopyKernelName, kMemcpyName});
  return names;
}

std::vector<Row> runReduction(std::uint64_t elements, Context& context) {
  namespace rt = reduction::testing;
  const auto n = static_cast<unsigned int>(elements);  // the contract's type; at most 2^26
  const std::vector<int> input = rt::randomInput(n, kInputSeed);
  const double inputBytes = static_cast<double>(n) * sizeof(int);

  DeviceBuffer<int> in(n);
  rt::uploadGuarded(in, input);
  DeviceBuffer<int> pristine(n, 0);  // the input, kept to restore `in`
  pristine.upload(input);
  const auto restoreInput = [&] {
    WB_CUDA(cudaMemcpyAsync(in.data(), pristine.data(), in.bytes(), cudaMemcpyDeviceToDevice));
  };

  std::vector<Candidate> candidates;

  // The chapter's kernels, each with a partial-sum array of its own size.
  std::vector<std::unique_ptr<DeviceBuffer<int>>> partials;
  for (const reduction::ReduceKernel& k : reduction::reductionKernels()) {
    partials.push_back(std::make_unique<DeviceBuffer<int>>(k.blocks(n)));
    DeviceBuffer<int>& out = *partials.back();
    const std::string name = k.exercise;
    candidates.push_back(
        {name, name == kBaseline ? Kind::Baseline : Kind::Exercise, kBaseline,
         static_cast<double>(k.bytesRead(n)), static_cast<double>(k.bytesWritten(n)),
         [&, &k = k, &out = out] {
           restoreInput();
           out.poison();
           reduction::launch(k, in.data(), out.data(), n);
           checkLaunch(k.exercise);
           return rt::checkResult(k, input, in, out);
         },
         [&, &k = k, &out = out] { reduction::launch(k, in.data(), out.data(), n); },
         k.inPlace ? std::function<void()>(restoreInput) : std::function<void()>(), true});
  }

  // Beyond the book: one launch, the whole sum. Checked with the test
  // suite's own routine (its own buffers, the same input), timed on ours.
  namespace beyond = reduction::beyond;
  beyond::testing::SumScratchBuffers scratch;
  DeviceBuffer<int> total(1);
  unsigned int sumBlocks = 0;
  WB_CUDA(beyond::reduceInt4ShuffleBlocksHere(n, &sumBlocks));
  candidates.push_back(
      {kReferenceName, Kind::Reference, kBaseline, inputBytes, sizeof(int),
       [&] { return beyond::testing::runAndCheckSum(input, 0, sumBlocks, scratch); },
       [&] {
         beyond::launchReduceInt4Shuffle(in.data(), n, total.data(), scratch.view(), sumBlocks);
       },
       {}, true});

  // CUB, with 32-bit item counts (its fastest offsets) and its temporary
  // storage allocated once, outside the timing.
  std::size_t cubBytes = 0;
  WB_CUDA(cub::DeviceReduce::Sum(nullptr, cubBytes, in.data(), total.data(), static_cast<int>(n)));
  DeviceBuffer<std::uint32_t> cubScratch((cubBytes + 3) / 4, 0);
  const auto cubSum = [&] {
    WB_CUDA(cub::DeviceReduce::Sum(cubScratch.data(), cubBytes, in.data(), total.data(),
                                   static_cast<int>(n)));
  };
  candidates.push_back({kCubName, Kind::Peer, kBaseline, inputBytes, sizeof(int),
                        [&] {
                          restoreInput();
                          total.poison();
                          cubSum();
                          checkLaunch(kCubName);
                          return beyond::testing::checkTotal(kCubName, input, in, total);
                        },
                        cubSum, {}, true});

  DeviceBuffer<int> copyTarget(n, 0);
  addCopyCeilings(candidates, pristine.data(), copyTarget.data(), n * sizeof(int), kBaseline);

  return measureSection("reduction", elements, candidates, context);
}

}  // namespace wb::bench

WB_BENCH_SECTION(reduction, "int32 elements", std::uint64_t{1} << 26, 100003,
                 std::uint64_t{1} << 26, wb::bench::reductionKernelNames, wb::bench::runReduction,
                 "reduceGmem");
