/**
 * @file shuffle.cuh
 * @brief Book section 5.6, "The Warp Shuffle Instruction": the contract of
 *        the shuffle exercises.
 *
 * Two kinds of kernel.
 *
 * **Exchanges** (5.6.2): each thread reads its value (or its kArrayLength
 * ints) from `in`, exchanges it with the other lanes of its warp through one
 * or more `__shfl*_sync` calls, and writes what it then holds to `out`:
 *  - thread `g = blockIdx.x * blockDim.x + threadIdx.x` reads `in[g]` and
 *    writes `out[g]`; in shflXorArray and shflSwap it reads
 *    `in[g * kArrayLength + i]` into element i of a register array and
 *    writes element i back to `out[g * kArrayLength + i]`;
 *  - the launch is kShuffleBlock (128) threads per block, any number of
 *    blocks, whole warps only; every thread of the grid writes;
 *  - `width` is a power of two from 2 to 32 and is passed to every shuffle;
 *    the lanes of each segment of `width` lanes exchange among themselves;
 *  - every lane of the warp takes part in every shuffle, with the full mask
 *    `0xffffffff`;
 *  - what each lane receives is exactly what shuffle_model.h says
 *    (elementSource), including the lanes that keep their own value when the
 *    source of a shift lies outside their segment; shflWrapPlus and
 *    shflXorPlus write their own value plus what they receive;
 *  - no exchange uses shared memory: the values travel from register to
 *    register.
 *
 * **Reductions** (5.6.3): reduceShfl, reduceShflUnroll and reduceShflDown
 * meet the reduction section's contract (chapters/reduction/reduction.cuh)
 * exactly: the signature `(int* g_idata, int* g_odata, unsigned int n)`,
 * kReduceBlock (128) threads per block, blocksFor(n, unroll) blocks, any n
 * from 1 to 2^26, one partial sum per block in g_odata, g_idata unchanged.
 * Each warp adds its 32 values with shuffles; lane 0 of each warp stores the
 * warp's sum in `__shared__ int smem[kWarpSums]` (4 ints, no more); after a
 * barrier warp 0 adds those with shuffles and thread 0 writes the block's
 * sum. reduceSmemShfl meets the same contract the other way round: the
 * block reduces in reduceSmem's `__shared__ int smem[kReduceBlock]` (128
 * ints, no more) until warp 0 holds 32 partial sums, which it adds with
 * shuffles; thread 0 writes the block's sum. Every thread of the block
 * reaches every barrier, whatever n.
 *
 * Each exercise is one file with the kernel's name under `starter/shuffle/`;
 * shflBroadcast.cu is the worked example.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

#include "common/exercise_kernel.h"
#include "reduction/reduction.cuh"
#include "shuffle_model.h"

namespace wb::shuffle {

/// Warp sums a block of a shuffle reduction keeps in shared memory: one per
/// warp of kReduceBlock threads (the reduction contract's count).
constexpr int kWarpSums = reduction::kReduceWarps;

static_assert(reduction::kReduceBlock % kWarpSize == 0, "reduction blocks are whole warps");
static_assert(kWarpSums <= kWarpSize, "warp 0 adds up one value per warp");
static_assert(kShuffleBlock % kWarpSize == 0, "exchange blocks are whole warps");

/// Every lane keeps the value of position @p srcLane (0 <= srcLane < width)
/// of its segment: `__shfl_sync(0xffffffff, v, srcLane, width)`. The worked
/// example (5.6.2.1).
__global__ void shflBroadcast(const int* in, int* out, int width, int srcLane);
/// Shift up by @p delta (1 <= delta < width) within each segment; the lowest
/// delta lanes of a segment keep their own value (5.6.2.2).
__global__ void shflUp(const int* in, int* out, int width, unsigned int delta);
/// Shift down by @p delta (1 <= delta < width) within each segment; the
/// highest delta lanes of a segment keep their own value (5.6.2.3).
__global__ void shflDown(const int* in, int* out, int width, unsigned int delta);
/// Every lane takes the value @p offset positions further in its segment,
/// counted modulo width (-width < offset < width; negative shifts the other
/// way): a shift with wrap-around (5.6.2.4).
__global__ void shflWrap(const int* in, int* out, int width, int offset);
/// Butterfly exchange: every lane takes the value of lane `lane ^ laneMask`
/// (1 <= laneMask < width) (5.6.2.5).
__global__ void shflXor(const int* in, int* out, int width, int laneMask);
/// shflXor applied to each of the kArrayLength ints a thread holds: element
/// i comes from element i of lane `lane ^ laneMask` (5.6.2.6).
__global__ void shflXorArray(const int* in, int* out, int width, int laneMask);
/// In each segment, positions @p firstLane and @p secondLane (different, both
/// below width) swap one element of their arrays: firstLane's element
/// @p firstIdx and secondLane's element @p secondIdx trade places; every
/// other element of every lane stays (5.6.2.7).
__global__ void shflSwap(const int* in, int* out, int width, int firstLane, int secondLane,
                         int firstIdx, int secondIdx);

/// shflWrap's shift, but every lane writes its own value plus the one it
/// receives: `out[g] = in[g] + in[source]` with shflWrap's source lane
/// (-width < offset < width) (5.6.2.4; the book's end-of-chapter exercise
/// 11).
__global__ void shflWrapPlus(const int* in, int* out, int width, int offset);
/// shflXor's butterfly, but every lane writes its own value plus its
/// partner's: `out[g] = in[g] + in[lane ^ laneMask]` (1 <= laneMask < width),
/// the same sum in both lanes of each pair (5.6.2.5; the book's end-of-chapter
/// exercise 12).
__global__ void shflXorPlus(const int* in, int* out, int width, int laneMask);
/// One shuffle of shflXorArray's arrays: every lane's last element
/// (kArrayLength - 1) becomes element 0 of lane `lane ^ laneMask`
/// (1 <= laneMask < width); its other elements stay as they were (5.6.2.6;
/// the book's end-of-chapter exercise 13).
__global__ void shflXorFirstToLast(const int* in, int* out, int width, int laneMask);
/// shflWrap on doubles: every lane takes the double @p offset positions
/// further in its segment, counted modulo width (-width < offset < width).
/// Thread g reads `in[g]` and writes `out[g]`; the double's 64 bits arrive
/// exactly, both halves from the same lane (5.6.2.4; the book's
/// end-of-chapter exercise 14: a shuffle moves 32 bits, so a double takes
/// two).
__global__ void shflDouble(const double* in, double* out, int width, int offset);

/**
 * @brief The lane whose value `__shfl_up_sync(0xffffffff, v, delta, width)`
 *        returns to @p lane when the caller passes the int @p delta, which
 *        converts to the intrinsic's `unsigned int` parameter (book section
 *        5.6; the book's end-of-chapter exercise 10, a delta of -2; exercise
 *        shflUpSourceLane). A host function: it says what the hardware does.
 *
 * The hardware shifts by the delta's low five bits alone (the PTX ISA,
 * `shfl.sync`: `bval = b[4:0]`; measured on an H100: -2 shifts by 30, -1 by
 * 31, 34 by 2). With that shift s, the source is `lane - s` when
 * `lane % width >= s`, and @p lane itself otherwise.
 * @param lane  the receiving lane, 0 to 31
 * @param delta the delta as the caller writes it: any int, negative too
 * @param width the segment's width, a power of two from 1 to 32
 * @return the source lane, 0 to 31
 * @throws std::invalid_argument when @p lane is not from 0 to 31 or @p width
 *         is not a power of two from 1 to 32; the message names the argument
 *         and says why
 */
