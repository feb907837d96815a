// Host tests of the confined child a host exercise is called in
// (wb/isolated.h, wb/confine.h): code called through callIsolated stands for
// a student's function that reached the C library despite the object check
// (through pointer arithmetic, or machine code made at run time). Whatever
// it tries, nothing happens outside the child: no file written, created,
// renamed or removed, no process started or left behind, no program run, no
// signal to the test process, no socket, no leaving the process group, no
// typing into a terminal, and without CUDA no file read either; signalling
// itself still works. Nor can it answer for the calls it was asked to make:
// the test process takes only the answers it asked for. No GPU needed.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "wb/confine.h"
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

TEST(HostConfinedChild, OpensNoFileAtAll) {
  // Without CUDA the child reaches no file by its path, not even to read it:
  // what it read it could quote in an exception's message.
  const char* const readable[] = {"/proc/self/status", "/etc/passwd", "/dev/null"};
  for (const char* path : readable) {
    const std::string p = path;
    expectDenied(callIsolated([p] { return outcome(::open(p.c_str(), O_RDONLY)); }),
                 ("open(" + p + ", O_RDONLY)").c_str());
    expectDenied(callIsolated([p] { return outcome(::openat(AT_FDCWD, p.c_str(), O_RDONLY)); }),
                 ("openat(" + p + ", O_RDONLY)").c_str());
    struct stat st {};
    expectDenied(callIsolated([p, st]() mutable { return outcome(::stat(p.c_str(), &st)); }),
                 ("stat(" + p + ")").c_str());
    expectDenied(callIsolated([p, st]() mutable { return outcome(::lstat(p.c_str(), &st)); }),
                 ("lstat(" + p + ")").c_str());
    expectDenied(callIsolated([p] { return outcome(::access(p.c_str(), R_OK)); }),
                 ("access(" + p + ")").c_str());
  }
  // openat2 (a structure the filter cannot read) is refused too, not ENOSYS
  // as in a CUDA child: glibc would fall back to openat, refused as well.
  struct {
    unsigned long long flags, mode, resolve;
  } how{O_RDONLY, 0, 0};
  expectDenied(callIsolated([&how] {
                 return outcome(::syscall(SYS_openat2, AT_FDCWD, "/etc/passwd", &how, sizeof how));
               }),
               "openat2(/etc/passwd, O_RDONLY)");
  expectDenied(callIsolated([] {
                 char target[256];
                 return outcome(::readlink("/proc/self/exe", target, sizeof target));
               }),
               "readlink(/proc/self/exe)");
  expectDenied(callIsolated([] {
                 struct statx sx {};
                 return outcome(::syscall(SYS_statx, AT_FDCWD, "/etc/passwd", 0, STATX_SIZE, &sx));
               }),
               "statx(/etc/passwd)");
  // A C++ stream sees a file it cannot open.
  const IsolatedResult stream = callIsolated([] {
    std::ifstream in("/etc/passwd");
    return in.is_open() ? 1.0 : 0.0;
  });
  ASSERT_EQ(stream.kind, IsolatedResult::Kind::Returned) << stream.describe();
  EXPECT_EQ(stream.value, 0.0) << "a host-only child opened /etc/passwd";
  // glibc tries clone3 first; the filter answers ENOSYS, so it uses clone.
  const IsolatedResult clone3 =
      callIsolated([] { return outcome(::syscall(SYS_clone3, nullptr, 0)); });
  ASSERT_EQ(clone3.kind, IsolatedResult::Kind::Returned) << clone3.describe();
  EXPECT_EQ(clone3.value, -ENOSYS);
}

TEST(HostConfinedChild, ACudaChildOpensNoFileByItsPath) {
  // CUDA is initialised before the filter (with a GPU, its device files are
  // open by then; without one, it has failed): from then on the child opens
  // nothing by its path, not even for reading, so a student's host function
  // can quote no file (a reference module, a system file) in its answers.
  const IsolatedResult r = callIsolated(
      [] {
        std::ifstream status("/proc/self/status");
        std::string line;
        std::getline(status, line);
        return line.rfind("Name:", 0) == 0 ? 1.0 : 0.0;
      },
      60, ChildSetup::Cuda);
  ASSERT_EQ(r.kind, IsolatedResult::Kind::Returned) << r.describe();
  EXPECT_EQ(r.value, 0.0) << "a CUDA child read /proc/self/status";
}

