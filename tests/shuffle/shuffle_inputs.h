// Inputs of the exchange tests, from a seed (wb::testSeed), so a failure can
// be replayed. Pure C++: the host tests check the generator itself.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace wb::shuffle::testing {

/// The smallest value distinctInput() draws: far from 0, from small lane
/// numbers and from the poison word.
constexpr int kFirstValue = 1000;

/**
 * @brief @p n distinct ints, kFirstValue to kFirstValue + n - 1 in an order
 *        drawn from @p seed.
 *
 * Distinct, so every output element names the one input element it came
 * from, and a value that arrived from the wrong lane cannot look right; in
 * random order, so no lane's value can be computed from its index.
 */
inline std::vector<int> distinctInput(std::size_t n, std::uint64_t seed) {
  std::vector<int> values(n);
  std::iota(values.begin(), values.end(), kFirstValue);
  std::mt19937_64 rng(seed);
  std::shuffle(values.begin(), values.end(), rng);
  return values;
}

}  // namespace wb::shuffle::testing
