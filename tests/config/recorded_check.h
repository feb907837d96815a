// The config exercises' GPU checks, judged where no student code runs.
//
// A configuration function's effect is CUDA state of the process it ran in
// (a kernel's attributes), and that process ran the student's code, which
// can write anything on the pipe to the test (wb/isolated.h). So the child
// that calls the function records every cudaFuncSetAttribute it makes (the
// test executables are linked with --wrap=cudaFuncSetAttribute, so the
// call reaches recorded_check.cpp first) and sends back only what each call
// returned and that record. A second child, forked from the test process
// and running none of the student's code, sets the same attributes on the
// same kernels itself (Replay) and does the whole inspection: reads the
// attributes back, launches, asks the occupancy API.
//
// Forging the record means writing down the right cudaFuncSetAttribute
// calls, which is the exercise; a call the record leaves out (one made by
// another route than the runtime's function) has no effect where the check
// is judged.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "wb/isolated.h"

namespace wb::config::check {

/// The time limit of each child of a check, in seconds: the student's and
/// the judge's together stay under CTest's limit of a GPU test (60 s), so
/// a function that never returns fails as the harness saw it ("did not
/// return within"), not as a CTest timeout, which the grader would read as
/// the GPU held by another process and answer by running the tests again.
constexpr int kCheckChildSeconds = 25;

/// One cudaFuncSetAttribute the student's function made, and what the
/// runtime returned to it.
struct AttributeCall {
  const void* kernel = nullptr;
  int attribute = 0;
  int value = 0;
  int returned = 0;
};

/// The student's calls, as the child answered for each: the result (the
/// value or exception) and the kernel attributes it set.
struct RecordedCalls {
  std::vector<IsolatedResult> results;
  std::vector<std::vector<AttributeCall>> calls;  ///< one list per call asked for
  std::string problem;  ///< why the answers cannot be used ("" when they can)
};

/**
 * @brief Calls @p student(0) ... @p student(count - 1) in one confined child
 *        (with CUDA initialised when @p setup says so), recording the
 *        kernel attributes each sets.
 */
RecordedCalls callRecorded(std::size_t count, const std::function<double(std::size_t)>& student,
                           ChildSetup setup, int timeoutSeconds = kCheckChildSeconds);

/// What setting call i's attributes again did here.
struct Replayed {
  std::string problems;             ///< "" when every call could be made again as recorded
  std::size_t calls = 0;            ///< how many cudaFuncSetAttribute call i made
  cudaError_t last = cudaSuccess;   ///< what the runtime returned to the last of them here
};

/// Makes again, in the judging child, the kernel attributes a student's
/// call set, on kernels of the test's only.
class Replay {
 public:
  Replay(const RecordedCalls& recorded, std::vector<const void*> kernels)
      : recorded_(recorded), kernels_(std::move(kernels)) {}
  /// Sets what call @p i set, in the order it did.
  Replayed apply(std::size_t i) const;

 private:
  const RecordedCalls& recorded_;
  std::vector<const void*> kernels_;
};

/**
 * @brief The GPU check of a configuration function: @p student's calls in
 *        a confined child with a GPU (callRecorded), then @p judge, in a
 *        second child that runs no student code (wb::judgeOnGpu), given each
 *        call's result and a Replay of what they set on @p kernels.
 *
 * Kind::Skipped without a GPU; a record the judge cannot use (the child's
 * answers were not the ones asked for, a record that does not parse) fails
 * the check with the reason.
 */
IsolatedResult checkOnGpu(
    std::size_t count, const std::function<double(std::size_t)>& student,
    const std::vector<const void*>& kernels,
    const std::function<std::string(const std::vector<IsolatedResult>&, const Replay&)>& judge,
    int timeoutSeconds = kCheckChildSeconds);

}  // namespace wb::config::check