int shflUpSourceLane(int lane, int delta, int width);

/// The block's 128 elements added by warp shuffles, the four warp sums in
/// `__shared__ int smem[kWarpSums]`, warp 0 adding those (5.6.3).
__global__ void reduceShfl(int* g_idata, int* g_odata, unsigned int n);
/// reduceShfl after each thread has added four elements one block apart, as
/// in reduceSmemUnroll (5.6.3).
__global__ void reduceShflUnroll(int* g_idata, int* g_odata, unsigned int n);
/// reduceShfl with each warp's sum made by `__shfl_down_sync` (offsets 16, 8,
/// 4, 2, 1), not by the butterfly: the sum gathers in lane 0 alone, the lane
/// that stores it (5.6.3; the book's end-of-chapter exercise 15). Same
/// contract as reduceShfl.
__global__ void reduceShflDown(int* g_idata, int* g_odata, unsigned int n);
/// reduceSmem's tree in `__shared__ int smem[kReduceBlock]`: rounds that
/// halve the partial sums with the whole block, a barrier after each, until
/// warp 0 can take 32 of them (adding the last pairs as it loads them is one
/// way); warp 0 adds those 32 in registers with five shuffle steps (the
/// butterfly or shifts down) instead of reduceSmem's shared-memory steps,
/// and thread 0 writes the block's sum (5.6.3). No shuffle before the tree:
/// the warps' values meet in shared memory first.
__global__ void reduceSmemShfl(int* g_idata, int* g_odata, unsigned int n);

/// One exchange kernel and what a test or a runner needs to know about it.
struct ExchangeKernel {
  const char* exercise;     ///< kernel name, also the exercise's file name (without .cu)
  Exchange exchange;        ///< what it does (shuffle_model.h)
  const char* parameters;   ///< its parameter list as the demangler writes it
  const char* bookSection;  ///< where the book discusses it

