// The device-side comparison behind wb::perf::compareOnDevice. It needs the
// device compiler, so it lives here, compiled once, and the performance
// tests that call it are compiled as plain C++. A grid-stride loop rather
// than thrust::equal: the same one read of both arrays, and a file nvcc
// compiles in seconds instead of the better part of a minute (it is on the
// path of every first build).
#include <cuda_runtime.h>

#include <cstddef>

#include "wb/buffer.h"
#include "wb/cuda_check.h"
#include "wb/perf_ratio.h"

namespace wb::perf {
namespace {

constexpr int kThreads = 256;
constexpr std::size_t kMaxBlocks = 4096;  // a grid-stride loop covers the rest

unsigned int blocksFor(std::size_t n) {
  const std::size_t wanted = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned int>(wanted == 0 ? 1 : (wanted < kMaxBlocks ? wanted : kMaxBlocks));
}

/// Sets *differs when some a[i] != b[i] (compared with ==, so a NaN
/// differs from everything).
template <class T>
__global__ void findDifference(const T* a, const T* b, std::size_t n, int* differs) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    if (!(a[i] == b[i])) {
      *differs = 1;
      return;
    }
  }
}

template <class T>
bool equal(const T* a, const T* b, std::size_t n) {
  DeviceBuffer<int> differs(1, 0);
  differs.upload({0});
  findDifference<<<blocksFor(n), kThreads>>>(a, b, n, differs.data());
  WB_CUDA(cudaGetLastError());
  return differs.download()[0] == 0;
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

bool equalOnDevice(const int* a, const int* b, std::size_t n) { return equal(a, b, n); }

bool equalOnDevice(const float* a, const float* b, std::size_t n) { return equal(a, b, n); }

}  // namespace wb::perf
