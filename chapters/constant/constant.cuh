/**
 * @file constant.cuh
 * @brief Book section 5.5, "Constant Memory": the contract of the stencil
 *        and constant-cache exercises.
 *
 * **The stencil kernels** (5.5.1, 5.5.2) compute, for every i in [0, n),
 * the nine-point first-derivative stencil
 * `out[i] = sum_{k=1..4} a_k * (in[i + k] - in[i - k])`
 * with the coefficients a1..a4 that the host puts where the exercise says
 * (below): the book's kCoefficients (constant_model.h says where they come
 * from) in the timed runs, others drawn for each input in the correctness
 * tests, so a kernel must use the ones it is given, not write the book's
 * values into its code. Boundary condition: an element outside [0, n)
 * reads as 0, at both ends. Every stencil kernel
 *  - has the signature `kernel(const float* in, float* out, unsigned int n,
 *    const float* coef)` and is launched with kStencilBlock (256) threads
 *    per block and stencilBlocksFor(n) blocks; any n >= 1 is valid;
 *  - stages its block's 256 inputs and a halo of kRadius (4) elements on
 *    each side in a static `__shared__ float smem[kStencilSmem]` and
 *    computes from it;
 *  - writes exactly out[0, n), reads nothing of in outside [0, n), and
 *    leaves in unchanged;
 *  - takes its coefficients from where its exercise says: stencilGmemCoef
 *    from `coef` (global memory, a1..a4 in coef[0..3]); stencilConstant from
 *    the `__constant__` array wbStencilCoef below (the tests hand it a
 *    `coef` full of NaN); stencilReadOnly from `coef` through the read-only
 *    cache (`const float* __restrict__` and `__ldg`).
 *
 * **The lookup kernels** (5.5) show when constant memory serialises. Thread
 * g < n (lane g mod 32) adds the kLookupReads (64) ints of the
 * `__constant__` table wbLookupTable that lookupWord() names and writes the
 * sum to out[g]; threads at or past n write nothing. They are launched with
 * kLookupBlock (256) threads per block and lookupBlocksFor(n) blocks.
 * constantBroadcast reads one word per read for the whole warp;
 * constantScattered makes lane l read the word l mod `distinct` further on
 * (1 <= distinct <= 32), so a warp asks for min(distinct, 32) words at once
 * and the constant cache serves them one after another.
 *
 * **Constant memory and modules.** Each exercise is compiled into a module
 * of its own and loaded at run time (common/exercise_kernel.h), and a
 * `__constant__` variable lives in the module that defines it. This header
 * therefore defines the two arrays in the modules alone (WB_EXERCISE_MODULE
 * is defined only when a module is compiled), at global scope so that
 * their names in the module are the plain names kCoefSymbol and
 * kLookupSymbol. The tests set them with wb::exerciseGlobal (which finds the
 * address with cudaLibraryGetGlobal) and cudaMemcpy: that is what
 * cudaMemcpyToSymbol does in a program linked in one piece, and it lets the
 * contract, not the exercise file, own the arrays' names and sizes. An
 * exercise file must not define constant memory of its own.
 *
 * Each exercise is one file with the kernel's name under
 * `starter/constant/`; stencilGmemCoef.cu is the worked example.
 */
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "common/exercise_kernel.h"
#include "constant_model.h"

#if defined(WB_EXERCISE_MODULE)
/// The stencil's coefficients a1..a4 in constant memory (stencilConstant).
__constant__ float wbStencilCoef[wb::constant::kRadius];
/// The lookup kernels' table in constant memory.
__constant__ int wbLookupTable[wb::constant::kLookupWords];
#endif

