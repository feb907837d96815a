// Random inputs and random input sizes for the reduction tests, from a seed
// (wb::testSeed), so a failure can be replayed. Pure C++: the host tests
// check the generators themselves.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "reduction/reduction_model.h"

namespace wb::reduction::testing {

/**
 * @brief @p n ints drawn uniformly from [-kInputMagnitude, kInputMagnitude]
 *        without 0 and 1.
 *
 * Bounded, so that every int32 sum of up to kMaxExactElements of them is
 * exact. No 0 and no 1, so that no input is all zeros or all ones: a
 * one-element block then sums to a value that neither an untouched zero nor
 * an element count can imitate.
 */
inline std::vector<int> randomInput(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  // 31 values: -16..-1 stay, 0..14 are shifted to 2..16.
  std::uniform_int_distribution<int> draw(-kInputMagnitude, kInputMagnitude - 2);
  std::vector<int> input(n);
  for (int& x : input) {
    const int d = draw(rng);
    x = d < 0 ? d : d + 2;
  }
  return input;
}

/// @p count input sizes in [1, @p maxN], log-uniformly spread, so that short
/// inputs (one partial block) are as likely as long ones.
inline std::vector<unsigned int> randomSizes(int count, unsigned int maxN, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> exponent(0.0, std::log2(static_cast<double>(maxN)));
  std::vector<unsigned int> sizes;
  sizes.reserve(count);
  for (int i = 0; i < count; ++i) {
    const double n = std::round(std::exp2(exponent(rng)));
    sizes.push_back(static_cast<unsigned int>(std::clamp(n, 1.0, static_cast<double>(maxN))));
  }
  return sizes;
}

}  // namespace wb::reduction::testing
