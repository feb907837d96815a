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

/// Evicts whatever the previous run left in L2 by writing a buffer twice its
/// size. One buffer per process, allocated on first use.
void flushL2() {
  static DeviceBuffer<std::uint32_t> scratch(2 * currentDevice().l2Bytes / sizeof(std::uint32_t),
                                             0);
  static std::uint32_t round = 0;
  fillWords(scratch.data(), scratch.size(), ++round);
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
