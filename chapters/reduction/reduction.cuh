/**
 * @file reduction.cuh
 * @brief Book section 5.3, "Reducing Global Memory Access": the contract of
 *        the parallel-reduction exercises.
 *
 * Every kernel sums int32 values and has the signature
 * `kernel(int* g_idata, int* g_odata, unsigned int n)`:
 *  - it is launched with kReduceBlock (128) threads per block and
 *    blocksFor(n, unroll) blocks, where `unroll` is the kernel's unroll
 *    factor in reductionKernels() (1, or kUnrollFactor = 4);
 *  - block b writes exactly one value, g_odata[b]: the sum of the input
 *    elements [b * 128 * unroll, (b + 1) * 128 * unroll) that are below n;
 *  - any n from 1 up to kMaxExactElements (2^26) is valid: n need not be a
 *    multiple of the block, or of four blocks;
 *  - a kernel marked `inPlace` may overwrite g_idata[0, n) while it works
 *    (it reduces in global memory); every other kernel leaves g_idata
 *    unchanged. No kernel touches memory outside g_idata[0, n) and
 *    g_odata[0, blocks);
 *  - kernels whose shared array is `Dynamic` declare it
 *    `extern __shared__ int smem[];` and are launched with
 *    (threads per block) * sizeof(int) bytes of dynamic shared memory; `Static`
 *    ones declare `__shared__ int smem[kReduceBlock];`; `None` use no shared
 *    memory at all.
 *  - a kernel marked `anyBlock` (reduceSmemAnyBlock, the book's exercise 8)
 *    is correct with every block size of kAnyBlockSizes (64 to 1024
 *    threads, powers of two), not only 128: with B threads a block, block b
 *    sums the elements [b * B, (b + 1) * B) below n, and the launch gives it
 *    B * sizeof(int) bytes of dynamic shared memory.
 * launch() applies these rules. Each exercise is one file with the kernel's
 * name under `starter/reduction/`; reduceGmem.cu is the worked example.
 *
 * The tests fill the input with random ints in [-16, 16] (kInputMagnitude),
 * never 0 or 1, so every partial sum and total of up to 2^26 elements is
 * exact in int32 and is compared for equality with a 64-bit host reference
 * (referencePartialSums).
 */
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

#include "common/bank_model.h"
#include "common/exercise_kernel.h"
#include "reduction_model.h"

namespace wb::reduction {

/// Neighbored pairs in place in global memory: in round r, threads whose
/// index is a multiple of 2^(r+1) add the element 2^r to their right
/// (`tid % (2 * stride) == 0`); the chapter 3 kernel, the first baseline (5.3.1).
__global__ void reduceNeighboredGmem(int* g_idata, int* g_odata, unsigned int n);
/// reduceNeighboredGmem on a static shared copy of the block's elements (5.3.1).
__global__ void reduceNeighboredSmem(int* g_idata, int* g_odata, unsigned int n);
/// In place in global memory, the steps completely unrolled for 128 threads,
/// the last 64 sums reduced by warp 0: the worked example (5.3.1).
__global__ void reduceGmem(int* g_idata, int* g_odata, unsigned int n);
/// reduceGmem on a static `__shared__ int smem[kReduceBlock]`: one global
/// read per element, one global write per block (5.3.1).
__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n);
/// reduceSmem with the shared array in dynamic shared memory (5.3.3).
__global__ void reduceSmemDyn(int* g_idata, int* g_odata, unsigned int n);
/// reduceGmem after each thread has added four elements one block apart,
/// in place in global memory; a quarter of the blocks (5.3.2).
__global__ void reduceGmemUnroll(int* g_idata, int* g_odata, unsigned int n);
/// reduceSmem after each thread has added four elements one block apart (5.3.2).
__global__ void reduceSmemUnroll(int* g_idata, int* g_odata, unsigned int n);
/// reduceSmemUnroll with the shared array in dynamic shared memory (5.3.3).
__global__ void reduceSmemUnrollDyn(int* g_idata, int* g_odata, unsigned int n);
/// reduceSmemDyn for any block size of kAnyBlockSizes, read from blockDim.x
/// (the book's exercise 8: the block-size experiment).
__global__ void reduceSmemAnyBlock(int* g_idata, int* g_odata, unsigned int n);

/**
 * @brief Effective bandwidth in GB/s (book section 5.3.4): the bytes a kernel
 *        must read plus the bytes it must write, divided by its time. A
 *        gigabyte is 10^9 bytes.
 * @param bytesRead    bytes the algorithm reads from device memory
 * @param bytesWritten bytes the algorithm writes to device memory
 * @param milliseconds the kernel's run time in milliseconds (as CUDA events
 *                     report it)
 * @throws std::invalid_argument when @p milliseconds is not positive
 */
double effectiveBandwidthGBs(std::size_t bytesRead, std::size_t bytesWritten,
                             double milliseconds);

/// Warps in a block of kReduceBlock threads.
inline constexpr int kReduceWarps = kReduceBlock / bank::kWarpSize;

