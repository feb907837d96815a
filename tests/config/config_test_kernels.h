// The kernels the config tests configure, query and launch. They are
// compiled by nvcc in config_test_kernels.cu, so the tests themselves are
// plain C++ (tests/CMakeLists.txt, wb_compile_host_code_as_cxx): a third of
// the time to build, on the path of every student's first build.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace wb::config::test_kernels {

/// Two identical kernels that only touch dynamic shared memory, each block
/// reversing its threads' indices through it: the exercise configures the
/// first, the test the twin (prefer_shared_carveout_test.cu).
const void* carveoutKernel();
const void* carveoutTwin();

/// Block b reverses in[b * n, (b + 1) * n) into out through a dynamic
/// shared array of n ints, n = the dynamic shared bytes / sizeof(int), so
/// every byte of the array is used (opt_in_dynamic_shared_test.cu).
const void* reverseThroughShared();
/// Launches reverseThroughShared; returns cudaGetLastError() after it.
cudaError_t launchReverseThroughShared(unsigned int blocks, unsigned int threads,
                                       std::size_t bytes, const int* in, int* out,
                                       unsigned int n);

/// 32 threads, a handful of registers, and as much dynamic shared memory as
/// the launch gives: the blocks per SM it allows depend on that alone
/// (blocks_per_sm_test.cu).
const void* sharedOnly();

}  // namespace wb::config::test_kernels