namespace wb::constant {

/// The name of the coefficients' `__constant__` array in a module.
inline constexpr const char* kCoefSymbol = "wbStencilCoef";
/// The name of the lookup table's `__constant__` array in a module.
inline constexpr const char* kLookupSymbol = "wbLookupTable";

/// The baseline: coefficients read from global memory through @p coef; the
/// worked example (5.5.1).
__global__ void stencilGmemCoef(const float* in, float* out, unsigned int n, const float* coef);
/// The coefficients from the `__constant__` array wbStencilCoef; @p coef is
/// not read (5.5.1).
__global__ void stencilConstant(const float* in, float* out, unsigned int n, const float* coef);
/// The coefficients from @p coef through the read-only cache:
/// `const float* __restrict__` parameters and `__ldg` (5.5.2).
__global__ void stencilReadOnly(const float* __restrict__ in, float* __restrict__ out,
                                unsigned int n, const float* __restrict__ coef);

/// Every lane of a warp reads the same table word at each read: one
/// broadcast per request (5.5).
__global__ void constantBroadcast(int* out, unsigned int n, unsigned int start);
/// Lane l reads the word l mod @p distinct further on: min(distinct, 32)
/// words, and as many passes, per request (5.5).
__global__ void constantScattered(int* out, unsigned int n, unsigned int start,
                                  unsigned int distinct);

/// Where a stencil kernel takes its coefficients from.
enum class CoefSource {
  Global,    ///< `coef`, plain loads
  Constant,  ///< the `__constant__` array wbStencilCoef
  ReadOnly   ///< `coef` through the read-only cache
};

/// The parameters every stencil kernel has, as the C++ demangler writes them.
inline constexpr const char* kStencilParameters = "(float const*, float*, unsigned int, float const*)";

/// One stencil kernel and what the tests, the runner and the benchmark need
/// to know about it.
struct StencilKernel {
  const char* exercise;     ///< kernel name, also the exercise's file name
  CoefSource source;        ///< where its coefficients come from
  const char* bookSection;  ///< where the book discusses it

  /// The kernel, from the exercise's compiled module (exercise_kernel.h).
  const void* function() const {
    const std::string signature = std::string("wb::constant::") + exercise + kStencilParameters;
    return exerciseKernel("constant", exercise, signature.c_str());
  }
};

/// The stencil kernels, in the order the book presents them.
inline const std::vector<StencilKernel>& stencilKernels() {
  static const std::vector<StencilKernel> all = {
      // exercise, coefficients from, book section
      {"stencilGmemCoef", CoefSource::Global, "5.5.1"},
      {"stencilConstant", CoefSource::Constant, "5.5.1"},
      {"stencilReadOnly", CoefSource::ReadOnly, "5.5.2"},
  };
  return all;
}

/// One lookup kernel (constantBroadcast, constantScattered).
struct LookupKernel {
  const char* exercise;     ///< kernel name, also the exercise's file name
  bool scattered;           ///< takes `distinct` (constantScattered)
  const char* bookSection;  ///< where the book discusses it

  const void* function() const {
    const std::string signature =
        std::string("wb::constant::") + exercise +
        (scattered ? "(int*, unsigned int, unsigned int, unsigned int)"
                   : "(int*, unsigned int, unsigned int)");
    return exerciseKernel("constant", exercise, signature.c_str());
  }
};

/// The lookup kernels.
inline const std::vector<LookupKernel>& lookupKernels() {
  static const std::vector<LookupKernel> all = {
      // exercise, scattered, book section
      {"constantBroadcast", false, "5.5"},
      {"constantScattered", true, "5.5"},
  };
  return all;
}

/// Finds a stencil kernel by exercise name; nullptr when unknown.
inline const StencilKernel* findStencilKernel(const std::string& exercise) {
  for (const auto& k : stencilKernels()) {
    if (exercise == k.exercise) return &k;
  }
  return nullptr;
}

/// Finds a lookup kernel by exercise name; nullptr when unknown.
inline const LookupKernel* findLookupKernel(const std::string& exercise) {
  for (const auto& k : lookupKernels()) {
    if (exercise == k.exercise) return &k;
  }
  return nullptr;
}

/// Launches @p k over @p n >= 1 elements. Launch errors are left for the
/// caller to check.
inline void launch(const StencilKernel& k, const float* in, float* out, unsigned int n,
                   const float* coef, cudaStream_t stream = nullptr) {
  launchKernel(k.function(), stencilBlocksFor(n), kStencilBlock, 0, stream, in, out, n, coef);
}

/// Launches @p k for @p n >= 1 outputs; @p distinct is passed to
/// constantScattered only.
inline void launch(const LookupKernel& k, int* out, unsigned int n, unsigned int start,
                   unsigned int distinct, cudaStream_t stream = nullptr) {
  if (k.scattered) {
    launchKernel(k.function(), lookupBlocksFor(n), kLookupBlock, 0, stream, out, n, start,
                 distinct);
  } else {
    launchKernel(k.function(), lookupBlocksFor(n), kLookupBlock, 0, stream, out, n, start);
  }
}

}  // namespace wb::constant
