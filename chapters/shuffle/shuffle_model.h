/**
 * @file shuffle_model.h
 * @brief Book section 5.6: what each warp shuffle delivers to each lane,
 *        evaluated on the host. The tests derive every expected output
 *        permutation from these functions, for a whole warp and for each
 *        width.
 *
 * Pure C++ (no CUDA), so the host tests check the model without a GPU. The
 * contract, shuffle.cuh, includes it.
 *
 * How a shuffle splits a warp: a `width` (a power of two, 2 to 32) cuts the
 * 32 lanes into segments of `width` consecutive lanes; lane L lies in the
 * segment that starts at lane `L - L % width`, at position `L % width`
 * inside it. What each form of `__shfl*_sync` reads, for every lane named in
 * its mask (here: all 32):
 *  - `__shfl_sync(mask, v, srcLane, width)`: the value of position
 *    `srcLane % width` of the caller's own segment (srcLane taken modulo
 *    width, so a source outside the segment wraps around);
 *  - `__shfl_up_sync(mask, v, delta, width)`: position `p - delta` of the
 *    segment; a lane whose `p - delta` would fall before the segment (the
 *    lowest `delta` lanes of each segment) keeps its own value;
 *  - `__shfl_down_sync(mask, v, delta, width)`: position `p + delta`; a lane
 *    whose `p + delta` would pass the end of the segment (the highest
 *    `delta` lanes) keeps its own value;
 *  - `__shfl_xor_sync(mask, v, laneMask, width)`: lane `L ^ laneMask`, when
 *    that lane is not past the end of the caller's segment; otherwise its own
 *    value. With 1 <= laneMask < width, as in every exercise, the partner is
 *    always in the same segment.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace wb::shuffle {

/// Lanes in a warp.
constexpr int kWarpSize = 32;

/// Threads per block of the exchange kernels (four warps). The tests launch
/// kShuffleBlocks blocks of it, so every warp of several blocks is checked.
constexpr int kShuffleBlock = 128;

/// Blocks of an exchange launch in the tests: an odd count, so a kernel that
/// ignores blockIdx or mixes up blocks shows.
constexpr int kShuffleBlocks = 3;

/// Ints each thread holds in a register array in shflXorArray and shflSwap
/// (the book's SEGM).
constexpr int kArrayLength = 4;

/// Ints a thread's double takes in shflDouble: a 64-bit value is two 32-bit
/// words, and the model moves each word as its own element.
constexpr int kIntsPerDouble = 2;

/// Every width the exercises accept, widest first.
constexpr int kWidths[] = {32, 16, 8, 4, 2};

/// True when @p width is one the exercises accept: a power of two from 2 to 32.
constexpr bool isValidWidth(int width) {
  return width >= 2 && width <= kWarpSize && (width & (width - 1)) == 0;
}

/// The first lane of the segment of @p width lanes that holds @p lane.
constexpr int segmentStart(int lane, int width) { return lane - lane % width; }

/// @p x modulo @p width, in [0, width) also for negative x.
constexpr int wrapInto(int x, int width) { return ((x % width) + width) % width; }

/// The lane whose value lane @p lane receives from `__shfl_sync(mask, v,
/// srcLane, width)`: position srcLane modulo width of its own segment.
constexpr int broadcastSource(int lane, int srcLane, int width) {
  return segmentStart(lane, width) + wrapInto(srcLane, width);
}

/// The lane whose value @p lane receives from `__shfl_up_sync(mask, v,
/// delta, width)`: delta lanes lower, or itself for the lowest delta lanes of
/// each segment.
constexpr int upSource(int lane, int delta, int width) {
  return lane % width >= delta ? lane - delta : lane;
}

/// The lane whose value @p lane receives from `__shfl_down_sync(mask, v,
/// delta, width)`: delta lanes higher, or itself for the highest delta lanes
/// of each segment.
constexpr int downSource(int lane, int delta, int width) {
  return lane % width + delta < width ? lane + delta : lane;
}

/// The lane whose value @p lane receives from the book's shift with wrap-
/// around, `__shfl_sync(mask, v, lane + offset, width)` (shflWrap): offset
/// positions further in its segment, counted modulo width, so offset may be
/// negative.
constexpr int wrapSource(int lane, int offset, int width) {
  return segmentStart(lane, width) + wrapInto(lane % width + offset, width);
}

/// The lane whose value @p lane receives from `__shfl_xor_sync(mask, v,
/// laneMask, width)`: lane ^ laneMask, unless that lies past the end of the
/// caller's segment, when it keeps its own value.
constexpr int xorSource(int lane, int laneMask, int width) {
  const int partner = lane ^ laneMask;
  return partner < segmentStart(lane, width) + width ? partner : lane;
}

/// The exchanges of the section, one per exercise kernel.
enum class Exchange {
  Broadcast,  ///< shflBroadcast: every lane gets position srcLane of its segment
  Up,         ///< shflUp: shift up by delta within the segment
  Down,       ///< shflDown: shift down by delta within the segment
  Wrap,       ///< shflWrap: shift by offset with wrap-around within the segment
  Xor,        ///< shflXor: butterfly exchange with lane ^ laneMask
  XorArray,   ///< shflXorArray: the butterfly applied to each of kArrayLength ints
  Swap,       ///< shflSwap: two given lanes of each segment swap one element each
  WrapDouble, ///< shflDouble: shflWrap's shift with wrap-around, on one double per thread
  WrapPlus,   ///< shflWrapPlus: own value plus the one shflWrap receives
  XorPlus,    ///< shflXorPlus: own value plus the butterfly partner's
  XorFirstToLast  ///< shflXorFirstToLast: element 0 of the partner into the last element
};

/// True for the exchanges whose lanes add what they receive to their own
/// value instead of replacing it.
constexpr bool addsOwnValue(Exchange e) {
  return e == Exchange::WrapPlus || e == Exchange::XorPlus;
}

/// True for the exchanges whose threads hold kArrayLength ints, not one.
constexpr bool holdsArray(Exchange e) {
  return e == Exchange::XorArray || e == Exchange::Swap || e == Exchange::XorFirstToLast;
}

/// Ints each thread reads from `in` and writes to `out` under @p e (a double
/// counts as its two 32-bit words).
constexpr int intsPerThread(Exchange e) {
  return holdsArray(e) ? kArrayLength : (e == Exchange::WrapDouble ? kIntsPerDouble : 1);
}

/**
 * @brief The arguments of one exchange launch besides `in` and `out`.
 *
 * `lane` means, by exchange: srcLane (Broadcast), delta (Up, Down), offset
 * (Wrap, WrapDouble), laneMask (Xor, XorArray), firstLane (Swap). The last three are
 * used by Swap alone.
 */
