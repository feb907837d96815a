#include <cstddef>
#include <cstdint>

#include "wb/buffer.h"
#include "wb/cuda_check.h"
#include "wb/device.h"
#include "wb/timing.h"

namespace wb {
namespace {

/// Owns a CUDA event for the lifetime of one timing.
struct Event {
  cudaEvent_t e = nullptr;
  Event() { WB_CUDA(cudaEventCreate(&e)); }
  ~Event() { cudaEventDestroy(e); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
};

constexpr int kFlushThreads = 256;

/// Reads @p words 16-byte vectors and folds them into one value that it
/// stores only if it matches @p never, which it does not: the loads cannot
/// be optimised away, and nothing is written.
__global__ void readAll(const uint4* words, std::size_t count, std::uint32_t never,
                        std::uint32_t* sink) {
  std::uint32_t folded = 0;
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    const uint4 v = words[i];
    folded ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (folded == never) *sink = folded;
}

/// Evicts whatever the previous run left in L2 by READING a buffer twice
/// its size, filled once when it is allocated. Writing the buffer instead
/// (a memset, as is common) would leave L2 full of dirty lines, and the next
/// kernel, the one being timed, would pay for writing them back to memory:
/// on an H200 that added about 9 us (up to 60 MB of write-back) to every
/// timed run, 13% of a 2^26-int reduction. After a read, L2 holds clean
/// lines that the timed kernel simply drops. One buffer per process,
/// allocated on first use.
void flushL2() {
  struct Scratch {
    DeviceBuffer<std::uint32_t> words{2 * currentDevice().l2Bytes / sizeof(std::uint32_t), 0};
    DeviceBuffer<std::uint32_t> sink{1, 0};
    unsigned int blocks = 0;
    Scratch() {
      fillWords(words.data(), words.size(), 0x5A5A5A5Au);
      const int sms = currentDevice().smCount;
      blocks = static_cast<unsigned int>(sms > 0 ? 8 * sms : 1024);
    }
  };
  static Scratch scratch;
  // The fill pattern folds to 0 (an even number of equal words per vector),
  // never to 1: the sink is never written.
  readAll<<<scratch.blocks, kFlushThreads>>>(reinterpret_cast<const uint4*>(scratch.words.data()),
                                              scratch.words.size() / 4, 1u, scratch.sink.data());
}

}  // namespace

TimingStats timeKernel(const std::string& name, const std::function<void()>& launch,
                       const TimingOptions& options) {
  for (int i = 0; i < options.warmup; ++i) {
    if (options.beforeEach) options.beforeEach();
    launch();
    if (i == 0) checkLaunch(name);
  }
  WB_CUDA(cudaDeviceSynchronize());
  Event start, stop;
  std::vector<double> samples;
  samples.reserve(options.repetitions);
  for (int i = 0; i < options.repetitions; ++i) {
    if (options.beforeEach) options.beforeEach();
    if (options.flushL2) flushL2();
    WB_CUDA(cudaEventRecord(start.e));
    launch();
    WB_CUDA(cudaEventRecord(stop.e));
    WB_CUDA(cudaEventSynchronize(stop.e));
    if (options.warmup == 0 && i == 0) checkLaunch(name);
    float ms = 0.0f;
    WB_CUDA(cudaEventElapsedTime(&ms, start.e, stop.e));
    samples.push_back(ms);
  }
  checkLaunch(name);
  return TimingStats::of(std::move(samples));
}

}  // namespace wb
