// The kernels the runner can launch one at a time, for tools that wrap a
// whole process around one launch: Nsight Compute (bank conflicts, memory
// transactions), compute-sanitizer (races, barriers, out-of-bounds), and the
// mutant checks. Each section contributes its kernels in its own file,
// tests/runner/<section>_kernels.cu, which registers them
// (WB_RUNNER_SECTION): CMake compiles the files of the sections
// workbook.toml lists.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "wb/section_registry.h"

namespace wb::runner {

/// The seed of this run's random inputs: drawn afresh for every process
/// (WB_RUN_SEED=N repeats a run), so a kernel cannot recognise the profiled
/// or sanitized launch by its values and answer it from a table (the
/// counters and checks do not depend on the values, only on the sizes). In a
/// run of several kernels (wb_run --status) each kernel after the first
/// draws from a seed derived from it (useSeedOfKernel), which the WRONG line
/// names: WB_RUN_SEED=<that> repeats the kernel's inputs alone.
std::uint64_t inputSeed();

/// From now on inputSeed() is that of kernel @p index of the run (0: the
/// base seed).
void useSeedOfKernel(std::uint64_t index);

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
  /// Method counters (the reductions' technique, measured per launch): the
  /// least average of active threads per executed warp instruction (Nsight
  /// Compute's smsp__thread_inst_executed_per_inst_executed.ratio, 32 at
  /// most). A tree keeps whole warps busy (its steps, short and predicated,
  /// run with the warp's lanes active); one thread adding the block's values
  /// one by one (loads vectorised or not) runs most of the kernel's
  /// instructions with a single lane. Empty when not
  /// graded.
  std::optional<double> minActiveThreadsPerInstruction;
  /// The least share of the bytes of the global-memory sectors that the
  /// kernel's loads fetch which its lanes use, in percent (Nsight Compute's
  /// smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct):
  /// about 100 when each warp load reads consecutive words, 25 when each
  /// lane reads its own run of 4 elements. Empty when not graded.
  std::optional<double> minGlobalLoadEfficiency;
  /// The least shuffles (SHFL) each warp of the launch executes, counted by
  /// Nsight Compute per machine instruction: a kernel that holds a shuffle
  /// behind a branch its contract never takes, and moves its values through
  /// memory instead, has the instruction but executes none. Empty when not
  /// graded.
  std::optional<double> minShufflesPerWarp;
  /// The most shuffles each warp of the launch executes, where the
  /// technique lets only some warps shuffle (reduceSmemShfl: warp 0 of each
  /// block, after the shared-memory tree): a kernel in which every warp
  /// shuffles its own values first is reduceShfl's technique. Empty when not
  /// graded.
  std::optional<double> maxShufflesPerWarp;
  /// Launches the kernel once at a small size (a single block where the
  /// contract allows it, so the profile counters are exact) and checks the
  /// output; returns "" when correct, else what is wrong.
  std::function<std::string()> runOnce;
  /// runOnce's first launch alone, where runOnce makes several (an exchange:
  /// one per argument set), for a tool that reads only that launch (a
  /// section's shuffle counts, `wb_run --first-launches`): the profiler
  /// then instruments one launch a kernel, not four or five. Empty where
  /// runOnce makes one launch.
  std::function<std::string()> runFirst;
};

/// The least global-load efficiency of a kernel whose warps read consecutive
/// words: nearly every byte of the sectors fetched is used, the partial last
/// block of runOnce's inputs leaving a little unused.
inline constexpr double kCoalescedLoadEfficiencyPercent = 80.0;
/// The least active threads per instruction of a reduction whose block
/// works as a tree: three quarters of a warp (on an H100 the reference trees
/// measure 31.0 to 31.4 and a serial sum by one thread 14.4).
inline constexpr double kTreeActiveThreads = 24.0;
/// The least shuffles per warp of a kernel of section 5.6: every exchange
/// and every warp of a shuffle reduction trades values between lanes at
/// least once (on an H100 the reference shflUp executes one per warp, the
/// dead shuffle of a kernel that reads its partner from global memory none).
inline constexpr double kShufflesPerWarp = 1.0;
/// The shuffles one warp makes to add its 32 lanes' values: log2(32).
inline constexpr int kWarpReduceShuffles = 5;

/// Every section's kernels, in workbook.toml's order of sections.
std::vector<RunnableKernel> allKernels();

/// The sections' files register their kernels here
/// (WB_RUNNER_SECTION(layout, layoutKernels) in tests/runner/layout_kernels.cu).
using SectionKernels = std::vector<RunnableKernel> (*)();
using KernelRegistry = SectionRegistry<SectionKernels>;

}  // namespace wb::runner

/// Registers @p fn, returning section @p section's kernels, with the runner.
#define WB_RUNNER_SECTION(section, fn) WB_REGISTER_SECTION(::wb::runner::KernelRegistry, section, fn)