// Writes `size` zero bytes to every descriptor the child may hold past
// stderr, as code that found write() in the C library would to answer for
// its check: the pipe to the test process is one of them.
void writeZerosToEveryDescriptor(std::size_t size) {
  static const char zeros[1 << 13] = {};
  for (int fd = 3; fd < 64; ++fd) {
    for (std::size_t left = size; left > 0;) {
      const ssize_t n = ::write(fd, zeros, left < sizeof zeros ? left : sizeof zeros);
      if (n <= 0) break;
      left -= static_cast<std::size_t>(n);
    }
  }
}

TEST(HostIsolatedAnswers, EachCallIsAnsweredInOrder) {
  const std::vector<IsolatedResult> got = callIsolatedEach(6, [](std::size_t i) -> double {
    if (i == 4) throw std::invalid_argument("four");
    return static_cast<double>(i * i);
  });
  ASSERT_EQ(got.size(), 6U);
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (i == 4) {
      EXPECT_EQ(got[i].kind, IsolatedResult::Kind::InvalidArgument) << got[i].describe();
      EXPECT_EQ(got[i].detail, "four");
    } else {
      ASSERT_EQ(got[i].kind, IsolatedResult::Kind::Returned) << i << ": " << got[i].describe();
      EXPECT_EQ(got[i].value, static_cast<double>(i * i));
    }
  }
}

TEST(HostIsolatedAnswers, ACallThatEndsTheChildEndsTheBatchThere) {
  const std::vector<IsolatedResult> got = callIsolatedEach(4, [](std::size_t i) -> double {
    if (i == 1) ::_exit(3);
    return 7.0;
  });
  ASSERT_EQ(got.size(), 4U);
  ASSERT_EQ(got[0].kind, IsolatedResult::Kind::Returned) << got[0].describe();
  EXPECT_EQ(got[0].value, 7.0);
  for (std::size_t i = 1; i < got.size(); ++i) {
    EXPECT_EQ(got[i].kind, IsolatedResult::Kind::Ended) << i << ": " << got[i].describe();
  }
  EXPECT_NE(got[1].detail.find("exit status 3"), std::string::npos) << got[1].describe();
}