  /// The kernel, from the exercise's compiled module (exercise_kernel.h).
  const void* function() const {
    const std::string signature = std::string("wb::shuffle::") + exercise + parameters;
    return exerciseKernel("shuffle", exercise, signature.c_str());
  }
  /// Ints each thread reads and writes.
  int intsPerThread() const { return shuffle::intsPerThread(exchange); }
};

/// Every exchange kernel, in the order the book presents them.
inline const std::vector<ExchangeKernel>& exchangeKernels() {
  using E = Exchange;
  static const std::vector<ExchangeKernel> all = {
      // exercise, exchange, parameters, book section
      {"shflBroadcast", E::Broadcast, "(int const*, int*, int, int)", "5.6.2.1"},
      {"shflUp", E::Up, "(int const*, int*, int, unsigned int)", "5.6.2.2"},
      {"shflDown", E::Down, "(int const*, int*, int, unsigned int)", "5.6.2.3"},
      {"shflWrap", E::Wrap, "(int const*, int*, int, int)", "5.6.2.4"},
      {"shflXor", E::Xor, "(int const*, int*, int, int)", "5.6.2.5"},
      {"shflXorArray", E::XorArray, "(int const*, int*, int, int)", "5.6.2.6"},
      {"shflSwap", E::Swap, "(int const*, int*, int, int, int, int, int)", "5.6.2.7"},
      {"shflDouble", E::WrapDouble, "(double const*, double*, int, int)", "5.6.2.4"},
      {"shflWrapPlus", E::WrapPlus, "(int const*, int*, int, int)", "5.6.2.4"},
      {"shflXorPlus", E::XorPlus, "(int const*, int*, int, int)", "5.6.2.5"},
      {"shflXorFirstToLast", E::XorFirstToLast, "(int const*, int*, int, int)", "5.6.2.6"},
  };
  return all;
}

/// Finds an exchange kernel by exercise name; nullptr when unknown.
inline const ExchangeKernel* findExchangeKernel(const std::string& exercise) {
  for (const auto& k : exchangeKernels()) {
    if (exercise == k.exercise) return &k;
  }
  return nullptr;
}

/// The section's reductions, under the reduction contract: launch them with
/// wb::reduction::launch and check them with the reduction tests' routines.
/// (`shared` says WarpSums for the kernels that keep one sum per warp,
/// Static for reduceSmemShfl, which keeps reduceSmem's array.)
inline const std::vector<reduction::ReduceKernel>& shuffleReductionKernels() {
  using S = reduction::SharedArray;
  constexpr int kU = reduction::kUnrollFactor;
  static const std::vector<reduction::ReduceKernel> all = {
      // exercise, unroll, inPlace, shared array, book section, section
      {"reduceShfl", 1, false, S::WarpSums, "5.6.3", "shuffle"},
      {"reduceShflUnroll", kU, false, S::WarpSums, "5.6.3", "shuffle"},
      {"reduceShflDown", 1, false, S::WarpSums, "5.6.3", "shuffle"},
      {"reduceSmemShfl", 1, false, S::Static, "5.6.3", "shuffle"},
  };
  return all;
}

/// Finds a shuffle reduction by exercise name; nullptr when unknown.
inline const reduction::ReduceKernel* findShuffleReduction(const std::string& exercise) {
  for (const auto& k : shuffleReductionKernels()) {
    if (exercise == k.exercise) return &k;
  }
  return nullptr;
}

/// Launches exchange @p k with arguments @p a over @p blocks blocks of
/// kShuffleBlock threads: @p in and @p out hold blocks * kShuffleBlock *
/// k.intsPerThread() ints (shflDouble reads them as doubles: two ints each,
/// 8-byte aligned). Launch errors are left for the caller to check.
inline void launch(const ExchangeKernel& k, const int* in, int* out, const ExchangeArgs& a,
                   int blocks, cudaStream_t stream = nullptr) {
  const void* f = k.function();
  const dim3 grid(blocks), block(kShuffleBlock);
  switch (k.exchange) {
    case Exchange::Up:
    case Exchange::Down:
      launchKernel(f, grid, block, 0, stream, in, out, a.width,
                   static_cast<unsigned int>(a.lane));
      break;
    case Exchange::Swap:
      launchKernel(f, grid, block, 0, stream, in, out, a.width, a.lane, a.secondLane,
                   a.firstIdx, a.secondIdx);
      break;
    case Exchange::WrapDouble:
      launchKernel(f, grid, block, 0, stream, reinterpret_cast<const double*>(in),
                   reinterpret_cast<double*>(out), a.width, a.lane);
      break;
    default:
      launchKernel(f, grid, block, 0, stream, in, out, a.width, a.lane);
      break;
  }
}

}  // namespace wb::shuffle
