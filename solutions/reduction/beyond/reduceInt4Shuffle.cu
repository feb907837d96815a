// Beyond book section 5.3: the int32 sum at the speed of device memory. See
// chapters/reduction/beyond.cuh for what it adds over the chapter's kernels.
//
// Shape of one launch:
//   1. every thread adds its share of the input in a register: the ragged
//      ints at either end (at most three each) and then int4 vectors, one
//      grid-stride apart, kSumLoadsInFlight loads at a time;
//   2. each warp adds its 32 registers with shuffles, each block its warps'
//      sums, and thread 0 publishes the block's sum;
//   3. the last block to publish adds up every block's sum and writes it.
#include <cstdint>

#include "reduction/beyond.cuh"

namespace wb::reduction::beyond {
namespace {

constexpr int kWarpSize = 32;
constexpr int kWarps = kSumThreads / kWarpSize;
static_assert(kSumThreads % kWarpSize == 0, "whole warps only");
static_assert(kWarps <= kWarpSize, "warp 0 adds up one value per warp");

/// The sum of @p value over the 32 lanes of the calling warp, in lane 0
/// (other lanes hold partial sums). Every lane must call it: the shuffle
/// names all 32 lanes in its mask.
__device__ __forceinline__ int warpSum(int value) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    value += __shfl_down_sync(0xffffffffu, value, offset);
  }
  return value;
}

/// The sum of @p value over the block, in thread 0. Every thread must call
/// it (it holds a barrier). @p warpSums is kWarps ints of shared memory that
/// no thread may touch between this call and the barrier before it.
__device__ __forceinline__ int blockSum(int value, int* warpSums) {
  const unsigned int lane = threadIdx.x % kWarpSize;
  const unsigned int warp = threadIdx.x / kWarpSize;
  value = warpSum(value);
  if (lane == 0) warpSums[warp] = value;
  __syncthreads();
  if (warp == 0) value = warpSum(lane < kWarps ? warpSums[lane] : 0);
  return value;
}

/// The four ints of a vector, added in two independent pairs.
__device__ __forceinline__ int lanesSum(const int4& v) { return (v.x + v.y) + (v.z + v.w); }

}  // namespace

__global__ void __launch_bounds__(kSumThreads)
    reduceInt4Shuffle(const int* __restrict__ in, std::size_t n, int* __restrict__ total,
                      SumScratch scratch) {
  __shared__ int warpSums[kWarps];
  __shared__ bool lastBlock;

  // Split [0, n) into a head before the first 16-byte boundary, whole int4
  // vectors, and a tail of fewer than four ints. An int* is 4-byte aligned,
  // so the head is 0 to 3 ints (fewer if n is smaller).
  const std::size_t intsPastBoundary = (reinterpret_cast<std::uintptr_t>(in) % 16) / sizeof(int);
  const std::size_t headWanted = intsPastBoundary == 0 ? 0 : 4 - intsPastBoundary;
  const std::size_t head = headWanted < n ? headWanted : n;
  const int4* vectors = reinterpret_cast<const int4*>(in + head);  // 16-byte aligned
  const std::size_t vectorCount = (n - head) / 4;
  const std::size_t tailStart = head + 4 * vectorCount;
  const std::size_t tailCount = n - tailStart;

  const std::size_t stride = std::size_t{gridDim.x} * kSumThreads;
  const std::size_t thread = std::size_t{blockIdx.x} * kSumThreads + threadIdx.x;

  int sum = 0;
  // Whole rounds first: kSumLoadsInFlight independent 16-byte loads are
  // issued before the first add waits for its data. __ldg: the input is
  // read-only for the whole launch (the compiler cannot prove it, as the
  // block sums are written through another pointer).
  std::size_t i = thread;
  for (; i + (kSumLoadsInFlight - 1) * stride < vectorCount; i += kSumLoadsInFlight * stride) {
    int4 v[kSumLoadsInFlight];
#pragma unroll
    for (int k = 0; k < kSumLoadsInFlight; ++k) v[k] = __ldg(&vectors[i + k * stride]);
#pragma unroll
    for (int k = 0; k < kSumLoadsInFlight; ++k) sum += lanesSum(v[k]);
  }
  // The last, partial round: fewer than kSumLoadsInFlight vectors each.
  for (; i < vectorCount; i += stride) sum += lanesSum(__ldg(&vectors[i]));
  // The ragged ends, one int per thread; the grid has far more than three.
  if (thread < head) sum += in[thread];
  if (thread < tailCount) sum += in[tailStart + thread];

  sum = blockSum(sum, warpSums);

  // Publish the block's sum, then take a ticket. The fence orders the two:
  // whichever block draws the last ticket sees every sum published before
  // it. The last block's own fence after the atomic makes those sums
  // visible to it before it reads them (acquire), and the barrier below
  // passes that on to the rest of the block.
  if (threadIdx.x == 0) {
    scratch.blockSums[blockIdx.x] = sum;
    __threadfence();
    const unsigned int ticket = atomicAdd(scratch.blocksDone, 1u);
    lastBlock = ticket == gridDim.x - 1;
    if (lastBlock) __threadfence();
  }
  __syncthreads();
  if (!lastBlock) return;  // the whole block leaves together: no barrier is skipped

  // The last block: add every block's sum. __ldcg reads from L2, where the
  // other blocks' stores are, never from a stale line of this SM's L1.
  int grandTotal = 0;
  for (unsigned int b = threadIdx.x; b < gridDim.x; b += kSumThreads) {
    grandTotal += __ldcg(&scratch.blockSums[b]);
  }
  // warpSums is free again: warp 0 read it before the barrier above.
  grandTotal = blockSum(grandTotal, warpSums);
  if (threadIdx.x == 0) {
    *total = grandTotal;
    *scratch.blocksDone = 0;  // every other block has taken its ticket
  }
}

}  // namespace wb::reduction::beyond
