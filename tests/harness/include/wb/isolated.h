/**
 * @file isolated.h
 * @brief Calling a student's host function in a child process, so that
 *        nothing it does can reach the test process that judges it.
 *
 * A host exercise's object is linked into its test executable (the kernel
 * exercises never are: they are loaded as device modules). Its code is
 * checked before linking (wbcore/object_check.py: no code that runs
 * before main, no process control, no I/O), and it runs only when the test
 * calls it; callIsolated makes that call in a forked child. The child sends
 * back the value or the kind of exception; whatever else it does (end the
 * process, corrupt memory) ends with the child, and the test process's
 * verdict and exit status stay its own.
 *
 * The child is confined before the function runs (wb/confine.h): it keeps
 * none of the test process's files open but the pipe to it, stdout and
 * stderr, and a seccomp filter refuses it any new process, program, file
 * opened for writing, socket or signal to another process; a child without
 * CUDA may not open, stat or look up any file at all. Where the check uses
 * CUDA, the child initialises CUDA first (ChildSetup), since the runtime
 * opens its device files for writing.
 *
 * Nothing the child says is trusted to judge: the student's code runs in it
 * and can write to the pipe too. So the child sends back only the raw results
 * of the calls the test asked for, and the test process compares them with
 * what it computes itself (callIsolatedEach); forging an answer then means
 * computing it. Where the evidence is CUDA state (a kernel attribute the
 * function set), the child sends a record of the runtime calls instead, and
 * a second child that runs no student code makes them again and is judged
 * there (wb/isolated_gpu.h, tests/config/recorded_check.h).
 */
#pragma once

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace wb {

/// What a function called in a child process did.
struct IsolatedResult {
  enum class Kind {
    Returned,         ///< returned `value`
    InvalidArgument,  ///< threw std::invalid_argument
    OtherException,   ///< threw something else (`detail` says what)
    Ended,            ///< the child ended without answering (`detail` says how)
    TimedOut,         ///< no answer within the time limit
    Skipped,          ///< the check could not run here (`detail` says why)
    NotConfined,      ///< the child could not be confined, so nothing ran (`detail`: why)
    BadAnswer,        ///< the child sent what the test did not ask for (`detail`: what):
                      ///< the student's code wrote to the harness's pipe, so none of the
                      ///< child's answers count
  };
  Kind kind = Kind::Ended;
  double value = 0.0;
  std::string detail;
  /// The child's harness code met another process's hold on the GPU
  /// (wb::noteGpuContention). Only judgeOnGpu's child, which runs no student
  /// code, is believed on it.
  bool gpuContention = false;
  /// "returned 4", "threw std::invalid_argument", "ended the process (exit status 0) ..."
  std::string describe() const;
};

/// What the child prepares before it is confined and the function runs, and
/// what the filter then leaves it (wb/confine.h).
enum class ChildSetup {
  HostOnly,  ///< nothing: the function never calls CUDA, and may reach no file by its path
  Cuda,      ///< CUDA initialised first (cudaFree(0)) where it can be: the function calls
             ///< the runtime; without a GPU it meets the runtime's own error. No file can
             ///< be reached by its path either, once CUDA is initialised
  Gpu,       ///< as Cuda, but Kind::Skipped (with the reason) without a usable GPU
};

/**
 * @brief Calls @p call(0), @p call(1), ... @p call(count - 1) in that order in
 *        one forked, confined child, and returns what each did, in order.
 *
 * The child only calls and sends back each raw result (the value or the kind
 * of exception); the test judges them in its own process, against what it
 * computes itself. The child's answers must be exactly the ones asked for,
 * in order and each marked as this child's: anything else on the pipe (an
 * answer the student's code wrote itself, bytes too many or too few) makes
 * every result Kind::BadAnswer. Where the child ends or times out part way,
 * the calls it answered keep their results and the rest say how it ended.
 * @p timeoutSeconds bounds the whole batch.
 */
std::vector<IsolatedResult> callIsolatedEach(std::size_t count,
                                             const std::function<double(std::size_t)>& call,
                                             int timeoutSeconds = 20,
                                             ChildSetup setup = ChildSetup::HostOnly);

/**
 * @brief callIsolatedEach, where each call also writes a text of evidence (at
 *        most 1023 characters: what the function did besides returning,
 *        such as the runtime calls it made), sent back as the result's
 *        `detail` when the call returned.
 *
 * The evidence is made in the child, where the student's code runs: the test
 * must treat it as a claim to be checked, never as a verdict.
 */
std::vector<IsolatedResult> callIsolatedEachWithEvidence(
    std::size_t count, const std::function<double(std::size_t, std::string&)>& call,
    int timeoutSeconds = 20, ChildSetup setup = ChildSetup::HostOnly);

/**
 * @brief Notes in this process (noteGpuContention) when one of @p results
 *        says its child met another process's hold on the GPU, or timed out.
 *
 * Only for children that ran the test's own code (its GPU queries): a child
 * confined for its call cannot write the contention log itself, and a child
 * that ran the student's code could forge the flag, so never pass theirs.
 */
void noteContentionOfOwnChildren(const std::vector<IsolatedResult>& results);

/// Calls @p fn in a forked, confined child and waits at most @p timeoutSeconds
/// (callIsolatedEach with one call).
IsolatedResult callIsolated(const std::function<double()>& fn, int timeoutSeconds = 20,
                            ChildSetup setup = ChildSetup::HostOnly);

/// Thrown by a GPU check (judgeOnGpu, wb/isolated_gpu.h) when it
/// cannot run here (no GPU): the result is Kind::Skipped with the message as
/// `detail`.
class IsolatedSkip : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace wb