struct ExchangeArgs {
  int width;           ///< segment width: a power of two from 2 to 32
  int lane;            ///< srcLane, delta, offset, laneMask or firstLane (see above)
  int secondLane = 0;  ///< Swap: the other lane of the pair, position in the segment
  int firstIdx = 0;    ///< Swap: the element firstLane gives and receives
  int secondIdx = 0;   ///< Swap: the element secondLane gives and receives
};

/// One element of one lane: where an output element's value comes from.
struct ElementSource {
  int lane;   ///< lane of the same warp
  int index;  ///< element of that lane's array (0 when threads hold one int)
};

/// Whether @p a is a valid argument set for @p e (every exercise's contract
/// in shuffle.cuh states the same ranges).
constexpr bool isValidArgs(Exchange e, const ExchangeArgs& a) {
  if (!isValidWidth(a.width)) return false;
  switch (e) {
    case Exchange::Broadcast:
      return a.lane >= 0 && a.lane < a.width;
    case Exchange::Up:
    case Exchange::Down:
      return a.lane >= 1 && a.lane < a.width;
    case Exchange::Wrap:
    case Exchange::WrapDouble:
    case Exchange::WrapPlus:
      return a.lane > -a.width && a.lane < a.width;
    case Exchange::Xor:
    case Exchange::XorArray:
    case Exchange::XorPlus:
    case Exchange::XorFirstToLast:
      return a.lane >= 1 && a.lane < a.width;
    case Exchange::Swap:
      return a.lane >= 0 && a.lane < a.width && a.secondLane >= 0 && a.secondLane < a.width &&
             a.lane != a.secondLane && a.firstIdx >= 0 && a.firstIdx < kArrayLength &&
             a.secondIdx >= 0 && a.secondIdx < kArrayLength;
  }
  return false;
}

/**
 * @brief Where element @p index of lane @p lane gets its value from after
 *        exchange @p e with arguments @p a.
 *
 * Swap: in each segment, position a.lane (firstLane) receives element
 * a.secondIdx of position a.secondLane into its element a.firstIdx, and
 * position a.secondLane receives element a.firstIdx of position a.lane into
 * its element a.secondIdx; every other element of every lane keeps its value.
 */
