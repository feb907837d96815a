// The bandwidth ceilings every section is measured against: a copy kernel
// with 16-byte accesses and cudaMemcpy device to device. A copy reads and
// writes every byte once with no work in between, so no kernel that must
// move the same bytes can be expected to beat it by much; a read-only job
// (a reduction) can, a little, as reads need no write-back.
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "bench.h"
#include "wb/buffer.h"
#include "wb/cuda_check.h"
#include "wb/device.h"

namespace wb::bench {
namespace {

constexpr int kCopyThreads = 256;
/// Vectors each thread loads before it stores any: enough bytes in flight to
/// cover the latency of device memory with one resident grid.
constexpr int kCopyLoadsInFlight = 4;

/// Copies @p words 4-byte words, @p src and @p dst 16-byte aligned: int4
/// vectors on a grid-stride loop, the last (up to three) words one per
/// thread.
__global__ void __launch_bounds__(kCopyThreads)
    copyInt4(const std::uint32_t* __restrict__ src, std::uint32_t* __restrict__ dst,
             std::size_t words) {
  const std::size_t vectorCount = words / 4;
  const int4* from = reinterpret_cast<const int4*>(src);
  int4* to = reinterpret_cast<int4*>(dst);
  const std::size_t stride = std::size_t{gridDim.x} * kCopyThreads;
  const std::size_t thread = std::size_t{blockIdx.x} * kCopyThreads + threadIdx.x;
  std::size_t i = thread;
  for (; i + (kCopyLoadsInFlight - 1) * stride < vectorCount; i += kCopyLoadsInFlight * stride) {
    int4 v[kCopyLoadsInFlight];
#pragma unroll
    for (int k = 0; k < kCopyLoadsInFlight; ++k) v[k] = from[i + k * stride];
#pragma unroll
    for (int k = 0; k < kCopyLoadsInFlight; ++k) to[i + k * stride] = v[k];
  }
  for (; i < vectorCount; i += stride) to[i] = from[i];
  const std::size_t tail = 4 * vectorCount + thread;
  if (tail < words) dst[tail] = src[tail];
}

/// Blocks of copyInt4 that fill the device once: a grid-stride loop needs no more.
unsigned int copyBlocks() {
  const DeviceInfo device = currentDevice();
  int perSm = 0;
  WB_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, copyInt4, kCopyThreads, 0));
  return static_cast<unsigned int>(device.smCount * (perSm > 0 ? perSm : 1));
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

/// Poisons @p dst, runs @p copy, and compares @p dst with @p src byte for byte.
std::string checkCopy(const std::string& name, const void* src, void* dst, std::size_t bytes,
                      const std::function<void()>& copy) {
  fillWords(dst, bytes / sizeof(std::uint32_t), kPoisonWord);
  copy();
  checkLaunch(name);
  std::vector<std::uint32_t> want(bytes / sizeof(std::uint32_t));
  std::vector<std::uint32_t> got(want.size());
  WB_CUDA(cudaMemcpy(want.data(), src, bytes, cudaMemcpyDeviceToHost));
  WB_CUDA(cudaMemcpy(got.data(), dst, bytes, cudaMemcpyDeviceToHost));
  return describeMismatches(got.data(), want.data(), got.size(), name + " copy");
}

}  // namespace

void addCopyCeilings(std::vector<Candidate>& out, const void* src, void* dst, std::size_t bytes,
                     const std::string& baseline) {
  if (bytes % sizeof(std::uint32_t) != 0 || !aligned16(src) || !aligned16(dst)) {
    throw std::invalid_argument("the copy ceilings need whole words and 16-byte aligned buffers");
  }
  const auto* from = static_cast<const std::uint32_t*>(src);
  auto* to = static_cast<std::uint32_t*>(dst);
  const std::size_t words = bytes / sizeof(std::uint32_t);
  const unsigned int blocks = copyBlocks();

  const auto kernelCopy = [=] { copyInt4<<<blocks, kCopyThreads>>>(from, to, words); };
  out.push_back({kCopyKernelName, Kind::Ceiling, baseline, static_cast<double>(bytes),
                 static_cast<double>(bytes),
                 [=] { return checkCopy(kCopyKernelName, src, dst, bytes, kernelCopy); },
                 kernelCopy, {}, true});

  const auto driverCopy = [=] {
    WB_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice));
  };
  out.push_back({kMemcpyName, Kind::Ceiling, baseline, static_cast<double>(bytes),
                 static_cast<double>(bytes),
                 [=] { return checkCopy(kMemcpyName, src, dst, bytes, driverCopy); }, driverCopy,
                 {}, true});
}

}  // namespace wb::bench
