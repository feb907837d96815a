#include "wb/isolated.h"

#include <cuda_runtime.h>
#include <poll.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <exception>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "wb/confine.h"
#include "wb/cuda_check.h"
#include "wb/device.h"
#include "wb/isolated_gpu.h"

namespace wb {
namespace {

/// One answer of the child, for one call: the number the test process drew
/// for this child (so that an answer written by code that does not know it is
/// refused), which call, and what the call did. Fixed size: the test process
/// tells a whole answer from part of one.
struct Answer {
  std::uint64_t mark;
  std::uint32_t call;
  std::uint8_t kind;
  std::uint8_t gpuContention;  ///< the child's harness met another process's hold on the GPU
  double value;
  char detail[1024];
};

/// The call number of an answer sent before any call (the child could not be
/// prepared or confined): it stands for every call.
constexpr std::uint32_t kBeforeCalls = 0xffffffffU;

/// Fills in one answer: the value, or (a check) the findings as detail.
using Call = std::function<void(std::size_t, Answer&)>;

void writeAll(int fd, const void* data, std::size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
}

// What the child does before it is confined: CUDA opens its device files for
// writing and starts its threads when it initialises, which the filter would
// refuse later. The JIT cache is turned off: it would be written under $HOME.
void prepare(ChildSetup setup) {
  if (setup == ChildSetup::HostOnly) return;
  ::setenv("CUDA_CACHE_DISABLE", "1", 1);
  if (setup == ChildSetup::Gpu) {
    if (const auto reason = gpuUnavailableReason()) throw IsolatedSkip(*reason);
  }
  // Without a GPU this fails, and the function meets the runtime's error.
  const cudaError_t started = cudaFree(nullptr);
  noteCudaFailure(started, std::string("starting CUDA in a child process: ") +
                                   cudaGetErrorName(started));
}

void copyDetail(Answer& a, const char* text) {
  std::strncpy(a.detail, text, sizeof a.detail - 1);
}

// Makes call i and fills in its answer, whatever it throws.
void answer(const Call& call, std::size_t i, Answer& a) {
  try {
    call(i, a);
    a.kind = static_cast<std::uint8_t>(IsolatedResult::Kind::Returned);
  } catch (const IsolatedSkip& e) {
    a.kind = static_cast<std::uint8_t>(IsolatedResult::Kind::Skipped);
    copyDetail(a, e.what());
  } catch (const std::invalid_argument& e) {
    a.kind = static_cast<std::uint8_t>(IsolatedResult::Kind::InvalidArgument);
    copyDetail(a, e.what());
  } catch (const std::exception& e) {
    a.kind = static_cast<std::uint8_t>(IsolatedResult::Kind::OtherException);
    copyDetail(a, e.what());
  } catch (...) {
    a.kind = static_cast<std::uint8_t>(IsolatedResult::Kind::OtherException);
    copyDetail(a, "an exception that is not a std::exception");
  }
  a.gpuContention = gpuContentionSeen() ? 1 : 0;
}

// The child: prepares, is confined, makes every call in order and sends one
// answer for each; where it cannot prepare or be confined, one answer saying
// why (call 0), and nothing runs.
[[noreturn]] void childMain(int fd, std::uint64_t mark, std::size_t count, const Call& call,
                            ChildSetup setup) {
  detachFromTestProcess(fd);
  Answer a{};
  a.mark = mark;
  a.call = kBeforeCalls;
  const auto sendAlone = [&](IsolatedResult::Kind kind, const char* why) {
    a.kind = static_cast<std::uint8_t>(kind);
    copyDetail(a, why);
    writeAll(fd, &a, sizeof a);
    ::_exit(0);
  };
  try {
    prepare(setup);
  } catch (const IsolatedSkip& e) {
    sendAlone(IsolatedResult::Kind::Skipped, e.what());
  } catch (const std::exception& e) {
    sendAlone(IsolatedResult::Kind::NotConfined, e.what());
  }
  // No file by its path, CUDA children included: the runtime has opened
  // what it needs while initialising (prepare); what it opens later it may
  // do without (the config tests pass so on an H100).
  const std::string unconfined = confineThisProcess(setup != ChildSetup::HostOnly);
  if (!unconfined.empty()) sendAlone(IsolatedResult::Kind::NotConfined, unconfined.c_str());
  for (std::size_t i = 0; i < count; ++i) {
    a = Answer{};
    a.mark = mark;
    a.call = static_cast<std::uint32_t>(i);
    answer(call, i, a);
    writeAll(fd, &a, sizeof a);
  }
  ::_exit(0);
}

std::string howItEnded(int status) {
  std::ostringstream s;
  if (WIFEXITED(status)) {
    s << "exit status " << WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    s << "signal " << WTERMSIG(status) << " (" << strsignal(WTERMSIG(status)) << ")";
  } else {
    s << "status " << status;
  }
  return s.str();
}

// A number the child cannot guess, drawn before it is forked (it is in the
// child's memory, so code that searches that memory can find it: it keeps
// out the answers written blind, such as a fixed block of bytes).
std::uint64_t drawMark() {
  std::uint64_t mark = 0;
  if (::getrandom(&mark, sizeof mark, 0) != static_cast<ssize_t>(sizeof mark)) {
    mark = static_cast<std::uint64_t>(
               std::chrono::steady_clock::now().time_since_epoch().count()) ^
           (static_cast<std::uint64_t>(::getpid()) << 32);
  }
  return mark | 1;  // never 0: an answer of zero bytes is never this child's
}

}  // namespace

std::string IsolatedResult::describe() const {
  std::ostringstream s;
  switch (kind) {
    case Kind::Returned: s << "returned " << value; break;
    case Kind::InvalidArgument: s << "threw std::invalid_argument (" << detail << ")"; break;
    case Kind::OtherException: s << "threw another exception (" << detail << ")"; break;
    case Kind::Ended: s << "ended the process (" << detail << ") instead of returning"; break;
    case Kind::TimedOut: s << "did not return within " << detail; break;
    case Kind::Skipped: s << "was skipped (" << detail << ")"; break;
    case Kind::NotConfined:
      s << "was not run: the child process could not be confined (" << detail << ")";
      break;
    case Kind::BadAnswer:
      s << "was not judged: the child process sent what the test did not ask for (" << detail
        << "); the function's code wrote to the test harness's pipe itself";
      break;
  }
  return s.str();
}

namespace {

// Reads the child's answers as they come and checks each is the next one
// asked for; the first thing that is not makes the whole batch BadAnswer.
class AnswerReader {
 public:
  AnswerReader(std::uint64_t mark, std::size_t count, ChildSetup setup)
      : mark_(mark), count_(count), setup_(setup) {}

