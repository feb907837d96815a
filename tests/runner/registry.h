// The kernels the runner can launch one at a time, for tools that wrap a
// whole process around one launch: Nsight Compute (bank conflicts, memory
// transactions), compute-sanitizer (races, barriers, out-of-bounds), and the
// mutant checks. Each section contributes its kernels in its own file.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace wb::runner {

struct RunnableKernel {
  std::string section;   ///< "layout", "reduction", "transpose", "constant", "shuffle"
  std::string id;        ///< unique within the section, e.g. "square_setRowReadCol"
  std::string exercise;  ///< the exercise file it belongs to, e.g. "setRowReadCol"
  /// Fully qualified name as Nsight Compute shows it with
  /// --kernel-name-base demangled, without parameters.
  std::string qualifiedName;
  /// Shared-memory wavefronts per request the bank model predicts for the
  /// kernel's loads and stores; empty when the kernel is not graded on it.
  std::optional<double> sharedLoadWays;
  std::optional<double> sharedStoreWays;
  /// Global-memory sectors (32 bytes) per store request predicted for the
  /// launch runOnce makes: 4 when a warp writes 128 consecutive bytes
  /// (coalesced), 32 when every lane writes its own sector.
  std::optional<double> globalStoreSectors;
  /// Constant-cache passes per indexed constant load of a warp (distinct
  /// words its lanes ask for) that the constant model predicts
  /// (chapters/constant/constant_model.h); empty when not graded.
  std::optional<double> constantPasses;
  /// Warp-level indexed constant loads the launch of runOnce makes: the
  /// profile check divides the measured constant-cache requests by it.
  std::optional<double> constantRequests;
  /// Launches the kernel once at a small size (a single block where the
  /// contract allows it, so the profile counters are exact) and checks the
  /// output; returns "" when correct, else what is wrong.
  std::function<std::string()> runOnce;
};

/// Every section's kernels, in section order.
std::vector<RunnableKernel> allKernels();

/// Each section's part of allKernels().
std::vector<RunnableKernel> layoutKernels();
std::vector<RunnableKernel> reductionKernels();
std::vector<RunnableKernel> transposeKernels();
std::vector<RunnableKernel> constantKernels();
std::vector<RunnableKernel> shuffleKernels();

}  // namespace wb::runner
