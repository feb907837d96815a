/**
 * @file config.cuh
 * @brief Book section 5.1, "Introducing CUDA Shared Memory": the contract of
 *        the shared-memory configuration exercises.
 *
 * Every exercise here is a host function (kind "host" in workbook.toml),
 * compiled as plain C++ and linked into its own test executable. Three of
 * them call the CUDA runtime to configure a kernel that the tests own and
 * pass in as `const void*` (the address of its host stub, as
 * `cudaFuncSetAttribute` takes it); two are pure functions:
 *  - sharedMemoryLimits() reads a device's shared-memory attributes (the
 *    worked example);
 *  - preferSharedCarveout() sets a kernel's preferred split of the unified
 *    L1/shared storage (the carveout, Volta and newer);
 *  - optInDynamicShared() lets a kernel launch with more than 48 KB of
 *    dynamic shared memory;
 *  - blocksPerSmLimitedByShared() computes how many blocks fit on one SM
 *    when shared memory is the only limit;
 *  - keplerCachePreference() chooses among the book's four cache
 *    preferences (cudaFuncSetCacheConfig) for a kernel on a Kepler GPU.
 *
 * The tests judge the effect, never the function's own report: after the
 * call they read the kernel's attributes back (cudaFuncGetAttributes), launch
 * it, and ask the runtime's occupancy API (cudaOccupancyMaxActiveBlocksPerMultiprocessor).
 *
 * The bank-size configuration of the book (cudaDeviceSetSharedMemConfig,
 * cudaFuncSetSharedMemConfig) has no exercise: since Maxwell every bank is
 * four bytes wide and those calls change nothing (chapters/config/notes.md,
 * docs/errata.md).
 */
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace wb::config {

/// The shared memory a block may use without opting in: 48 KB on every GPU
/// since Fermi (cudaDevAttrMaxSharedMemoryPerBlock).
inline constexpr std::size_t kDefaultSharedPerBlock = 48 * 1024;

/**
 * @brief What a device offers in shared memory, as the occupancy arithmetic
 *        needs it.
 */
struct SharedMemoryLimits {
  int computeMajor = 0;  ///< compute capability, major (7 = Volta/Turing, 8 = Ampere, 9 = Hopper)
  int computeMinor = 0;  ///< compute capability, minor
  /// Bytes a block may use without opting in (cudaDevAttrMaxSharedMemoryPerBlock): 48 KB.
  std::size_t perBlockDefault = 0;
  /// Bytes a block may use after opting in (cudaDevAttrMaxSharedMemoryPerBlockOptin).
  std::size_t perBlockOptin = 0;
  /// Bytes of shared memory one SM holds at the largest carveout
  /// (cudaDevAttrMaxSharedMemoryPerMultiprocessor).
  std::size_t perMultiprocessor = 0;
  /// Bytes the runtime sets aside for every resident block on top of what the
  /// block asks for (cudaDevAttrReservedSharedMemoryPerBlock): 1 KB from
  /// compute capability 8.0, 0 before.
  std::size_t reservedPerBlock = 0;
  /// The unit a block's shared memory is allocated in: 256 bytes on compute
  /// capability 7.x, 128 bytes from 8.0 (no device attribute reports it; the
  /// occupancy calculator's tables do, see notes.md).
  std::size_t allocationGranularity = 0;
  /// Most blocks one SM can hold, whatever they use (cudaDevAttrMaxBlocksPerMultiprocessor).
  int maxBlocksPerMultiprocessor = 0;
};

/// The allocation granularity for a compute capability major version: 256
/// bytes on 7.x, 128 bytes from 8.0 on.
constexpr std::size_t allocationGranularityFor(int computeMajor) {
  return computeMajor < 8 ? 256 : 128;
}

/// Turing, NVIDIA T4 (sm_75): 64 KB per SM and per block, nothing reserved,
/// 16 blocks per SM.
inline constexpr SharedMemoryLimits kTuringT4{7, 5, 48 * 1024, 64 * 1024, 64 * 1024, 0, 256, 16};
/// Ampere, NVIDIA A100 (sm_80): 164 KB per SM, 163 KB per block, 1 KB
/// reserved, 32 blocks per SM.
inline constexpr SharedMemoryLimits kAmpereA100{8, 0, 48 * 1024, 163 * 1024, 164 * 1024, 1024, 128, 32};
/// Hopper, NVIDIA H100 (sm_90): 228 KB per SM, 227 KB per block, 1 KB
/// reserved, 32 blocks per SM.
inline constexpr SharedMemoryLimits kHopperH100{9, 0, 48 * 1024, 227 * 1024, 228 * 1024, 1024, 128, 32};

/**
 * @brief The worked example (5.1): reads @p device's shared-memory
 *        attributes with cudaDeviceGetAttribute.
 *
 * allocationGranularity comes from allocationGranularityFor().
 * @throws std::runtime_error naming the CUDA error when an attribute cannot
 *         be read (no device, an index that is not a device)
 */
SharedMemoryLimits sharedMemoryLimits(int device);

/**
 * @brief Sets @p kernel's preferred shared-memory carveout: the percentage of
 *        the SM's unified L1/shared storage it would like as shared memory
 *        (cudaFuncAttributePreferredSharedMemoryCarveout).
 *
 * @param kernel  the kernel, as the address of its host stub
 * @param percent 0 to 100, or -1 (cudaSharedmemCarveoutDefault: no preference)
 * @return cudaErrorInvalidValue, without calling the runtime, when
 *         @p percent is outside [-1, 100]; otherwise what the runtime returns
 *         (cudaSuccess when the preference is recorded). The runtime treats it
 *         as a hint: a launch that needs more shared memory still gets it.
 */
cudaError_t preferSharedCarveout(const void* kernel, int percent);

/**
 * @brief Lets @p kernel launch with up to @p bytes of dynamic shared memory
 *        (cudaFuncAttributeMaxDynamicSharedMemorySize), the opt-in every
 *        launch above 48 KB needs.
 *
 * @param kernel the kernel, as the address of its host stub
 * @param bytes  dynamic shared memory per block the launches will ask for
 * @return cudaErrorInvalidValue, without calling the runtime, when @p bytes
 *         does not fit in an int (the attribute's type: a truncated value
 *         would silently opt in to something else); otherwise what the
 *         runtime returns (cudaErrorInvalidValue when the device cannot give
 *         a block that much).
 */
cudaError_t optInDynamicShared(const void* kernel, std::size_t bytes);

/**
 * @brief How many blocks one SM can hold when each uses @p bytesPerBlock of
 *        shared memory (static plus dynamic) and nothing else limits them.
 *
 * A block occupies its bytes plus the per-block reservation, rounded up to
 * the allocation granularity; the SM holds as many such allocations as fit
 * whole in limits.perMultiprocessor, and never more than
 * limits.maxBlocksPerMultiprocessor. A block that needs more than
 * limits.perBlockOptin cannot launch: 0.
 * A pure function of its arguments: it calls no CUDA function.
 */
int blocksPerSmLimitedByShared(const SharedMemoryLimits& limits, std::size_t bytesPerBlock);

/**
 * @brief The cache preference (book 5.1, `cudaFuncSetCacheConfig`) to give
 *        a kernel on a Kepler GPU, whose SMs split 64 KB of on-chip memory
 *        between shared memory and the L1 cache in one of three ways:
 *
 * | preference                  | shared memory | L1    |
 * |-----------------------------|---------------|-------|
 * | cudaFuncCachePreferShared   | 48 KB         | 16 KB |
 * | cudaFuncCachePreferEqual    | 32 KB         | 32 KB |
 * | cudaFuncCachePreferL1       | 16 KB         | 48 KB |
 * | cudaFuncCachePreferNone     | the device's setting: 48 KB and 16 KB unless changed |
 *
 * (Fermi offered the first and third only.) Kepler caches a kernel's local
 * memory in L1, where registers spill to, but not its global loads by
 * default: a larger L1 helps a kernel that spills registers, and nothing
 * else of the kernel's.
 *
 * @param sharedBytesPerSm the shared memory the blocks resident on one SM use
 *        together; 1 KB is 1024 bytes.
 * @param spillsRegisters whether the kernel spills registers to local memory.
 * @return for a kernel that spills, the preference with the most L1 whose
 *         shared memory still holds sharedBytesPerSm: cudaFuncCachePreferL1
 *         up to 16 KB, cudaFuncCachePreferEqual up to 32 KB,
 *         cudaFuncCachePreferShared up to 48 KB; for one that does not,
 *         cudaFuncCachePreferNone, whatever it uses up to 48 KB: a larger L1
 *         buys it nothing, and the default split already gives shared memory
 *         the most.
 * @throws std::invalid_argument when no split holds sharedBytesPerSm (more
 *         than 48 KB), whether the kernel spills or not.
 * A pure function of its arguments: it calls no CUDA function.
 */
cudaFuncCache keplerCachePreference(std::size_t sharedBytesPerSm, bool spillsRegisters);

}  // namespace wb::config
