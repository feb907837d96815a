/**
 * @file reduction_model.h
 * @brief Book section 5.3: the arithmetic of the reduction contract,
 *        evaluated on the host: the block size, which input elements each
 *        block sums, how many blocks a launch needs, why int32 sums are
 *        exact, and the 64-bit reference partial sums the tests compare with.
 *
 * Pure C++ (no CUDA), so the host tests check it without a GPU. The kernels'
 * contract, reduction.cuh, includes it.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace wb::reduction {

/// Threads per block of every reduction kernel: the book's DIM. The kernels
/// spell out their reduction steps for exactly this many threads: one step
/// with the whole block (128 -> 64 partial sums), then six steps inside
/// warp 0 (64 -> 1).
constexpr int kReduceBlock = 128;

/// Input elements each thread of an unrolled kernel adds before the block
/// reduces (book section 5.3.2): elements tid, tid + 128, tid + 256 and
/// tid + 384 of its block's span.
constexpr int kUnrollFactor = 4;

/// Test inputs are ints in [-kInputMagnitude, kInputMagnitude].
constexpr int kInputMagnitude = 16;

/// The longest input whose every partial sum and total is exact in int32,
/// whatever its values: 2^26 elements of magnitude at most 16 add up to at
/// most 2^30 in magnitude, below INT32_MAX (2^31 - 1). Kernels sum in int32,
/// the reference in int64, so the tests can demand equality.
constexpr std::size_t kMaxExactElements = std::size_t{1} << 26;

static_assert(kInputMagnitude * kMaxExactElements <=
                  static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()),
              "bounded inputs of the longest allowed length must not overflow int32");

/// The block sizes a kernel written for any block size must handle (the
/// book's exercise 8 times 64, 128, 512 and 1024): every power of two from
/// two warps to the 1024 threads a block may hold. Fewer than 64 threads
/// would leave the warp steps (64 -> 1) more partial sums than there are.
constexpr int kAnyBlockSizes[] = {64, 128, 256, 512, 1024};

/// Input elements one block of @p threads threads reduces when each thread
/// first adds @p unroll of them: its span. Block b sums elements
/// [b * span, (b + 1) * span) that are below n.
constexpr unsigned int elementsPerBlock(int unroll, int threads = kReduceBlock) {
  return static_cast<unsigned int>(threads * unroll);
}

/// Blocks a launch over @p n elements needs: ceil(n / span), written so that
/// it cannot overflow for any unsigned n.
constexpr unsigned int blocksFor(unsigned int n, int unroll, int threads = kReduceBlock) {
  const unsigned int span = elementsPerBlock(unroll, threads);
  return n / span + (n % span != 0 ? 1u : 0u);
}

/**
 * @brief The exact partial sums a launch must write: element b is the sum of
 *        input[b * span, (b + 1) * span), the last span cut off at the end of
 *        the input. Summed in 64 bits, so the reference itself cannot
 *        overflow.
 * @param input the whole input, n = input.size() elements
 * @param span  elements per block, elementsPerBlock(unroll)
 */
inline std::vector<std::int64_t> referencePartialSums(const std::vector<int>& input,
                                                      unsigned int span) {
  std::vector<std::int64_t> partials((input.size() + span - 1) / span, 0);
  for (std::size_t i = 0; i < input.size(); ++i) partials[i / span] += input[i];
  return partials;
}

}  // namespace wb::reduction
