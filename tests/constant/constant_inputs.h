// Random inputs for the constant-memory tests, from a seed (wb::testSeed),
// so a failure can be replayed. Pure C++: the host tests check them.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "constant/constant_model.h"

namespace wb::constant::testing {

/**
 * @brief @p n floats with magnitudes in [0.5, 1] and random signs.
 *
 * Bounded away from 0, so that every term of the stencil is large next to
 * the tolerance (stencilTolerance): a missing halo element or a wrong
 * coefficient cannot hide in the rounding.
 */
inline std::vector<float> randomStencilInput(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> magnitude(0.5f, 1.0f);
  std::bernoulli_distribution negative(0.5);
  std::vector<float> input(n);
  for (float& x : input) x = negative(rng) ? -magnitude(rng) : magnitude(rng);
  return input;
}

/// The lookup table: kLookupWords ints in [1, 1000], drawn from @p seed, so
/// that no two reads of different words are likely to add up alike.
inline std::vector<int> randomTable(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> draw(1, 1000);
  std::vector<int> table(kLookupWords);
  for (int& x : table) x = draw(rng);
  return table;
}

/// @p count sizes in [1, @p maxN], log-uniformly spread.
inline std::vector<unsigned int> randomSizes(int count, unsigned int maxN, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> exponent(0.0, std::log2(static_cast<double>(maxN)));
  std::vector<unsigned int> sizes;
  for (int i = 0; i < count; ++i) {
    const double n = std::round(std::exp2(exponent(rng)));
    sizes.push_back(static_cast<unsigned int>(std::clamp(n, 1.0, static_cast<double>(maxN))));
  }
  return sizes;
}

}  // namespace wb::constant::testing
