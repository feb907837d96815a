/**
 * @file shared_poison.h
 * @brief Filling every SM's shared memory with a known word before a
 *        correctness launch, so a kernel that reads shared memory no thread
 *        of its own launch wrote reads that word at every size.
 *
 * Shared memory is not cleared between kernels: a block that reads a word
 * nobody in its launch wrote gets whatever an earlier kernel or block left
 * there, which may be zero, or even the right value, by luck. The checks
 * launch wb::poisonSharedMemory just before the exercise's kernel; its blocks
 * take the whole shared memory of every SM and fill it with
 * kSharedPoisonWord, so what the exercise's first blocks find unwritten is
 * that word (later blocks of a large launch find what earlier blocks of the
 * same launch left, which is as wrong). Nothing guarantees that the hardware
 * hands the same words to the next kernel, so the poison makes the bug
 * likely to show, not certain; the tests measured on an H100 are quoted in
 * the reduction notes.
 */
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

namespace wb {

/// The word written over shared memory before each correctness launch:
/// a quiet NaN as a float, 2143354862 as an int, and unlike the output
/// buffers' poison (kPoisonWord), so the two are told apart.
constexpr std::uint32_t kSharedPoisonWord = 0x7FC0FFEEu;

/// Fills all shared memory of every SM with kSharedPoisonWord, on @p stream,
/// before the next launch there. Throws wb::CudaError when it fails.
void poisonSharedMemory(cudaStream_t stream = nullptr);

/**
 * @brief How many shared-memory poison words the wrong value @p actual
 *        holds in place of @p expected: 1 to 1024 when `actual - expected`
 *        is that many kSharedPoisonWord (modulo 2^32, as an int sum wraps),
 *        1 when @p actual is the word itself, 0 otherwise. For floats: 1 when @p actual is a NaN and @p expected
 *        is not (a sum with a poison word is NaN).
 */
template <class T>
int sharedPoisonCount(T actual, T expected) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::isnan(actual) && !std::isnan(expected) ? 1 : 0;
  } else if constexpr (std::is_integral_v<T>) {
    if (static_cast<std::uint32_t>(actual) == kSharedPoisonWord) return 1;  // copied as it is
    const auto diff = static_cast<std::uint32_t>(static_cast<std::uint64_t>(actual) -
                                                 static_cast<std::uint64_t>(expected));
    std::uint32_t multiple = 0;
    for (int k = 1; k <= 1024; ++k) {
      multiple += kSharedPoisonWord;
      if (multiple == diff) return k;
    }
    return 0;
  } else {
    return 0;
  }
}

/// The hint printed under a mismatch that holds shared-memory poison.
inline std::string sharedPoisonHint() {
  return "a wrong value holds the shared-memory poison word (0x7FC0FFEE, NaN as a float) "
         "that the test writes over shared memory before each launch: the kernel most likely "
         "read shared memory that no thread of this launch wrote (a missing __syncthreads(), "
         "a thread that returned before the barrier, or an index past what was stored)";
}

}  // namespace wb
