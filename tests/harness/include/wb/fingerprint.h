// The fingerprint of a kernel's output: what the performance tests compare
// every timed run with, so that no expected output sits in device memory
// while student kernels run. Device code can read any buffer of its context;
// a kernel that found an expected output there could copy it instead of
// doing its work, and a copy is as fast as a stencil or a tile. A 64-bit
// fingerprint kept on the host gives it nothing to copy.
//
// The fingerprint of n elements is the sum, modulo 2^64, of one term per
// element, mixed from its index and its bits (SplitMix64's finaliser, a
// bijection): one element changed anywhere always changes the sum, and
// several changed cancel out only by a construction that needs the very
// output it replaces. Bits, not ==: a float output must repeat its checked
// output bit for bit, and a poisoned (NaN) element differs from everything.
// The host and the device compute the same terms (fingerprintTerm is
// WB_HD), so an expected output can be fingerprinted on the host and never
// leave it.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "common/wb_defs.h"

namespace wb::perf {

/// Mixed into every term, so that an element of index 0 and bits 0 does not
/// add 0.
inline constexpr std::uint64_t kFingerprintKey = 0x5bd1e9955bd1e995ull;

/// The term of element @p index (below 2^32) whose 32 bits are @p bits: a
/// different term for every index and bits.
WB_HD inline std::uint64_t fingerprintTerm(std::uint64_t index, std::uint32_t bits) {
  std::uint64_t z = kFingerprintKey ^ ((index << 32) | bits);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// fingerprintTerm of element @p index holding @p value (a 32-bit int or
/// float), on the host: what one element adds, so that a fingerprint can
/// follow a change of one element.
template <class T>
std::uint64_t fingerprintTermOf(std::uint64_t index, T value) {
  static_assert(sizeof(T) == sizeof(std::uint32_t), "fingerprints are of 32-bit elements");
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return fingerprintTerm(index, bits);
}

/// The fingerprint of @p values, computed on the host.
template <class T>
std::uint64_t fingerprintOnHost(const std::vector<T>& values) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < values.size(); ++i) sum += fingerprintTermOf(i, values[i]);
  return sum;
}

}  // namespace wb::perf