TEST(HostIsolatedAnswers, AnAnswerWrittenOnThePipeByTheFunctionIsRefused) {
  // The function writes the child's answer itself (all zero bytes: kind
  // Returned, value 0, no findings), of about an answer's size, exactly it,
  // or several, then ends the child: none of it is taken as an answer.
  for (const std::size_t size : {std::size_t{8 + 8 + 1024}, std::size_t{1048},
                                 std::size_t{4 * 1048}, std::size_t{1}}) {
    const std::vector<IsolatedResult> got = callIsolatedEach(2, [size](std::size_t) -> double {
      writeZerosToEveryDescriptor(size);
      ::_exit(0);
    });
    ASSERT_EQ(got.size(), 2U);
    for (const IsolatedResult& r : got) {
      EXPECT_EQ(r.kind, IsolatedResult::Kind::BadAnswer)
          << "a forged answer of " << size << " bytes: the child " << r.describe();
    }
  }
  // The same, but the function then returns: the harness's own answer
  // follows the forged one, and the whole batch is refused.
  const std::vector<IsolatedResult> got = callIsolatedEach(3, [](std::size_t i) -> double {
    if (i == 1) writeZerosToEveryDescriptor(1048);
    return 1.0;
  });
  ASSERT_EQ(got.size(), 3U);
  for (const IsolatedResult& r : got) {
    EXPECT_EQ(r.kind, IsolatedResult::Kind::BadAnswer) << "the child " << r.describe();
  }
  // A single call (callIsolated) the same way.
  const IsolatedResult one = callIsolated([]() -> double {
    writeZerosToEveryDescriptor(1048);
    ::_exit(0);
  });
  EXPECT_EQ(one.kind, IsolatedResult::Kind::BadAnswer) << "the child " << one.describe();
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

TEST(HostConfinedChild, StartsNoThread) {
  // Threads would let a host-only function take CPUs from the submissions
  // graded beside it; it needs none.
  const IsolatedResult r = callIsolated([] {
    pthread_t thread;
    const int rc = ::pthread_create(
        &thread, nullptr, [](void*) -> void* { return nullptr; }, nullptr);
    if (rc == 0) ::pthread_join(thread, nullptr);
    return -static_cast<double>(rc);
  });
  ASSERT_EQ(r.kind, IsolatedResult::Kind::Returned) << "the child " << r.describe();
  EXPECT_EQ(r.value, -EPERM) << "pthread_create was not refused with EPERM";
}

TEST(HostConfinedChild, StartsNoThreadWhereCudaRuns) {
  // The config exercises' functions run where CUDA was initialised first;
  // a thread there would take CPUs from a neighbour just the same.
  const IsolatedResult r = callIsolated(
      [] {
        pthread_t thread;
        const int rc = ::pthread_create(
            &thread, nullptr, [](void*) -> void* { return nullptr; }, nullptr);
        if (rc == 0) ::pthread_join(thread, nullptr);
        return -static_cast<double>(rc);
      },
      20, ChildSetup::Cuda);
  ASSERT_EQ(r.kind, IsolatedResult::Kind::Returned) << "the child " << r.describe();
  EXPECT_EQ(r.value, -EPERM) << "pthread_create was not refused with EPERM";
}

TEST(HostConfinedChild, TakesNoMoreThanHalfAGigabyteOfAddressSpace) {
  // 8 GiB is granted without the limit (the kernel overcommits); touched
  // page by page it would take the machine's memory.
  const IsolatedResult big = callIsolated([] {
    void* p = std::malloc(std::size_t{8} << 30);
    std::free(p);
    return p != nullptr ? 1.0 : 0.0;
  });
  ASSERT_EQ(big.kind, IsolatedResult::Kind::Returned) << "the child " << big.describe();
  EXPECT_EQ(big.value, 0.0) << "the child got 8 GiB of address space";
  const IsolatedResult small = callIsolated([] {
    void* p = std::malloc(std::size_t{64} << 20);
    if (p != nullptr) std::memset(p, 1, std::size_t{64} << 20);
    std::free(p);
    return p != nullptr ? 1.0 : 0.0;
  });
  ASSERT_EQ(small.kind, IsolatedResult::Kind::Returned) << "the child " << small.describe();
  EXPECT_EQ(small.value, 1.0) << "64 MiB, far within the limit, was refused";
}

TEST(HostConfinedChild, TakesNoMoreThanHalfAGigabyteOfDataWhereCudaRuns) {
  // A CUDA child has no address-space limit (the runtime reserves far more
  // than it uses); its data limit keeps a config function from taking the
  // machine's memory all the same.
  const IsolatedResult big = callIsolated(
      [] {
        auto* p = static_cast<char*>(std::malloc(std::size_t{8} << 30));
        std::free(p);
        return p != nullptr ? 1.0 : 0.0;
      },
      20, ChildSetup::Cuda);
  ASSERT_EQ(big.kind, IsolatedResult::Kind::Returned) << "the child " << big.describe();
  EXPECT_EQ(big.value, 0.0) << "the child got 8 GiB of data";
  const IsolatedResult small = callIsolated(
      [] {
        void* p = std::malloc(std::size_t{64} << 20);
        if (p != nullptr) std::memset(p, 1, std::size_t{64} << 20);
        std::free(p);
        return p != nullptr ? 1.0 : 0.0;
      },
      20, ChildSetup::Cuda);
  ASSERT_EQ(small.kind, IsolatedResult::Kind::Returned) << "the child " << small.describe();
  EXPECT_EQ(small.value, 1.0) << "64 MiB, far within the limit, was refused";
}

TEST(HostConfinedChild, MapsNoSharedAnonymousMemory) {
  // The data limit counts private memory only: a shared anonymous map
  // would be memory without a limit, so the filter refuses it, in both
  // kinds of child, with MAP_SHARED_VALIDATE too. A private one still works.
  for (const ChildSetup setup : {ChildSetup::HostOnly, ChildSetup::Cuda}) {
    for (const int shared : {MAP_SHARED, MAP_SHARED_VALIDATE}) {
      expectDenied(callIsolated(
                       [shared] {
                         void* p = ::mmap(nullptr, std::size_t{1} << 30, PROT_READ | PROT_WRITE,
                                          shared | MAP_ANONYMOUS, -1, 0);
                         return p == MAP_FAILED ? -static_cast<double>(errno) : 1.0;
                       },
                       20, setup),
                   "a shared anonymous map");
    }
    const IsolatedResult priv = callIsolated(
        [] {
          void* p = ::mmap(nullptr, std::size_t{64} << 20, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
          return p == MAP_FAILED ? -static_cast<double>(errno) : 1.0;
        },
        20, setup);
    ASSERT_EQ(priv.kind, IsolatedResult::Kind::Returned) << "the child " << priv.describe();
    EXPECT_EQ(priv.value, 1.0) << "a private map of 64 MiB was refused";
  }
}

TEST(HostConfinedChild, GrowsNoStackPastEightMiB) {
  // The stack is outside RLIMIT_DATA: a map that grows down counts as stack
  // (3 GiB were taken that way before the rule), and a child started under
  // an unlimited stack limit could recurse without end. Neither kind of
  // child may map one, and each has a stack limit of at most 8 MiB.
  for (const ChildSetup setup : {ChildSetup::HostOnly, ChildSetup::Cuda}) {
    expectDenied(callIsolated(
                     [] {
                       void* p = ::mmap(nullptr, std::size_t{1} << 20, PROT_READ | PROT_WRITE,
                                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_GROWSDOWN, -1, 0);
                       return p == MAP_FAILED ? -static_cast<double>(errno) : 1.0;
                     },
                     20, setup),
                 "a map that grows down");
    const IsolatedResult stack = callIsolated(
        [] {
          rlimit limit{};
          if (::getrlimit(RLIMIT_STACK, &limit) != 0) return -static_cast<double>(errno);
          return limit.rlim_max == RLIM_INFINITY ? -1.0 : static_cast<double>(limit.rlim_max);
        },
        20, setup);
    ASSERT_EQ(stack.kind, IsolatedResult::Kind::Returned) << "the child " << stack.describe();
    EXPECT_GT(stack.value, 0.0) << "the child's stack limit is unlimited";
    EXPECT_LE(stack.value, 8.0 * 1024 * 1024) << "the child's stack limit is over 8 MiB";
  }
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

// The run that keeps CAP_SYS_ADMIN for Nsight Compute starts under
// wb_without_admin_calls (wbcore/sandbox.py): whatever the capability
// allows, a process there may not mount, make or enter a namespace, or trace
// another process; its ordinary calls still work. Run as root (CI, the
// grader) the refused calls would otherwise succeed: `unshare -m` does.
TEST(HostAdministrationCalls, AreRefusedWhateverTheCapabilities) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0) << std::strerror(errno);
  if (child == 0) {
    if (!refuseAdministrationCalls().empty()) ::_exit(100);
    int code = 0;
    if (::unshare(CLONE_NEWNS) == 0 || errno != EPERM) code |= 1;
    if (::unshare(CLONE_NEWUSER) == 0 || errno != EPERM) code |= 2;
    if (::mount("none", "/tmp", "tmpfs", 0, nullptr) == 0 || errno != EPERM) code |= 4;
    if (::umount2("/tmp", MNT_DETACH) == 0 || errno != EPERM) code |= 4;
    if (::setns(0, 0) == 0 || errno != EPERM) code |= 16;
    if (::ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) == 0 || errno != EPERM) code |= 32;
    // A clone into a new namespace; one that slipped through would return
    // 0 in a new process, which leaves at once.
    const long cloned = ::syscall(SYS_clone, CLONE_NEWNS | SIGCHLD, 0, 0, 0, 0);
    if (cloned == 0) ::_exit(0);
    if (cloned > 0 || errno != EPERM) code |= 64;
    // A call this libseccomp has no name for (open_tree_attr, Linux 6.15:
    // a copy of a mount, writable): ENOSYS, by number.
    if (::syscall(467, -1, "", 0, nullptr, 0) == 0 || errno != ENOSYS) code |= 64;
    // Ordinary work goes on: a file, a process.
    const int fd = ::open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    if (fd < 0) code |= 128;
    if (fd >= 0) ::close(fd);
    const pid_t grandchild = ::fork();
    if (grandchild == 0) ::_exit(7);
    int status = 0;
    if (grandchild < 0 || ::waitpid(grandchild, &status, 0) != grandchild ||
        !WIFEXITED(status) || WEXITSTATUS(status) != 7) {
      code |= 8;
    }
    ::_exit(code);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "the child ended by signal " << WTERMSIG(status);
  const int code = WEXITSTATUS(status);
  ASSERT_NE(code, 100) << "refuseAdministrationCalls failed to install its filter";
  EXPECT_EQ(code & 1, 0) << "unshare(CLONE_NEWNS) was not refused with EPERM";
  EXPECT_EQ(code & 2, 0) << "unshare(CLONE_NEWUSER) was not refused with EPERM";
  EXPECT_EQ(code & 4, 0) << "mount or umount2 was not refused with EPERM";
  EXPECT_EQ(code & 8, 0) << "a plain fork failed under the filter";
  EXPECT_EQ(code & 16, 0) << "setns was not refused with EPERM";
  EXPECT_EQ(code & 32, 0) << "ptrace was not refused with EPERM";
  EXPECT_EQ(code & 64, 0) << "a clone into a new mount namespace was not refused with EPERM, "
                              "or the unnamed call 467 (open_tree_attr) not with ENOSYS";
  EXPECT_EQ(code & 128, 0) << "opening /proc/self/status failed under the filter";
}

}  // namespace
}  // namespace wb
