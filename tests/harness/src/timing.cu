#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <vector>

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

/// Milliseconds between @p start and @p stop, once @p stop has been reached.
double elapsedMs(const Event& start, const Event& stop) {
  WB_CUDA(cudaEventSynchronize(stop.e));
  float ms = 0.0f;
  WB_CUDA(cudaEventElapsedTime(&ms, start.e, stop.e));
  return ms;
}

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

/// A chain of @p rounds dependent multiply-adds per thread and no memory
/// traffic, so its time follows the SM clock alone. The result is stored
/// only if it equals @p never, so the chain cannot be optimised away; a
/// store by chance is harmless (nothing reads the sink).
__global__ void spin(int rounds, std::uint32_t never, std::uint32_t* sink) {
  std::uint32_t x = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < rounds; ++i) x = x * 1664525u + 1013904223u;
  if (x == never) *sink = x;
}

/// The flush buffer, twice the L2 size and filled once, and a sink word.
/// One per process, allocated on first use.
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

Scratch& scratch() {
  static Scratch s;
  return s;
}

/// Evicts whatever the previous run left in L2 by READING a buffer twice
/// its size, filled once when it is allocated. Writing the buffer instead
/// (a memset, as is common) would leave L2 full of dirty lines, and the next
/// kernel, the one being timed, would pay for writing them back to memory:
/// on an H200 that added about 9 us (up to 60 MB of write-back) to every
/// timed run, 13% of a 2^26-int reduction. After a read, L2 holds clean
/// lines that the timed kernel simply drops.
void flushL2() {
  Scratch& s = scratch();
  // The fill pattern folds to 0 (an even number of equal words per vector),
  // never to 1: the sink is never written.
  readAll<<<s.blocks, kFlushThreads>>>(reinterpret_cast<const uint4*>(s.words.data()),
                                        s.words.size() / 4, 1u, s.sink.data());
}

/// Rounds of spin per probe: about as long as one flush at full clocks (on
/// an H100 about 40 us, the flush 37 us), so neither half of the probe
/// drowns the other.
constexpr int kSpinRounds = 8192;

/// One launch pair of the settling probe: a flush, whose time follows the
/// memory clock (most of the workbook's kernels are bound by device
/// memory), and a spin, whose time follows the SM clock (the layout kernels
/// are bound by shared memory, which a memory-bound probe would not see
/// ramping once the memory is saturated).
void probe() {
  flushL2();
  Scratch& s = scratch();
  spin<<<s.blocks, kFlushThreads>>>(kSpinRounds, 0u, s.sink.data());
}

/// Runs the probe in ever longer timed batches until ClockSettleRule says
/// the clocks have settled, or until ClockSettleRule::kCapMs has passed.
ClockSettling runUntilClockSettles() {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point begin = Clock::now();
  const auto wallMs = [&] {
    return std::chrono::duration<double, std::milli>(Clock::now() - begin).count();
  };
  ClockSettleRule rule;
  ClockSettling result;
  Event start, stop;
  while (!result.settled && wallMs() < ClockSettleRule::kCapMs) {
    const int batch = rule.batch();
    WB_CUDA(cudaEventRecord(start.e));
    for (int i = 0; i < batch; ++i) probe();
    WB_CUDA(cudaEventRecord(stop.e));
    result.settled = rule.add(elapsedMs(start, stop));
    result.launches += 2 * batch;
  }
  checkLaunch("the clock-settling probe (readAll, spin)");
  result.ms = wallMs();
  return result;
}

/// Untimed runs of @p k; the first is checked with checkLaunch, so a launch
/// that cannot work fails here, naming the kernel.
void warmUp(const TimedKernel& k) {
  for (int i = 0; i < k.options.warmup; ++i) {
    if (k.options.beforeEach) k.options.beforeEach();
    if (k.options.beforeRun) k.options.beforeRun(-1);
    k.launch();
    if (i == 0) checkLaunch(k.name);
    if (k.options.afterCheck) k.options.afterCheck();
  }
}

