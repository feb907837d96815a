// GPU tests of wb::startFreshContext, what the kernel runner does between the
// kernels of a run of several (a section's profile or sanitizer batch). A
// kernel that finds what an earlier kernel of the same process left behind
// can take another path in the batch than alone: the batch's counters would
// then describe a kernel the other checks never see. Three places outlive a
// launch and a module unload: local memory and the device heap (the
// context's), and a `__device__` variable of a module loaded with the
// program (reset with its context). Each test first shows the carry-over
// without a new context, then that startFreshContext ends it; where a GPU
// does not keep the bytes in the first place, the test says so and skips.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "wb/buffer.h"
#include "wb/cuda_check.h"
#include "wb/gtest_support.h"
#include "wb/modules.h"

namespace wb {
namespace {

constexpr std::uint32_t kTag = 0x5eedf00du;
constexpr unsigned int kBlocks = 264;   // a few waves on the largest GPUs
constexpr unsigned int kThreads = 256;

/// Every thread writes kTag into the first 16 bytes of its local frame, at
/// an address ptxas cannot trace, so the store is kept.
__global__ void leaveTagInLocalMemory() {
  const std::uint32_t tag = kTag;
  asm volatile("{ .local .align 16 .b32 stash[64];\n\t"
               ".reg .u32 a, z;\n\t"
               "mov.u32 a, stash;\n\t"
               "mov.u32 z, %%dynamic_smem_size;\n\t"
               "add.u32 a, a, z;\n\t"
               "st.local.v4.b32 [a], {%0, %0, %0, %0}; }" ::"r"(tag)
               : "memory");
}

/// Counts the threads whose local frame starts with kTag, never written by
/// this kernel (the same frame layout as leaveTagInLocalMemory).
__global__ void countTagsInLocalMemory(unsigned int* found) {
  std::uint32_t a0, a1, a2, a3;
  asm volatile("{ .local .align 16 .b32 stash[64];\n\t"
               ".reg .u32 a, z;\n\t"
               "mov.u32 a, stash;\n\t"
               "mov.u32 z, %%dynamic_smem_size;\n\t"
               "add.u32 a, a, z;\n\t"
               "ld.local.v4.b32 {%0, %1, %2, %3}, [a]; }"
               : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)::"memory");
  if (a0 == kTag && a1 == kTag && a2 == kTag && a3 == kTag) atomicAdd(found, 1u);
}

/// Takes a block of the device heap, writes kTag into it and frees it.
__global__ void leaveTagInTheHeap() {
  auto* p = static_cast<volatile std::uint32_t*>(malloc(64));
  if (p == nullptr) return;
  for (int i = 0; i < 16; ++i) p[i] = kTag;
  free(const_cast<std::uint32_t*>(p));
}

/// Takes a block of the same size and counts the blocks that hold kTag.
__global__ void countTagsInTheHeap(unsigned int* found) {
  auto* p = static_cast<volatile std::uint32_t*>(malloc(64));
  if (p == nullptr) return;
  bool all = true;
  for (int i = 0; i < 16; ++i) all = all && p[i] == kTag;
  if (all) atomicAdd(found, 1u);
  free(const_cast<std::uint32_t*>(p));
}

__device__ std::uint32_t remembered = 0;

__global__ void rememberTag() { remembered = kTag; }

__global__ void countRememberedTag(unsigned int* found) {
  if (remembered == kTag) atomicAdd(found, 1u);
}

using Leave = void (*)();
using Count = void (*)(unsigned int*);

/// Runs @p leave, then, after a new context when @p fresh, @p count; returns
/// how many threads of count found the tag.
unsigned int tagsFound(Leave leave, Count count, unsigned int blocks, bool fresh) {
  leave<<<blocks, kThreads>>>();
  WB_CUDA(cudaGetLastError());
  WB_CUDA(cudaDeviceSynchronize());
  if (fresh) startFreshContext();
  DeviceBuffer<unsigned int> found(1);  // after the reset: memory of this context
  found.upload({0u});
  count<<<blocks, kThreads>>>(found.data());
  WB_CUDA(cudaGetLastError());
  WB_CUDA(cudaDeviceSynchronize());
  return found.download().at(0);
}

class GpuFreshContext : public GpuTest {
 protected:
  /// The carry-over without a new context (skips where there is none), then
  /// none after startFreshContext.
  static void expectNoneCarried(const std::string& where, Leave leave, Count count,
                                unsigned int blocks) {
    const unsigned int kept = tagsFound(leave, count, blocks, false);
    if (kept == 0) {
      GTEST_SKIP() << "this GPU kept nothing in " << where
                   << " from one launch to the next; nothing to clear";
    }
    startFreshContext();  // the tags of the first half must not count below
    EXPECT_EQ(tagsFound(leave, count, blocks, true), 0u)
        << "after wb::startFreshContext a kernel still found what the kernel before it left in "
        << where << " (" << kept << " thread(s) found it without a new context)";
  }
};

TEST_F(GpuFreshContext, NoKernelFindsTheLocalMemoryOfTheOneBefore) {
  expectNoneCarried("local memory", leaveTagInLocalMemory, countTagsInLocalMemory, kBlocks);
}

TEST_F(GpuFreshContext, NoKernelFindsTheHeapBlocksOfTheOneBefore) {
  expectNoneCarried("the device heap", leaveTagInTheHeap, countTagsInTheHeap, 1);
}

TEST_F(GpuFreshContext, NoKernelFindsTheDeviceVariablesOfTheOneBefore) {
  expectNoneCarried("a __device__ variable", rememberTag, countRememberedTag, 1);
}

}  // namespace
}  // namespace wb
