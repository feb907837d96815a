// Runs one kernel of section 5.5 on guarded, poisoned buffers and checks
// what it wrote: the stencils against the double-precision host reference
// within stencilTolerance, the lookups exactly. Also sets the contract's
// `__constant__` arrays in the exercise's module. Shared by the correctness
// and performance tests, the runner and the benchmark (a performance claim
// about a wrong kernel means nothing).
#pragma once

#include <cmath>
#include <cstdint>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "constant/constant.cuh"
#include "constant_inputs.h"
#include "wb/buffer.h"
#include "wb/cuda_check.h"
#include "wb/shared_poison.h"
#include "wb/verify.h"

namespace wb::constant {

/// Test names and failure messages show a kernel by its exercise name.
inline void PrintTo(const StencilKernel& k, std::ostream* os) { *os << k.exercise; }
inline void PrintTo(const LookupKernel& k, std::ostream* os) { *os << k.exercise; }

namespace testing {

/// Copies @p values into the `__constant__` array @p symbol of @p exercise's
/// module. The array lives in that module (constant.cuh says why), so the
/// address comes from the module (wb::exerciseGlobal); a plain cudaMemcpy
/// to it is what cudaMemcpyToSymbol does in a program linked in one piece.
template <class T>
void setModuleConstant(const char* exercise, const char* symbol, const std::vector<T>& values) {
  std::size_t bytes = 0;
  void* address = exerciseGlobal("constant", exercise, symbol, &bytes);
  if (bytes != values.size() * sizeof(T)) {
    throw std::runtime_error(std::string("the module of ") + exercise + " holds " + symbol +
                             " with " + std::to_string(bytes) + " bytes, not the contract's " +
                             std::to_string(values.size() * sizeof(T)) +
                             ": do not declare constant memory of your own");
  }
  WB_CUDA(cudaMemcpy(address, values.data(), bytes, cudaMemcpyHostToDevice));
}

/// The coefficients @p coef as the kernels receive them.
inline std::vector<float> coefficientVector(const std::array<float, kRadius>& coef = kCoefficients) {
  return std::vector<float>(coef.begin(), coef.end());
}

/**
 * @brief Puts the coefficients @p values where @p k must read them and
 *        poison (NaN) everywhere else: in @p coef for the kernels that read
 *        global memory, in the module's wbStencilCoef for stencilConstant. A
 *        kernel that reads its coefficients from the wrong place computes
 *        NaN; one that brings its own computes another stencil.
 */
inline void placeCoefficients(const StencilKernel& k, DeviceBuffer<float>& coef,
                              const std::array<float, kRadius>& values = kCoefficients) {
  const std::vector<float> nan(kRadius, poisonValue<float>());
  coef.poison();
  if (k.source == CoefSource::Constant) {
    setModuleConstant(k.exercise, kCoefSymbol, coefficientVector(values));
    return;
  }
  coef.upload(coefficientVector(values));
  try {
    setModuleConstant(k.exercise, kCoefSymbol, nan);
  } catch (const std::runtime_error&) {
    // A module without the array cannot read it either: nothing to poison.
  }
}

/// "out[i]": positions in the stencil's output.
inline std::string outputIndex(std::size_t i) { return "out[" + std::to_string(i) + "]"; }
/// "in[i]": positions in the stencil's input.
inline std::string inputIndex(std::size_t i) { return "in[" + std::to_string(i) + "]"; }

/**
 * @brief "" when @p got is within stencilTolerance of the reference of
 *        @p input everywhere; otherwise how many outputs are off and the
 *        first few, with the neighbourhood that makes each one special (an
 *        end of the input, a block's edge).
 */
inline std::string compareStencil(const std::string& kernel, const std::vector<float>& input,
                                  const std::vector<float>& got,
                                  const std::array<float, kRadius>& coef = kCoefficients) {
  const std::vector<double> want = referenceStencil(input, coef);
  std::size_t wrong = 0;
  std::ostringstream shown;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double error = std::fabs(static_cast<double>(got[i]) - want[i]);
    if (error <= stencilTolerance(input, i, coef)) continue;  // false for NaN too
    if (wrong < 8) {
      shown << "\n  at " << outputIndex(i) << " (block " << i / kStencilBlock << ", thread "
            << i % kStencilBlock << "): expected " << want[i] << ", got ";
      if (isPoison(got[i])) {
        shown << "poison";
      } else {
        shown << got[i];
      }
      if (i < kRadius) shown << " (its left halo reaches before in[0]: those read 0)";
      if (i + kRadius >= want.size()) shown << " (its right halo reaches past in[n-1]: those read 0)";
    }
    ++wrong;
  }
  if (wrong == 0) return {};
  std::ostringstream msg;
  msg << kernel << ": " << wrong << " of " << want.size()
      << " output(s) differ from the reference by more than the rounding allows" << shown.str();
  if (wrong > 8) msg << "\n  ...";
  msg << "\n  (NaN means poison: an element read outside in[0, n), a coefficient read from the "
         "wrong place, or an output never written; the coefficients were "
      << coef[0] << ", " << coef[1] << ", " << coef[2] << ", " << coef[3]
      << ": use the ones the kernel is given, not the book's values written into the code)";
  return msg.str();
}

/**
 * @brief Checks what stencil kernel @p k left after a launch over @p input:
 *        out written exactly in [0, n) and within tolerance, in unchanged
 *        and its guards intact.
 */
inline std::string checkStencilResult(const StencilKernel& k, const std::vector<float>& input,
                                      const DeviceBuffer<float>& in,
                                      const DeviceBuffer<float>& out,
                                      const std::array<float, kRadius>& coef = kCoefficients) {
  std::vector<std::string> problems;
  std::string problem = out.checkWritten(k.exercise, outputIndex);
  if (problem.empty()) problem = compareStencil(k.exercise, input, out.download(), coef);
  if (!problem.empty()) problems.push_back(problem);
  problem = in.checkWritten(std::string(k.exercise) + " (input in)", inputIndex);
  if (!problem.empty()) problems.push_back(problem);
  const std::vector<float> after = in.download();
  problem = describeMismatches(after.data(), input.data(), input.size(),
                               std::string(k.exercise) + " must leave its input unchanged, but in",
                               inputIndex);
  if (!problem.empty()) problems.push_back(problem);
  std::string all;
  for (const std::string& p : problems) all += (all.empty() ? "" : "\n") + p;
  return all;
}

/// Launches @p k once over @p input (at least one element) with poisoned
/// guard zones around the input and the output, with the coefficients
/// coefficientsFor(input), and returns checkStencilResult's verdict.
inline std::string runAndCheckStencil(const StencilKernel& k, const std::vector<float>& input) {
  if (input.empty()) throw std::invalid_argument("a stencil input must hold at least 1 element");
  const auto n = static_cast<unsigned int>(input.size());
  DeviceBuffer<float> in(n);
  in.poison();  // reads before in[0] or past in[n-1] come back as NaN
  in.upload(input);
  DeviceBuffer<float> out(n);
  out.poison();
  DeviceBuffer<float> coef(kRadius, 64);
  const std::array<float, kRadius> values = coefficientsFor(input);
  placeCoefficients(k, coef, values);
  poisonSharedMemory();
  launch(k, in.data(), out.data(), n, coef.data());
  checkLaunch(k.exercise);
  return checkStencilResult(k, input, in, out, values);
}

/// The lookup output a launch must write.
inline std::vector<int> referenceLookups(const std::vector<int>& table, unsigned int n,
                                         unsigned int start, unsigned int distinct) {
  std::vector<int> want(n);
  for (unsigned int g = 0; g < n; ++g) {
    want[g] = static_cast<int>(referenceLookup(table, g, start, distinct));
  }
  return want;
}

/// Checks @p out after lookup kernel @p k wrote @p n sums.
inline std::string checkLookupResult(const LookupKernel& k, const std::vector<int>& want,
                                     const DeviceBuffer<int>& out) {
  std::string problem = out.checkWritten(k.exercise, outputIndex);
  if (!problem.empty()) return problem;
  const std::vector<int> got = out.download();
  return describeMismatches(got.data(), want.data(), want.size(),
                            std::string(k.exercise) + " sums", outputIndex);
}

/// Fills the module's table with @p table, launches @p k for @p n outputs
/// into a poisoned, guarded buffer and checks every sum exactly.
inline std::string runAndCheckLookup(const LookupKernel& k, const std::vector<int>& table,
                                     unsigned int n, unsigned int start, unsigned int distinct) {
  if (n == 0) throw std::invalid_argument("a lookup launch needs at least 1 output");
  setModuleConstant(k.exercise, kLookupSymbol, table);
  DeviceBuffer<int> out(n);
  out.poison();
  poisonSharedMemory();
  launch(k, out.data(), n, start, distinct);
  checkLaunch(k.exercise);
  const unsigned int effective = k.scattered ? distinct : 0u;
  return checkLookupResult(k, referenceLookups(table, n, start, effective), out);
}

}  // namespace testing
}  // namespace wb::constant
