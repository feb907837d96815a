// The device side of the checks every performance test runs after each timed
// run: an output's fingerprint (behind wb::perf::compareWithFingerprint) and
// the transpose check. They need the device compiler, so they live here,
// compiled once, and the performance tests that call them are compiled as
// plain C++. Grid-stride loops rather than Thrust or CUB: one read of each
// array, and a file nvcc compiles in seconds instead of the better part of a
// minute (it is on the path of every first build).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "wb/buffer.h"
#include "wb/cuda_check.h"
#include "wb/fingerprint.h"
#include "wb/perf_ratio.h"

namespace wb::perf {
namespace {

constexpr int kThreads = 256;
constexpr std::size_t kMaxBlocks = 4096;  // a grid-stride loop covers the rest

unsigned int blocksFor(std::size_t n) {
  const std::size_t wanted = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned int>(wanted == 0 ? 1 : (wanted < kMaxBlocks ? wanted : kMaxBlocks));
}

/// Adds the fingerprint terms of data[0..n) (wb/fingerprint.h) to *sum.
template <class T>
__global__ void addFingerprintTerms(const T* data, std::size_t n, unsigned long long* sum) {
  static_assert(sizeof(T) == sizeof(std::uint32_t), "fingerprints are of 32-bit elements");
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::uint64_t local = 0;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &data[i], sizeof bits);
    local += fingerprintTerm(i, bits);
  }
  // Every lane of the warp is here (the loop above has closed).
  for (int offset = 16; offset > 0; offset /= 2) {
    local += __shfl_down_sync(0xffffffffu, local, offset);
  }
  if (threadIdx.x % 32 == 0) atomicAdd(sum, static_cast<unsigned long long>(local));
}

template <class T>
std::uint64_t fingerprint(const T* data, std::size_t n) {
  DeviceBuffer<unsigned long long> sum(1, 0);
  sum.upload({0});
  addFingerprintTerms<<<blocksFor(n), kThreads>>>(data, n, sum.data());
  WB_CUDA(cudaGetLastError());
  return static_cast<std::uint64_t>(sum.download()[0]);
}

/// Sets *differs when some out[c * rows + r] != in[r * cols + c]: out is
/// not the transpose of the rows x cols matrix in.
__global__ void findTransposeDifference(const float* out, const float* in, std::size_t rows,
                                        std::size_t cols, int* differs) {
  const std::size_t n = rows * cols;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const std::size_t c = i / rows;
    const std::size_t r = i % rows;
    if (!(out[i] == in[r * cols + c])) {
      *differs = 1;
      return;
    }
  }
}

}  // namespace

bool transposeOnDevice(const float* out, const float* in, std::size_t rows, std::size_t cols) {
  DeviceBuffer<int> differs(1, 0);
  differs.upload({0});
  findTransposeDifference<<<blocksFor(rows * cols), kThreads>>>(out, in, rows, cols,
                                                                differs.data());
  WB_CUDA(cudaGetLastError());
  return differs.download()[0] == 0;
}

std::uint64_t fingerprintOnDevice(const int* data, std::size_t n) { return fingerprint(data, n); }

std::uint64_t fingerprintOnDevice(const float* data, std::size_t n) {
  return fingerprint(data, n);
}

}  // namespace wb::perf