  /// Takes bytes from the pipe; false once the child has said something wrong.
  bool take(const char* data, std::size_t size) {
    while (size > 0 && bad_.empty()) {
      const std::size_t n = std::min(size, sizeof partial_ - got_);
      std::memcpy(reinterpret_cast<char*>(&partial_) + got_, data, n);
      got_ += n;
      data += n;
      size -= n;
      if (got_ == sizeof partial_) {
        got_ = 0;
        accept(partial_);
      }
    }
    return bad_.empty();
  }

  bool complete() const { return alone_ || results_.size() == count_; }
  bool bad() const { return !bad_.empty(); }
  /// Bytes of an answer begun and not finished.
  std::size_t partial() const { return got_; }
  void markBad(std::string why) {
    if (bad_.empty()) bad_ = std::move(why);
  }

  /// Every call's result; a call not answered gets @p missingKind, the first
  /// one with @p missingDetail.
  std::vector<IsolatedResult> results(IsolatedResult::Kind missingKind,
                                      const std::string& missingDetail) const {
    if (!bad_.empty()) {
      IsolatedResult r;
      r.kind = IsolatedResult::Kind::BadAnswer;
      r.detail = bad_;
      return std::vector<IsolatedResult>(count_, r);
    }
    if (alone_) return std::vector<IsolatedResult>(count_, results_.front());
    std::vector<IsolatedResult> out = results_;
    for (std::size_t i = out.size(); i < count_; ++i) {
      IsolatedResult r;
      r.kind = missingKind;
      r.detail = missingDetail;
      if (i > results_.size()) {
        r.detail += " at call " + std::to_string(results_.size()) + ", before this one";
      }
      out.push_back(r);
    }
    return out;
  }

 private:
  void accept(const Answer& a) {
    using Kind = IsolatedResult::Kind;
    if (complete()) return markBad("more answers than the " + std::to_string(count_) + " asked for");
    if (a.mark != mark_) return markBad("an answer not marked as this child's");
    if (std::memchr(a.detail, '\0', sizeof a.detail) == nullptr) {
      return markBad("a text without its end");
    }
    const auto kind = static_cast<Kind>(a.kind);
    const bool gpu = setup_ == ChildSetup::Gpu;
    if (a.call == kBeforeCalls && results_.empty() &&
        (kind == Kind::NotConfined || (kind == Kind::Skipped && gpu))) {
      alone_ = true;  // nothing ran: this answer is every call's
    } else if (a.call != results_.size()) {
      return markBad("an answer to call " + std::to_string(a.call) + " where call " +
                     std::to_string(results_.size()) + " was due");
    } else if (kind != Kind::Returned && kind != Kind::InvalidArgument &&
               kind != Kind::OtherException && !(kind == Kind::Skipped && gpu)) {
      return markBad("an answer of kind " + std::to_string(a.kind) + " to call " +
                     std::to_string(a.call));
    }
    IsolatedResult r;
    r.kind = kind;
    r.gpuContention = a.gpuContention != 0;
    r.value = a.value;
    r.detail = a.detail;
    results_.push_back(std::move(r));
  }

