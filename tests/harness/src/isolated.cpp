#include "wb/isolated.h"

#include <cuda_runtime.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <exception>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "wb/confine.h"
#include "wb/device.h"

namespace wb {
namespace {

/// The child's one message: a kind byte, a double, and a short text.
struct Message {
  char kind;
  double value;
  char detail[1024];
};

void writeAll(int fd, const void* data, std::size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
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
  (void)cudaFree(nullptr);
}

void copyDetail(Message& m, const char* text) {
  std::strncpy(m.detail, text, sizeof m.detail - 1);
}

// fn returns the value; a check (fn's text set) returns its findings as detail.
[[noreturn]] void childMain(int fd, const std::function<double()>& fn,
                            const std::function<std::string()>& text, ChildSetup setup) {
  Message m{};
  detachFromTestProcess(fd);
  try {
    prepare(setup);
    const std::string unconfined = confineThisProcess();
    if (!unconfined.empty()) {
      m.kind = static_cast<char>(IsolatedResult::Kind::NotConfined);
      copyDetail(m, unconfined.c_str());
      writeAll(fd, &m, sizeof m);
      ::_exit(0);
    }
    if (text) {
      const std::string found = text();
      copyDetail(m, found.c_str());
    } else {
      m.value = fn();
    }
    m.kind = static_cast<char>(IsolatedResult::Kind::Returned);
  } catch (const IsolatedSkip& e) {
    m.kind = static_cast<char>(IsolatedResult::Kind::Skipped);
    copyDetail(m, e.what());
  } catch (const std::invalid_argument& e) {
    m.kind = static_cast<char>(IsolatedResult::Kind::InvalidArgument);
    copyDetail(m, e.what());
  } catch (const std::exception& e) {
    m.kind = static_cast<char>(IsolatedResult::Kind::OtherException);
    copyDetail(m, e.what());
  } catch (...) {
    m.kind = static_cast<char>(IsolatedResult::Kind::OtherException);
    copyDetail(m, "an exception that is not a std::exception");
  }
  writeAll(fd, &m, sizeof m);
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
  }
  return s.str();
}

namespace {

IsolatedResult runInChild(const std::function<double()>& fn,
                          const std::function<std::string()>& text, int timeoutSeconds,
                          ChildSetup setup) {
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
    childMain(fds[1], fn, text, setup);
  }
  ::close(fds[1]);

  Message m{};
  std::size_t got = 0;
  bool timedOut = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds);
  while (got < sizeof m) {
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
    const ssize_t n = ::read(fds[0], reinterpret_cast<char*>(&m) + got, sizeof m - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the child closed the pipe without a whole message
    got += static_cast<std::size_t>(n);
  }
  ::close(fds[0]);
  if (timedOut) ::kill(child, SIGKILL);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }

  IsolatedResult r;
  if (timedOut) {
    r.kind = IsolatedResult::Kind::TimedOut;
    r.detail = std::to_string(timeoutSeconds) + " s";
  } else if (got < sizeof m) {
    r.kind = IsolatedResult::Kind::Ended;
    r.detail = howItEnded(status);
  } else {
    r.kind = static_cast<IsolatedResult::Kind>(m.kind);
    r.value = m.value;
    m.detail[sizeof m.detail - 1] = '\0';
    r.detail = m.detail;
  }
  return r;
}

}  // namespace

IsolatedResult callIsolated(const std::function<double()>& fn, int timeoutSeconds,
                            ChildSetup setup) {
  return runInChild(fn, {}, timeoutSeconds, setup);
}

IsolatedResult checkIsolated(const std::function<std::string()>& check, int timeoutSeconds,
                             ChildSetup setup) {
  return runInChild({}, check, timeoutSeconds, setup);
}

}  // namespace wb
