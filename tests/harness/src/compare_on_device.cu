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
  constexpr int kThreads = 256;
  constexpr std::size_t kMaxBlocks = 4096;  // a grid-stride loop covers the rest
  const std::size_t wanted = (n + kThreads - 1) / kThreads;
  const unsigned int blocks =
      static_cast<unsigned int>(wanted == 0 ? 1 : (wanted < kMaxBlocks ? wanted : kMaxBlocks));
  findDifference<<<blocks, kThreads>>>(a, b, n, differs.data());
  WB_CUDA(cudaGetLastError());
  return differs.download()[0] == 0;
}

}  // namespace

bool equalOnDevice(const int* a, const int* b, std::size_t n) { return equal(a, b, n); }

bool equalOnDevice(const float* a, const float* b, std::size_t n) { return equal(a, b, n); }

}  // namespace wb::perf