/// Timed run @p run of @p k: its beforeEach, beforeRun and the flush, then the launch
/// between two events; after the stop event, the launch check, its
/// afterEach and its afterCheck, outside the timed region. Returns the
/// run's time in ms.
double timeOneRun(const TimedKernel& k, int run, const Event& start, const Event& stop) {
  if (k.options.beforeEach) k.options.beforeEach();
  if (k.options.beforeRun) k.options.beforeRun(run);
  if (k.options.flushL2) flushL2();
  WB_CUDA(cudaEventRecord(start.e));
  k.launch();
  WB_CUDA(cudaEventRecord(stop.e));
  const double ms = elapsedMs(start, stop);
  checkLaunch(k.name);
  if (k.options.afterEach) k.options.afterEach(run);
  if (k.options.afterCheck) k.options.afterCheck();
  return ms;
}

/// The one timing loop behind timeKernel, timeKernelPair and
/// timeKernelsInterleaved: every kernel's warm-ups, the clock settling
/// (once per process), then rounds of one timed run of each kernel.
std::vector<TimingStats> timeInterleaved(const std::vector<const TimedKernel*>& kernels) {
  if (kernels.empty()) throw std::invalid_argument("timing needs at least one kernel");
  const int repetitions = kernels.front()->options.repetitions;
  if (repetitions < 1) throw std::invalid_argument("timing needs at least one repetition");
  for (const TimedKernel* k : kernels) {
    if (k->options.repetitions != repetitions) {
      throw std::invalid_argument("kernels timed together need the same repetitions: " +
                                  kernels.front()->name + " has " +
                                  std::to_string(repetitions) + ", " + k->name + " " +
                                  std::to_string(k->options.repetitions));
    }
  }
  for (const TimedKernel* k : kernels) warmUp(*k);
  WB_CUDA(cudaDeviceSynchronize());
  settleGpuClock();

  Event start, stop;
  const std::size_t count = kernels.size();
  std::vector<std::vector<double>> samples(count);
  for (std::vector<double>& s : samples) s.reserve(repetitions);
  for (int run = 0; run < repetitions; ++run) {
    // Rotating the order cancels what a fixed one would favour: with two
    // kernels, A B B A A B ..., neither always runs first in its round.
    for (std::size_t j = 0; j < count; ++j) {
      const std::size_t which = (static_cast<std::size_t>(run) + j) % count;
      samples[which].push_back(timeOneRun(*kernels[which], run, start, stop));
    }
  }
  std::vector<TimingStats> stats;
  stats.reserve(count);
  for (std::vector<double>& s : samples) stats.push_back(TimingStats::of(std::move(s)));
  return stats;
}

}  // namespace

const ClockSettling& settleGpuClock() {
  static const ClockSettling settling = [] {
    const ClockSettling s = runUntilClockSettles();
    if (s.settled) {
      std::printf("GPU clock settled after %d warm-up launches (%.0f ms)\n", s.launches, s.ms);
    } else {
      std::printf("GPU clock did not settle within %.0f ms (%d warm-up launches); timing anyway\n",
                  s.ms, s.launches);
    }
    std::fflush(stdout);
    return s;
  }();
  return settling;
}

TimingStats timeKernel(const std::string& name, const std::function<void()>& launch,
                       const TimingOptions& options) {
  const TimedKernel k{name, launch, options};
  return timeInterleaved({&k}).front();
}

std::pair<TimingStats, TimingStats> timeKernelPair(const TimedKernel& a, const TimedKernel& b) {
  std::vector<TimingStats> stats = timeInterleaved({&a, &b});
  return {std::move(stats[0]), std::move(stats[1])};
}

std::vector<TimingStats> timeKernelsInterleaved(const std::vector<TimedKernel>& kernels) {
  std::vector<const TimedKernel*> pointers;
  pointers.reserve(kernels.size());
  for (const TimedKernel& k : kernels) pointers.push_back(&k);
  return timeInterleaved(pointers);
}

}  // namespace wb