  std::uint64_t mark_;
  std::size_t count_;
  ChildSetup setup_;
  std::vector<IsolatedResult> results_;
  bool alone_ = false;  // the child answered for the whole batch (not confined, skipped)
  Answer partial_{};
  std::size_t got_ = 0;
  std::string bad_;
};

std::vector<IsolatedResult> runInChild(std::size_t count, const Call& call, int timeoutSeconds,
                                       ChildSetup setup) {
  const std::uint64_t mark = drawMark();
  int fds[2];
  if (::pipe(fds) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::system_error(errno, std::generic_category(), "fork");
  }
  if (child == 0) {
    ::close(fds[0]);
    childMain(fds[1], mark, count, call, setup);
  }
  ::close(fds[1]);

  AnswerReader reader(mark, count, setup);
  bool timedOut = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds);
  // Read to the end of the pipe: after the last answer asked for, the child
  // must end without another byte.
  char buffer[1 << 14];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timedOut = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the child closed the pipe: it ended
    if (!reader.take(buffer, static_cast<std::size_t>(n))) break;
  }
  ::close(fds[0]);
  if (timedOut || reader.bad()) ::kill(child, SIGKILL);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }

  if (reader.partial() > 0 && !timedOut) reader.markBad("part of an answer");
  if (timedOut) {
    return reader.results(IsolatedResult::Kind::TimedOut, std::to_string(timeoutSeconds) + " s");
  }
  // The harness's child ends with exit status 0 right after its last answer.
  const bool endedCleanly = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (reader.complete() && !endedCleanly) {
    reader.markBad("all the answers, then the child ended with " + howItEnded(status));
  }
  return reader.results(IsolatedResult::Kind::Ended, howItEnded(status));
}

}  // namespace

std::vector<IsolatedResult> callIsolatedEach(std::size_t count,
                                             const std::function<double(std::size_t)>& call,
                                             int timeoutSeconds, ChildSetup setup) {
  if (count == 0) return {};
  return runInChild(
      count, [&call](std::size_t i, Answer& a) { a.value = call(i); }, timeoutSeconds, setup);
}

std::vector<IsolatedResult> callIsolatedEachWithEvidence(
    std::size_t count, const std::function<double(std::size_t, std::string&)>& call,
    int timeoutSeconds, ChildSetup setup) {
  if (count == 0) return {};
  return runInChild(
      count,
      [&call](std::size_t i, Answer& a) {
        std::string evidence;
        a.value = call(i, evidence);
        if (evidence.size() >= sizeof a.detail) {
          throw std::length_error("the evidence of call " + std::to_string(i) + " is " +
                                  std::to_string(evidence.size()) + " characters long, more "
                                  "than an answer holds");
        }
        copyDetail(a, evidence.c_str());
      },
      timeoutSeconds, setup);
}

void noteContentionOfOwnChildren(const std::vector<IsolatedResult>& results) {
  for (const IsolatedResult& r : results) {
    if (r.gpuContention) {
      noteGpuContention("the test's own child met another process's hold on the GPU");
      return;
    }
    if (r.kind == IsolatedResult::Kind::TimedOut) {
      noteGpuContention("the test's own child did not answer within " + r.detail);
      return;
    }
  }
}

IsolatedResult callIsolated(const std::function<double()>& fn, int timeoutSeconds,
                            ChildSetup setup) {
  return callIsolatedEach(1, [&fn](std::size_t) { return fn(); }, timeoutSeconds, setup).front();
}

namespace {

// Whether another process holds the GPU now, asked of the runtime by the
// judging child after a check found something wrong: the check may have met
// the hold by a call of its own that reports through its findings, not
// through WB_CUDA (a configuration check names the error it got).
void probeGpuContention() {
  const cudaError_t started = cudaFree(nullptr);
  if (started != cudaSuccess) {
    noteCudaFailure(started, std::string("the check's CUDA context: ") +
                                     cudaGetErrorName(started));
    return;
  }
  void* probe = nullptr;
  const cudaError_t taken = cudaMalloc(&probe, std::size_t{64} << 20);
  if (taken == cudaSuccess) {
    (void)cudaFree(probe);
  } else {
    (void)cudaGetLastError();
    noteCudaFailure(taken, std::string("64 MiB of GPU memory for the check: ") +
                                   cudaGetErrorName(taken));
  }
}

}  // namespace

IsolatedResult judgeOnGpu(const std::function<std::string()>& check, int timeoutSeconds) {
  IsolatedResult result =
      runInChild(
          1,
          [&check](std::size_t, Answer& a) {
            const std::string found = check();
            if (!found.empty() && !gpuContentionSeen()) probeGpuContention();
            copyDetail(a, found.c_str());
          },
          timeoutSeconds, ChildSetup::Gpu)
          .front();
  // The judging child runs only the test's code, so what it says of the GPU
  // is the harness's observation; it cannot write the contention log itself
  // (confined), so this process does.
  if (result.gpuContention) {
    noteGpuContention("the check's child met another process's hold on the GPU");
  } else if (result.kind == IsolatedResult::Kind::TimedOut) {
    noteGpuContention("the check's child did not answer within " + result.detail);
  }
  return result;
}

}  // namespace wb
