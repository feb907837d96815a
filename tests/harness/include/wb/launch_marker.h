/**
 * @file launch_marker.h
 * @brief A launch that marks where the next kernel of a runner batch
 *        begins, for a tool that lists every launch of the process in order.
 */
#pragma once

namespace wb {

/// Launches the marker kernel, wbRunnerKernelBoundary (one thread, no memory
/// touched), on the default stream. The kernel runner calls it before each kernel of a run of several
/// (wb_run --status), so a section's kernels can be profiled in one Nsight
/// Compute process and each launch told apart by the markers between them:
/// a student's kernel cannot launch it (the runner loads modules only).
void launchMarker(int index);

}  // namespace wb
