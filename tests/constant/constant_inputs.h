// Random inputs for the constant-memory tests, from a seed (wb::testSeed),
// so a failure can be replayed. Pure C++: the host tests check them.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
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

/**
 * @brief The coefficients a correctness test hands a stencil: each of
 *        kCoefficients times a factor in [0.5, 2], drawn from @p input's
 *        bits, so the same input gets the same coefficients (a failure
 *        replays with its seed) and no two inputs are likely to share them.
 *
 * The contract says where a kernel takes its coefficients from, not their
 * values; a kernel that writes the book's values into its code instead
 * computes the stencil of other coefficients than the ones it was given.
 * The factors keep every term far from the tolerance, as the book's values
 * are (stencilTolerance: a term of |a4| * 0.5 times 0.5 is still some 100
 * times the bound).
 */
inline std::array<float, kRadius> coefficientsFor(const std::vector<float>& input) {
  std::uint64_t hash = 1469598103934665603ULL;  // FNV-1a over the input's bits
  for (const float x : input) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &x, sizeof bits);
    hash = (hash ^ bits) * 1099511628211ULL;
  }
  std::mt19937_64 rng(hash);
  std::uniform_real_distribution<float> factor(0.5f, 2.0f);
  std::array<float, kRadius> coef{};
  for (int k = 0; k < kRadius; ++k) coef[k] = kCoefficients[k] * factor(rng);
  return coef;
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
