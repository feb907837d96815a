// Host tests of the confined child a host exercise is called in
// (wb/isolated.h, wb/confine.h): code called through callIsolated stands for
// a student's function that reached the C library despite the object check
// (through pointer arithmetic, or machine code made at run time). Whatever
// it tries, nothing happens outside the child: no file written, created,
// renamed or removed, no process started or left behind, no program run, no
// signal to the test process, no socket, no leaving the process group, no
// typing into a terminal. Reading files and signalling itself still work. No
// GPU needed.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "wb/isolated.h"

namespace wb {
namespace {

// What a system call returned, as callIsolated carries it: the result, or
// -errno for a failure.
double outcome(long result) { return result < 0 ? -static_cast<double>(errno) : result; }

// A fresh folder of the test's own, removed afterwards.
class Folder {
 public:
  Folder() {
    char pattern[] = "/tmp/wb-confine-XXXXXX";
    const char* made = ::mkdtemp(pattern);
    if (made != nullptr) path_ = made;
  }
  ~Folder() {
    if (!path_.empty()) std::system(("rm -rf '" + path_ + "'").c_str());
  }
  const std::string& path() const { return path_; }
  std::string file(const char* name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::string contents(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void expectDenied(const IsolatedResult& r, const char* what) {
  ASSERT_EQ(r.kind, IsolatedResult::Kind::Returned) << what << ": the child " << r.describe();
  EXPECT_EQ(r.value, -EPERM) << what << " was not refused with EPERM";
}

void expectEndedBySigsys(const IsolatedResult& r, const char* what) {
  EXPECT_EQ(r.kind, IsolatedResult::Kind::Ended) << what << ": the child " << r.describe();
  EXPECT_NE(r.detail.find("signal " + std::to_string(SIGSYS)), std::string::npos)
      << what << ": the child " << r.describe() << "; expected the filter to end it (SIGSYS)";
}

TEST(HostConfinedChild, StillReadsFiles) {
  const IsolatedResult r = callIsolated([] {
    std::ifstream status("/proc/self/status");
    std::string line;
    std::getline(status, line);
    return line.rfind("Name:", 0) == 0 ? 1.0 : 0.0;
  });
  ASSERT_EQ(r.kind, IsolatedResult::Kind::Returned) << r.describe();
  EXPECT_EQ(r.value, 1.0) << "reading /proc/self/status failed in the child";
  // glibc tries clone3 first; the filter answers ENOSYS, so it uses clone.
  const IsolatedResult clone3 =
      callIsolated([] { return outcome(::syscall(SYS_clone3, nullptr, 0)); });
  ASSERT_EQ(clone3.kind, IsolatedResult::Kind::Returned) << clone3.describe();
  EXPECT_EQ(clone3.value, -ENOSYS);
}

TEST(HostConfinedChild, OpensNoFileForWriting) {
  Folder folder;
  ASSERT_FALSE(folder.path().empty());
  const std::string made = folder.file("made");
  const std::string kept = folder.file("kept");
  { std::ofstream(kept) << "the grader's"; }
  for (const int flags : {O_WRONLY | O_CREAT, O_RDWR, O_WRONLY | O_TRUNC, O_RDONLY | O_TRUNC,
                          O_WRONLY | O_APPEND, O_RDONLY | O_CREAT}) {
    const std::string& path = (flags & O_CREAT) ? made : kept;
    expectDenied(callIsolated([&path, flags] { return outcome(::open(path.c_str(), flags, 0644)); }),
                 ("open with flags " + std::to_string(flags)).c_str());
  }
  expectDenied(callIsolated([&made] { return outcome(::creat(made.c_str(), 0644)); }), "creat");
  EXPECT_FALSE(exists(made)) << "a confined child created " << made;
  EXPECT_EQ(contents(kept), "the grader's");
}

TEST(HostConfinedChild, ChangesNoFile) {
  Folder folder;
  ASSERT_FALSE(folder.path().empty());
  const std::string kept = folder.file("kept");
  const std::string other = folder.file("other");
  { std::ofstream(kept) << "the grader's"; }
  const char* k = kept.c_str();
  const char* o = other.c_str();
  expectDenied(callIsolated([k] { return outcome(::unlink(k)); }), "unlink");
  expectDenied(callIsolated([k, o] { return outcome(::rename(k, o)); }), "rename");
  expectDenied(callIsolated([k, o] { return outcome(::link(k, o)); }), "link");
  expectDenied(callIsolated([k, o] { return outcome(::symlink(k, o)); }), "symlink");
  expectDenied(callIsolated([k] { return outcome(::chmod(k, 0777)); }), "chmod");
  expectDenied(callIsolated([k] { return outcome(::truncate(k, 0)); }), "truncate");
  expectDenied(callIsolated([o] { return outcome(::mkdir(o, 0755)); }), "mkdir");
  EXPECT_EQ(contents(kept), "the grader's");
  EXPECT_FALSE(exists(other));
}

TEST(HostConfinedChild, WritesNoFileTheTestProcessHasOpen) {
  Folder folder;
  ASSERT_FALSE(folder.path().empty());
  const std::string report = folder.file("report.json");
  const int fd = ::open(report.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  const IsolatedResult r =
      callIsolated([fd] { return outcome(::write(fd, "{\"failures\": 0}", 15)); });
  ::close(fd);
  ASSERT_EQ(r.kind, IsolatedResult::Kind::Returned) << r.describe();
  EXPECT_EQ(r.value, -EBADF) << "the child wrote to a file the test process had open";
  EXPECT_EQ(contents(report), "");
}

TEST(HostConfinedChild, StartsNoProcessAndRunsNoProgram) {
  Folder folder;
  ASSERT_FALSE(folder.path().empty());
  // A process that would outlive the test and leave its mark late.
  const std::string late = folder.file("late");
  expectEndedBySigsys(callIsolated([&late] {
                        const pid_t child = ::fork();
                        if (child == 0) {
                          ::sleep(1);
                          std::ofstream(late) << "outlived the test";
                          ::_exit(0);
                        }
                        return outcome(child);
                      }),
                      "fork");
  const std::string ran = folder.file("ran");
  expectEndedBySigsys(callIsolated([&ran] {
                        const std::string command = "echo ran > '" + ran + "'";
                        const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
                        return outcome(::execv("/bin/sh", const_cast<char**>(argv)));
                      }),
                      "execv");
  ::sleep(2);
  EXPECT_FALSE(exists(late)) << "a process started by the child outlived it";
  EXPECT_FALSE(exists(ran)) << "the child ran a program";
}

TEST(HostConfinedChild, SignalsOnlyItself) {
  expectDenied(callIsolated([] { return outcome(::kill(::getppid(), 0)); }),
               "kill(test process)");
  expectDenied(callIsolated([] { return outcome(::kill(0, 0)); }), "kill(process group)");
  expectDenied(callIsolated([] { return outcome(::kill(-1, 0)); }), "kill(-1)");
  const IsolatedResult self = callIsolated([] { return outcome(::kill(::getpid(), 0)); });
  ASSERT_EQ(self.kind, IsolatedResult::Kind::Returned) << self.describe();
  EXPECT_EQ(self.value, 0.0);
  // abort() signals itself: the child ends by SIGABRT, as unconfined.
  const IsolatedResult aborted = callIsolated([]() -> double { std::abort(); });
  EXPECT_EQ(aborted.kind, IsolatedResult::Kind::Ended);
  EXPECT_NE(aborted.detail.find("signal " + std::to_string(SIGABRT)), std::string::npos)
      << aborted.describe();
}

TEST(HostConfinedChild, LeavesNeitherItsGroupNorTerminal) {
  expectDenied(callIsolated([] { return outcome(::setsid()); }), "setsid");
  expectDenied(callIsolated([] { return outcome(::setpgid(0, 0)); }), "setpgid");
  expectDenied(callIsolated([] { return outcome(::socket(AF_UNIX, SOCK_STREAM, 0)); }),
               "socket");
  expectDenied(callIsolated([] { return outcome(::fcntl(STDOUT_FILENO, F_SETOWN, ::getppid())); }),
               "fcntl(F_SETOWN)");
  // Typing into a terminal, whatever the upper 32 bits of the request say.
  expectEndedBySigsys(callIsolated([] {
                        const char c = 'x';
                        return outcome(::ioctl(STDOUT_FILENO, TIOCSTI, &c));
                      }),
                      "ioctl(TIOCSTI)");
  expectEndedBySigsys(callIsolated([] {
                        const char c = 'x';
                        return outcome(::syscall(SYS_ioctl, STDOUT_FILENO,
                                                 (1UL << 32) | TIOCSTI, &c));
                      }),
                      "ioctl(TIOCSTI with high bits)");
}

TEST(HostConfinedChild, ACudaChildIsConfinedToo) {
  // Without a GPU CUDA's initialisation fails and the child is confined all
  // the same; with one, CUDA's device files are open and still nothing else.
  Folder folder;
  ASSERT_FALSE(folder.path().empty());
  const std::string made = folder.file("made");
  expectDenied(callIsolated(
                   [&made] { return outcome(::open(made.c_str(), O_WRONLY | O_CREAT, 0644)); },
                   60, ChildSetup::Cuda),
               "open for writing after CUDA's initialisation");
  EXPECT_FALSE(exists(made));
}

}  // namespace
}  // namespace wb
