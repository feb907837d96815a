// The kernels of the config tests (config_test_kernels.h says why they live
// apart from the tests).
#include "config_test_kernels.h"

namespace wb::config::test_kernels {
namespace {

__global__ void carveoutKernelImpl(int* out) {
  extern __shared__ int scratch[];
  scratch[threadIdx.x] = static_cast<int>(threadIdx.x);
  __syncthreads();
  if (out != nullptr) out[threadIdx.x] = scratch[blockDim.x - 1 - threadIdx.x];
}

__global__ void carveoutTwinImpl(int* out) {
  extern __shared__ int scratch[];
  scratch[threadIdx.x] = static_cast<int>(threadIdx.x);
  __syncthreads();
  if (out != nullptr) out[threadIdx.x] = scratch[blockDim.x - 1 - threadIdx.x];
}

__global__ void reverseThroughSharedImpl(const int* in, int* out, unsigned int n) {
  extern __shared__ int slice[];
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * n;
  for (unsigned int i = threadIdx.x; i < n; i += blockDim.x) slice[i] = in[base + i];
  __syncthreads();
  for (unsigned int i = threadIdx.x; i < n; i += blockDim.x) out[base + i] = slice[n - 1 - i];
}

__global__ void sharedOnlyImpl(int* out) {
  extern __shared__ int scratch[];
  scratch[threadIdx.x] = static_cast<int>(threadIdx.x);
  __syncthreads();
  if (out != nullptr) out[threadIdx.x] = scratch[31 - threadIdx.x];
}

}  // namespace

const void* carveoutKernel() { return reinterpret_cast<const void*>(&carveoutKernelImpl); }
const void* carveoutTwin() { return reinterpret_cast<const void*>(&carveoutTwinImpl); }
const void* reverseThroughShared() {
  return reinterpret_cast<const void*>(&reverseThroughSharedImpl);
}
const void* sharedOnly() { return reinterpret_cast<const void*>(&sharedOnlyImpl); }

cudaError_t launchReverseThroughShared(unsigned int blocks, unsigned int threads,
                                       std::size_t bytes, const int* in, int* out,
                                       unsigned int n) {
  reverseThroughSharedImpl<<<blocks, threads, bytes>>>(in, out, n);
  return cudaGetLastError();
}

}  // namespace wb::config::test_kernels