/// Where a kernel keeps the block's partial sums.
enum class SharedArray {
  None,     ///< in global memory, in place in the input
  Static,   ///< `__shared__ int smem[kReduceBlock]`
  Dynamic,  ///< `extern __shared__ int smem[]`, sized at launch
  WarpSums  ///< `__shared__ int smem[kReduceWarps]`, one sum per warp: the
            ///< shuffle reductions of section 5.6 (chapters/shuffle/shuffle.cuh)
};

/// The parameters every reduction kernel has, as the C++ demangler writes them.
inline constexpr const char* kKernelParameters = "(int*, int*, unsigned int)";

/// One reduction kernel and everything a test, a profiler run or a report
/// needs to know about it.
struct ReduceKernel {
  const char* exercise;     ///< kernel name, also the exercise's file name (without .cu)
  int unroll;               ///< input elements each thread adds first: 1 or kUnrollFactor
  bool inPlace;             ///< overwrites its input g_idata while reducing
  SharedArray shared;       ///< where the partial sums live
  const char* bookSection;  ///< where the book discusses it
  /// The section whose exercise it is, and the namespace (wb::section) it is
  /// declared in: the shuffle section's reductions (chapters/shuffle/
  /// shuffle.cuh) meet this contract too.
  const char* section = "reduction";
  /// Correct with every block size of kAnyBlockSizes, not only kReduceBlock.
  bool anyBlock = false;
  /// Threads per block it is launched with: kReduceBlock, or for an
  /// `anyBlock` kernel any size of kAnyBlockSizes (withThreads).
  int threads = kReduceBlock;

  /// The kernel, from the exercise's compiled module (exercise_kernel.h).
  const void* function() const {
    const std::string signature =
        std::string("wb::") + section + "::" + exercise + kKernelParameters;
    return exerciseKernel(section, exercise, signature.c_str());
  }
  /// The same kernel launched with @p blockThreads threads per block.
  ReduceKernel withThreads(int blockThreads) const {
    ReduceKernel k = *this;
    k.threads = blockThreads;
    return k;
  }
  /// Input elements one block sums.
  unsigned int span() const { return elementsPerBlock(unroll, threads); }
  /// Blocks, and partial sums written, for an input of @p n elements.
  unsigned int blocks(unsigned int n) const { return blocksFor(n, unroll, threads); }
  /// Static shared memory the kernel must declare, in bytes.
  std::size_t staticSmemBytes() const {
    switch (shared) {
      case SharedArray::Static: return kReduceBlock * sizeof(int);
      case SharedArray::WarpSums: return kReduceWarps * sizeof(int);
      case SharedArray::None:
      case SharedArray::Dynamic: break;
    }
    return 0;
  }
  /// Dynamic shared memory to launch with, in bytes.
  std::size_t dynamicSmemBytes() const {
    return shared == SharedArray::Dynamic ? threads * sizeof(int) : 0;
  }
  /// Bytes the reduction must move (5.3.4): every input element read once,
  /// every partial sum written once. In-place kernels move more than this;
  /// effective bandwidth counts only what the algorithm needs.
  std::size_t bytesRead(unsigned int n) const { return std::size_t{n} * sizeof(int); }
  std::size_t bytesWritten(unsigned int n) const {
    return std::size_t{blocks(n)} * sizeof(int);
  }
};

/// Every reduction kernel, in the order the book presents them.
inline const std::vector<ReduceKernel>& reductionKernels() {
  using S = SharedArray;
  constexpr int kU = kUnrollFactor;
  static const std::vector<ReduceKernel> all = {
      // exercise, unroll, inPlace, shared array, book section
      {"reduceNeighboredGmem", 1, true, S::None, "5.3.1"},
      {"reduceNeighboredSmem", 1, false, S::Static, "5.3.1"},
      {"reduceGmem", 1, true, S::None, "5.3.1"},
      {"reduceSmem", 1, false, S::Static, "5.3.1"},
      {"reduceGmemUnroll", kU, true, S::None, "5.3.2"},
      {"reduceSmemUnroll", kU, false, S::Static, "5.3.2"},
      {"reduceSmemDyn", 1, false, S::Dynamic, "5.3.3"},
      {"reduceSmemUnrollDyn", kU, false, S::Dynamic, "5.3.3"},
      {"reduceSmemAnyBlock", 1, false, S::Dynamic, "5.3.3", "reduction", true},
  };
  return all;
}

/// Finds a kernel by exercise name ("reduceSmem"); nullptr when unknown.
inline const ReduceKernel* findReductionKernel(const std::string& exercise) {
  for (const auto& k : reductionKernels()) {
    if (exercise == k.exercise) return &k;
  }
  return nullptr;
}

/// Launches @p k over the @p n elements of @p in with k.threads threads per
/// block, writing k.blocks(n) partial sums into @p out. @p n must be at least 1 (no blocks is an invalid
/// launch). Launch errors are left for the caller to check.
inline void launch(const ReduceKernel& k, int* in, int* out, unsigned int n,
                   cudaStream_t stream = nullptr) {
  launchKernel(k.function(), k.blocks(n), k.threads, k.dynamicSmemBytes(), stream, in, out, n);
}

}  // namespace wb::reduction