constexpr ElementSource elementSource(Exchange e, const ExchangeArgs& a, int lane, int index) {
  switch (e) {
    case Exchange::Broadcast:
      return {broadcastSource(lane, a.lane, a.width), index};
    case Exchange::Up:
      return {upSource(lane, a.lane, a.width), index};
    case Exchange::Down:
      return {downSource(lane, a.lane, a.width), index};
    case Exchange::Wrap:
      return {wrapSource(lane, a.lane, a.width), index};
    case Exchange::WrapPlus:
      return {wrapSource(lane, a.lane, a.width), index};
    case Exchange::XorPlus:
      return {xorSource(lane, a.lane, a.width), index};
    case Exchange::WrapDouble:
      // Both words of the double come from the same lane, each into its own
      // place: a word from the wrong lane, or the halves swapped, shows.
      return {wrapSource(lane, a.lane, a.width), index};
    case Exchange::Xor:
    case Exchange::XorArray:
      return {xorSource(lane, a.lane, a.width), index};
    case Exchange::XorFirstToLast:
      // One shuffle: the partner's element 0 lands in the last element;
      // every other element stays with its own lane.
      return index == kArrayLength - 1 ? ElementSource{xorSource(lane, a.lane, a.width), 0}
                                       : ElementSource{lane, index};
    case Exchange::Swap: {
      const int base = segmentStart(lane, a.width);
      const int position = lane % a.width;
      if (position == a.lane && index == a.firstIdx) return {base + a.secondLane, a.secondIdx};
      if (position == a.secondLane && index == a.secondIdx) return {base + a.lane, a.firstIdx};
      return {lane, index};
    }
  }
  return {lane, index};
}

/**
 * @brief The exact output of exchange @p e over @p input, for a launch of
 *        @p threads threads (whole warps): thread g holds
 *        input[g * k, (g + 1) * k) with k = intsPerThread(e), and writes its
 *        ints after the exchange to the same positions of the output (for
 *        WrapPlus and XorPlus: its own value plus the one it received).
 */
inline std::vector<int> expectedOutput(Exchange e, const ExchangeArgs& a,
                                       const std::vector<int>& input, int threads) {
  const int k = intsPerThread(e);
  std::vector<int> out(static_cast<std::size_t>(threads) * k);
  for (int g = 0; g < threads; ++g) {
    const int warpBase = g - g % kWarpSize;
    for (int i = 0; i < k; ++i) {
      const ElementSource s = elementSource(e, a, g % kWarpSize, i);
      const int received = input[static_cast<std::size_t>(warpBase + s.lane) * k + s.index];
      const int own = input[static_cast<std::size_t>(g) * k + i];
      out[static_cast<std::size_t>(g) * k + i] = addsOwnValue(e) ? own + received : received;
    }
  }
  return out;
}

/**
 * @brief The argument sets the tests run exchange @p e with at @p width:
 *        the edges of each range (the first and the last lane, the smallest
 *        and the largest shift, a negative offset) and a value inside it,
 *        without repeats.
 */
inline std::vector<ExchangeArgs> testArgs(Exchange e, int width) {
  std::vector<ExchangeArgs> all;
  const auto add = [&](ExchangeArgs a) {
    if (!isValidArgs(e, a)) return;
    for (const ExchangeArgs& b : all) {
      if (b.lane == a.lane && b.secondLane == a.secondLane && b.firstIdx == a.firstIdx &&
          b.secondIdx == a.secondIdx) {
        return;
      }
    }
    all.push_back(a);
  };
  const int half = width / 2;
  switch (e) {
    case Exchange::Broadcast:
      for (int src : {0, 1, half, width - 1}) add({width, src});
      break;
    case Exchange::Up:
    case Exchange::Down:
      for (int delta : {1, 2, half, width - 1}) add({width, delta});
      break;
    case Exchange::Wrap:
    case Exchange::WrapDouble:
    case Exchange::WrapPlus:
      for (int offset : {1, -1, 2, -2, half, width - 1, 1 - width}) add({width, offset});
      break;
    case Exchange::Xor:
    case Exchange::XorArray:
    case Exchange::XorPlus:
    case Exchange::XorFirstToLast:
      for (int mask = 1; mask < width; mask *= 2) add({width, mask});
      add({width, width - 1});
      if (width >= 8) add({width, 5});  // two bits, not neighbours
      break;
    case Exchange::Swap:
      add({width, 0, width - 1, 0, kArrayLength - 1});
      add({width, width - 1, 0, 2, 1});
      add({width, half - 1, half, 1, 1});
      add({width, 1, half + 1, 3, 0});
      break;
  }
  return all;
}

}  // namespace wb::shuffle
