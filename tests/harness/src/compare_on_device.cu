// The device-side comparison behind wb::perf::compareOnDevice: thrust needs
// the device compiler, so it lives here, compiled once, and the performance
// tests that call it can be compiled as plain C++.
#include <thrust/equal.h>
#include <thrust/execution_policy.h>

#include <cstddef>

#include "wb/perf_ratio.h"

namespace wb::perf {

bool equalOnDevice(const int* a, const int* b, std::size_t n) {
  return thrust::equal(thrust::device, a, a + n, b);
}

bool equalOnDevice(const float* a, const float* b, std::size_t n) {
  return thrust::equal(thrust::device, a, a + n, b);
}

}  // namespace wb::perf
