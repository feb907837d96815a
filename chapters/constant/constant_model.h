/**
 * @file constant_model.h
 * @brief The arithmetic of book section 5.5 that the host checks: the
 *        stencil's coefficients, block and halo sizes, the reference
 *        stencil with its error bound, and the model of how many passes the
 *        constant cache needs for one warp's request. Pure C++: the host
 *        tests run it without a GPU.
 */
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/wb_defs.h"

namespace wb::constant {

/// Radius of the stencil: out[i] reads in[i - 4] to in[i + 4].
inline constexpr int kRadius = 4;
/// Threads per block of every stencil kernel; a block computes this many
/// outputs.
inline constexpr unsigned int kStencilBlock = 256;
/// Floats in a block's shared array: its outputs' inputs plus a halo of
/// kRadius on each side.
inline constexpr unsigned int kStencilSmem = kStencilBlock + 2 * kRadius;

/**
 * The coefficients a1..a4 of the centred finite difference of eighth order
 * for the first derivative (unit spacing):
 * f'(x) ~ sum_k a_k (f(x + k) - f(x - k)). They follow from the Taylor
 * series of f(x + k) - f(x - k), which has only odd powers; asking the four
 * terms to cancel h^3, h^5 and h^7 and keep h gives a1 = 4/5, a2 = -1/5,
 * a3 = 4/105, a4 = -1/280. The book's listing writes them rounded to five
 * decimals (0.8, -0.2, 0.03809, -0.00357); the workbook uses the fractions
 * rounded once, to float. a0, the centre's coefficient, is 0.
 */
inline constexpr std::array<float, kRadius> kCoefficients = {
    static_cast<float>(4.0 / 5.0), static_cast<float>(-1.0 / 5.0),
    static_cast<float>(4.0 / 105.0), static_cast<float>(-1.0 / 280.0)};

/// Blocks of kStencilBlock threads for @p n outputs.
WB_HD constexpr unsigned int stencilBlocksFor(unsigned int n) {
  return (n + kStencilBlock - 1) / kStencilBlock;
}

/// The contract's boundary condition: elements outside [0, n) read as 0.
inline double elementOrZero(const std::vector<float>& in, long long i) {
  return i >= 0 && i < static_cast<long long>(in.size()) ? static_cast<double>(in[i]) : 0.0;
}

/// The stencil on the host, in double: out[i] = sum_k a_k (in[i+k] - in[i-k])
/// with the float coefficients @p coef, elements outside [0, n) reading 0.
inline std::vector<double> referenceStencil(const std::vector<float>& in,
                                            const std::array<float, kRadius>& coef = kCoefficients) {
  std::vector<double> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    double sum = 0.0;
    for (int k = 1; k <= kRadius; ++k) {
      const auto at = static_cast<long long>(i);
      sum += static_cast<double>(coef[k - 1]) * (elementOrZero(in, at + k) - elementOrZero(in, at - k));
    }
    out[i] = sum;
  }
  return out;
}

/**
 * @brief How far a float kernel's out[i] may be from the double reference.
 *
 * A kernel computes four differences, four products and three sums in
 * float (or fuses a product and a sum into an FMA), in any order. Each
 * operation rounds once, with a relative error of at most 2^-24; an error
 * made early is carried through at most eight later operations, so the
 * total is below about 9 * 2^-24 (5.4e-7) times the sum of the magnitudes
 * of the terms, S = sum_k |a_k| (|in[i+k]| + |in[i-k]|). The bound allowed
 * is 4e-6 * S, seven times that, plus 1e-30 so that a zero S allows an
 * exact zero only. Any real mistake (a missing term, a wrong coefficient, a
 * halo element read as 0) changes out[i] by a whole term, |a_4| * |in| or
 * more; with the tests' inputs between 0.5 and 1 in magnitude, S is at most
 * 2.1 and a term at least 1.7e-3, over 8e-4 * S: some 200 times the bound.
 */
