/**
 * @file beyond.cuh
 * @brief Beyond book section 5.3: a reference sum of int32 values that runs
 *        at the speed of device memory. Not an exercise; the benchmark
 *        (bench/wb_bench) sets it beside the chapter's kernels and
 *        cub::DeviceReduce::Sum.
 *
 * What it adds over the chapter's kernels, and why each step pays:
 *  - **A grid sized to the GPU, not to the input.** The chapter launches one
 *    block per 128 or 512 elements, so a 2^26-element input needs hundreds of
 *    thousands of short-lived blocks and writes one partial sum per block.
 *    Here every SM gets as many blocks as it can hold at once, and each
 *    thread walks the input with a grid-sized stride (a *grid-stride loop*):
 *    the block count no longer depends on n.
 *  - **16-byte loads.** Each thread reads `int4` vectors, four ints per load
 *    instruction, and keeps kSumLoadsInFlight of them in flight before it
 *    adds any: a quarter of the load instructions of scalar code and enough
 *    bytes in flight per SM to cover the latency of device memory.
 *  - **Warp shuffles instead of shared memory.** Inside a warp the partial
 *    sums move between registers with `__shfl_down_sync` (book section 5.6,
 *    "Warp Shuffle Instruction"): no shared-memory traffic and no barrier.
 *    Shared memory holds just one value per warp for the last step.
 *  - **One launch, one result.** Each block publishes its sum, and the last
 *    block to finish (an atomic ticket counter, `__threadfence()` for the
 *    ordering) adds the block sums up and writes the total: no second kernel
 *    and no host-side sum, unlike the chapter's kernels.
 *  - **Any n, any start.** `in` need not be 16-byte aligned and n need not be
 *    a multiple of four: the up to three ints before the first 16-byte
 *    boundary and the up to three after the last whole vector are added by
 *    the first threads of the grid, one int each.
 *
 * The sum is computed in int32 and wraps on overflow, like the chapter's
 * kernels; inputs within reduction_model.h's bounds sum exactly.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace wb::reduction::beyond {

/// Threads per block of reduceInt4Shuffle: eight warps.
constexpr int kSumThreads = 256;
/// `int4` loads each thread issues before it adds the first of them.
constexpr int kSumLoadsInFlight = 4;
/// Most blocks a launch may use, and the size of SumScratch::blockSums.
/// Far above what any current GPU holds at once (132 SMs x 8 blocks = 1056).
constexpr unsigned int kMaxSumBlocks = 4096;

/// Device memory reduceInt4Shuffle needs besides its input and its output.
struct SumScratch {
  /// kMaxSumBlocks ints: one sum per block of the launch.
  int* blockSums;
  /// One counter of finished blocks. Zero before the first launch (cudaMemset);
  /// every launch that runs to completion leaves it zero again, so the same
  /// scratch serves any number of launches in one stream.
  unsigned int* blocksDone;
};

/**
 * @brief Writes the int32 sum of in[0, n) to *total.
 *
 * Launch with kSumThreads threads per block and 1 to kMaxSumBlocks blocks
 * (reduceInt4ShuffleBlocks picks the number; any count gives the same sum),
 * no dynamic shared memory; see launchReduceInt4Shuffle. Reads exactly
 * in[0, n); writes *total, scratch.blockSums[0, gridDim.x) and
 * *scratch.blocksDone, nothing else. n = 0 writes 0. Two launches must not
 * share one scratch at the same time (use one per stream).
 */
__global__ void reduceInt4Shuffle(const int* in, std::size_t n, int* total, SumScratch scratch);

/**
 * @brief Blocks to launch for @p n ints on a GPU with @p smCount SMs that
 *        hold @p blocksPerSm blocks of reduceInt4Shuffle each: enough to fill
 *        the GPU once, fewer when the input has too little work for them (one
 *        block per kSumThreads * kSumLoadsInFlight vectors), at least 1 and
 *        at most kMaxSumBlocks.
 */
constexpr unsigned int reduceInt4ShuffleBlocks(std::size_t n, int smCount, int blocksPerSm) {
  const std::size_t resident =
      static_cast<std::size_t>(smCount > 0 ? smCount : 1) * (blocksPerSm > 0 ? blocksPerSm : 1);
  const std::size_t perBlock = std::size_t{kSumThreads} * kSumLoadsInFlight * 4;  // ints
  const std::size_t useful = (n + perBlock - 1) / perBlock;
  std::size_t blocks = resident < useful ? resident : useful;
  if (blocks < 1) blocks = 1;
  if (blocks > kMaxSumBlocks) blocks = kMaxSumBlocks;
  return static_cast<unsigned int>(blocks);
}

/**
 * @brief reduceInt4ShuffleBlocks for the current device, from its SM count
 *        and the kernel's occupancy. Call it once per input size, outside
 *        any timed region (it queries the runtime).
 * @return cudaSuccess, or the error of the query (and 0 in @p blocks).
 */
inline cudaError_t reduceInt4ShuffleBlocksHere(std::size_t n, unsigned int* blocks) {
  *blocks = 0;
  int device = 0;
  int smCount = 0;
  int blocksPerSm = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess) {
    err = cudaDeviceGetAttribute(&smCount, cudaDevAttrMultiProcessorCount, device);
  }
  if (err == cudaSuccess) {
    err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocksPerSm, reduceInt4Shuffle,
                                                        kSumThreads, 0);
  }
  if (err == cudaSuccess) *blocks = reduceInt4ShuffleBlocks(n, smCount, blocksPerSm);
  return err;
}

/// Launches reduceInt4Shuffle over in[0, n) with @p blocks blocks (from
/// reduceInt4ShuffleBlocksHere). Launch errors are left for the caller to
/// check.
inline void launchReduceInt4Shuffle(const int* in, std::size_t n, int* total,
                                    const SumScratch& scratch, unsigned int blocks,
                                    cudaStream_t stream = nullptr) {
  reduceInt4Shuffle<<<blocks, kSumThreads, 0, stream>>>(in, n, total, scratch);
}

}  // namespace wb::reduction::beyond
