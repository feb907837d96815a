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
 * opened for writing, socket or signal to another process. Where the check
 * uses CUDA, the child initialises CUDA first (ChildSetup), since the runtime
 * opens its device files for writing.
 */
#pragma once

#include <functional>
#include <stdexcept>
#include <string>

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
  };
  Kind kind = Kind::Ended;
  double value = 0.0;
  std::string detail;
  /// "returned 4", "threw std::invalid_argument", "ended the process (exit status 0) ..."
  std::string describe() const;
};

/// What the child prepares before it is confined and the function runs.
enum class ChildSetup {
  HostOnly,  ///< nothing: the function and the check never call CUDA
  Cuda,      ///< CUDA initialised first (cudaFree(0)) where it can be: the function calls
             ///< the runtime; without a GPU it meets the runtime's own error
  Gpu,       ///< as Cuda, but Kind::Skipped (with the reason) without a usable GPU
};

/// Calls @p fn in a forked, confined child and waits at most @p timeoutSeconds.
IsolatedResult callIsolated(const std::function<double()>& fn, int timeoutSeconds = 20,
                            ChildSetup setup = ChildSetup::HostOnly);

/// Thrown by a check run with checkIsolated when it cannot run here (no GPU):
/// the result is Kind::Skipped with the message as `detail`.
class IsolatedSkip : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/**
 * @brief Runs a whole check in a forked child: the calls of the student's
 *        function and the test's own inspection of what they did.
 *
 * For checks whose evidence lives in the child (a CUDA context, which does
 * not survive fork(), so the test process never creates one). Kind::Returned
 * with `detail` set to what @p check found wrong ("" when nothing; the first
 * 1000 characters), Kind::Skipped when it threw IsolatedSkip, otherwise how
 * the child failed to answer.
 */
IsolatedResult checkIsolated(const std::function<std::string()>& check, int timeoutSeconds = 60,
                             ChildSetup setup = ChildSetup::HostOnly);

}  // namespace wb