inline double stencilTolerance(const std::vector<float>& in, std::size_t i,
                               const std::array<float, kRadius>& coef = kCoefficients) {
  double magnitude = 0.0;
  const auto at = static_cast<long long>(i);
  for (int k = 1; k <= kRadius; ++k) {
    magnitude += std::fabs(static_cast<double>(coef[k - 1])) *
                 (std::fabs(elementOrZero(in, at + k)) + std::fabs(elementOrZero(in, at - k)));
  }
  return 4e-6 * magnitude + 1e-30;
}

// ---------------------------------------------------------------------------
// When constant memory serialises (book 5.5): a warp's request for constant
// memory is served at the full rate when every lane reads the same word (a
// broadcast); lanes asking for k different words are served one word after
// another, k passes.

/// Ints in the lookup table in constant memory (4 KiB).
inline constexpr unsigned int kLookupWords = 1024;
/// Table reads each thread of the lookup kernels makes.
inline constexpr unsigned int kLookupReads = 64;
/// Threads per block of the lookup kernels.
inline constexpr unsigned int kLookupBlock = 256;
/// Warp width, as the constant cache sees it.
inline constexpr int kWarpLanes = 32;

/// Blocks of kLookupBlock threads for @p n outputs.
WB_HD constexpr unsigned int lookupBlocksFor(unsigned int n) {
  return (n + kLookupBlock - 1) / kLookupBlock;
}

/**
 * @brief The table word that read @p r (0 to kLookupReads - 1) of a thread
 *        in lane @p lane reads, for a launch with @p start and @p distinct
 *        (0 for the broadcast kernel, which has no lane term).
 *
 * Broadcast: (start + r) mod kLookupWords, the same word for every lane.
 * Scattered: (start + r + lane mod distinct) mod kLookupWords, so the lanes
 * of a warp read min(distinct, 32) different words at every read.
 */
WB_HD constexpr unsigned int lookupWord(unsigned int start, unsigned int r, unsigned int lane,
                                        unsigned int distinct) {
  const unsigned int spread = distinct == 0 ? 0u : lane % distinct;
  return (start + r + spread) % kLookupWords;
}

/// What thread @p g of a lookup launch writes: the sum of its kLookupReads
/// table words (lanes are g mod 32, as blocks are multiples of a warp).
inline std::int64_t referenceLookup(const std::vector<int>& table, unsigned int g,
                                    unsigned int start, unsigned int distinct) {
  std::int64_t sum = 0;
  for (unsigned int r = 0; r < kLookupReads; ++r) {
    sum += table[lookupWord(start, r, g % kWarpLanes, distinct)];
  }
  return sum;
}

/// The table words one warp's request asks for, one per lane.
using WarpWords = std::array<unsigned int, kWarpLanes>;

/**
 * @brief Passes the constant cache needs to serve one warp's request: the
 *        number of distinct words the active lanes ask for (lanes asking
 *        for the same word share it). 1 is a broadcast, 0 means no lane is
 *        active.
 */
constexpr int constantPasses(const WarpWords& word, std::uint32_t activeMask = 0xffffffffu) {
  int distinct = 0;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    if (!((activeMask >> lane) & 1u)) continue;
    bool seen = false;
    for (int earlier = 0; earlier < lane; ++earlier) {
      if (((activeMask >> earlier) & 1u) && word[earlier] == word[lane]) {
        seen = true;
        break;
      }
    }
    if (!seen) ++distinct;
  }
  return distinct;
}

/// The passes per request that a full warp of a lookup launch with
/// @p distinct (0: the broadcast kernel) needs at read @p r.
constexpr int lookupPasses(unsigned int start, unsigned int r, unsigned int distinct) {
  WarpWords words{};
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    words[lane] = lookupWord(start, r, static_cast<unsigned int>(lane), distinct);
  }
  return constantPasses(words);
}

}  // namespace wb::constant
