// Runs one layout kernel on poisoned, guarded output and compares the result
// with the permutation the contract's index maps predict. Shared by the
// correctness and the performance tests (a performance claim about a wrong
// kernel means nothing, so the performance tests check first).
#pragma once

#include <string>

#include "layout/layout.cuh"
#include "wb/buffer.h"
#include "wb/cuda_check.h"
#include "wb/shared_poison.h"

namespace wb::layout {

/// Test names and failure messages show a kernel by its id.
inline void PrintTo(const LayoutKernel& k, std::ostream* os) { *os << k.id(); }

namespace testing {

/// "" when @p k writes exactly the expected output for @p blocks blocks;
/// otherwise what went wrong, naming the kernel, the block and the thread.
inline std::string runAndCheck(const LayoutKernel& k, int blocks) {
  const int perBlock = k.shape.elements();
  DeviceBuffer<int> out(static_cast<std::size_t>(perBlock) * blocks);
  out.poison();
  poisonSharedMemory();
  launch(k, out.data(), blocks);
  checkLaunch(k.id());
  // Positions are reported as (block, thread x, thread y) of the writer.
  const auto where = [&](std::size_t i) {
    const std::size_t t = i % perBlock;
    return "out[" + std::to_string(i) + "] (block " + std::to_string(i / perBlock) +
           ", threadIdx.x " + std::to_string(t % k.shape.dimX) + ", threadIdx.y " +
           std::to_string(t / k.shape.dimX) + ")";
  };
  const std::string unwritten = out.checkWritten(k.id(), where);
  if (!unwritten.empty()) return unwritten;
  const std::vector<int> got = out.download();
  const std::vector<int> want = k.expected(blocks);
  return describeMismatches(got.data(), want.data(), got.size(), k.id(), where);
}

}  // namespace testing
}  // namespace wb::layout
