/**
 * @file bank_model.h
 * @brief A host-side model of how shared-memory banks serve one warp.
 *
 * Shared memory on compute capability 7.5 and newer is split into 32 banks,
 * each 4 bytes wide: the 4-byte word at byte address `a` lives in bank
 * `(a / 4) % 32`. A warp's request is served in one pass ("wavefront") when
 * every bank is asked for at most one distinct word; threads reading the same
 * word share it (a broadcast). Otherwise the hardware splits the request, and
 * the number of passes is the largest number of distinct words any one bank
 * is asked for. That number is the "way" of the conflict: 1-way means no
 * conflict, 32-way means the whole warp queues on one bank.
 *
 * Nsight Compute reports the same quantity as shared-memory wavefronts per
 * request (see the metrics page of the docs); the profile tests compare the
 * two, so this model, the measurement and the docs cannot drift apart.
 */
#pragma once

#include <array>
#include <cstdint>

namespace wb::bank {

constexpr int kNumBanks = 32;  ///< banks per streaming multiprocessor
constexpr int kBankBytes = 4;  ///< width of one bank
constexpr int kWarpSize = 32;  ///< threads per warp

/// The bank that holds the 4-byte word at @p byteAddress.
constexpr int bankOf(std::int64_t byteAddress) {
  return static_cast<int>((byteAddress / kBankBytes) % kNumBanks);
}

/// The byte addresses one warp touches, one per lane.
using WarpAddresses = std::array<std::int64_t, kWarpSize>;

/**
 * @brief Passes (wavefronts) the hardware needs to serve one warp's 4-byte
 *        shared-memory accesses.
 * @param byteAddress the address each lane touches (4-byte aligned).
 * @param activeMask  lanes that take part; inactive lanes are ignored.
 * @return 1 for a conflict-free access, N for an N-way bank conflict, 0 when
 *         no lane is active.
 */
constexpr int conflictWays(const WarpAddresses& byteAddress,
                           std::uint32_t activeMask = 0xffffffffu) {
  int ways = 0;
  for (int bank = 0; bank < kNumBanks; ++bank) {
    // Count the distinct words asked of this bank; repeats are broadcasts.
    int distinct = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (!((activeMask >> lane) & 1u) || bankOf(byteAddress[lane]) != bank) continue;
      const std::int64_t word = byteAddress[lane] / kBankBytes;
      bool seen = false;
      for (int earlier = 0; earlier < lane; ++earlier) {
        if (((activeMask >> earlier) & 1u) && byteAddress[earlier] / kBankBytes == word) {
          seen = true;
          break;
        }
      }
      if (!seen) ++distinct;
    }
    if (distinct > ways) ways = distinct;
  }
  return ways;
}

}  // namespace wb::bank
