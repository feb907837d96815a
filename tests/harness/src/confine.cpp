#include "wb/confine.h"

#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <string>

namespace wb {
namespace {

// The address space a host-only child, and the data a CUDA child, may add
// to what it has when it is confined: far more than any host exercise needs
// (they compute a few numbers), far less than a machine's memory.
constexpr rlim_t kHeadroom = rlim_t{512} << 20;

// This process's size from /proc/self/statm, in bytes: the whole address
// space (field 1) or its data and stack (field 6, what RLIMIT_DATA counts
// and a little more); 0 where it cannot be read.
rlim_t sizeFromStatm(int field) {
  long pages[7] = {};
  if (FILE* statm = std::fopen("/proc/self/statm", "r")) {
    for (int i = 0; i < 7 && std::fscanf(statm, "%ld", &pages[i]) == 1; ++i) {
    }
    std::fclose(statm);
  }
  const long chosen = pages[field - 1];
  if (chosen <= 0) return 0;
  return static_cast<rlim_t>(chosen) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE));
}

// ---------------------------------------------------------------------------
// The allow-list. Every call the child may make after it is confined, with
// why it is there. Measured on an H100 (CUDA 13): after initialisation the
// runtime's own thread made read, write, close, fstat, lseek, mmap, mprotect,
// brk, fcntl, openat, sched_get_priority_max/min and clock_gettime (plus
// mkdir and openat for writing of its JIT cache, which CUDA_CACHE_DISABLE
// turns off and the filter refuses anyway); its helper threads wait in poll,
// ioctl and futex. A name this machine's kernel does not have is skipped.
// ---------------------------------------------------------------------------

// Memory: the C++ library allocates (brk, mmap), the runtime maps and unmaps
// device and managed memory and changes its protection, and frees it back.
// mmap has rules of its own (confineThisProcess): no pinned memory.
constexpr const char* kMemory[] = {"brk",      "munmap", "mremap", "mprotect",
                                   "madvise", "mlock",  "munlock", "membarrier"};

// Threads and waiting: the runtime's helper threads (started at
// initialisation) and the C++ library's locks wait on futexes, poll their
// descriptors and sleep; glibc sets up each thread's robust list and rseq area.
constexpr const char* kWaiting[] = {
    "futex",         "set_robust_list", "get_robust_list", "rseq",
    "set_tid_address", "sched_yield",   "sched_getaffinity", "sched_get_priority_max",
    "sched_get_priority_min", "sched_getparam", "sched_getscheduler", "nanosleep",
    "clock_nanosleep", "poll",          "ppoll",           "select",
    "pselect6",      "epoll_wait",      "epoll_pwait",     "epoll_pwait2",
    "epoll_ctl",     "eventfd2",        "restart_syscall"};

// Clocks: the runtime times its waits; the harness measures nothing here.
constexpr const char* kClocks[] = {"clock_gettime", "clock_getres", "gettimeofday", "time"};

// Descriptors already open: the answer goes to the parent through the pipe
// (write), the runtime talks to its device files and event descriptors (read,
// write, close, lseek, fstat). Writing through a descriptor is allowed
// because only the pipe, stdout, stderr and the runtime's own are open
// (detachFromTestProcess), and no file can be opened for writing any more.
constexpr const char* kDescriptors[] = {"read",  "readv", "pread64",   "write", "writev",
                                        "close", "fstat", "getdents64", "lseek"};

// Who and where it is, read only: the C library and the runtime ask for the
// process and thread ids, the user, the limits and the machine; getrandom
// seeds the C++ library's hashing.
constexpr const char* kIdentity[] = {"getpid",  "gettid",    "getppid",   "getuid",
                                     "geteuid", "getgid",    "getegid",   "getresuid",
                                     "getresgid", "getpgrp", "getrlimit", "getrusage",
                                     "uname",   "sysinfo",   "getrandom"};

// Its own signals: the C library blocks and restores signals around its
// locks and thread creation, the runtime installs handlers, and a handler
// returns through rt_sigreturn.
constexpr const char* kSignals[] = {"rt_sigprocmask", "rt_sigaction", "rt_sigreturn",
                                    "sigaltstack"};

// Ending: a thread ends with exit, the child with exit_group (_exit).
constexpr const char* kEnding[] = {"exit", "exit_group"};

// Plainly hostile: running another program, starting a process, reading or
// writing another process's memory. These end the child at once (SIGSYS).
constexpr const char* kHostile[] = {"execve", "execveat", "fork", "vfork", "ptrace",
                                    "process_vm_writev", "process_vm_readv"};

// ---------------------------------------------------------------------------
// The deny-list of refuseAdministrationCalls(): what CAP_SYS_ADMIN (kept for
// Nsight Compute, wbcore/sandbox.py) would otherwise let a process do to the
// sandbox around it or to the machine. Mounts of every kind (a remount of a
// read-only bind would make it writable), leaving or making namespaces
// (clone's namespace flags have a rule of their own), kernel modules and
// kernels, BPF programs, tracing and another process's memory, keys, swap,
// the clocks and the host's names, the kernel log, accounting and quotas,
// file handles (open_by_handle_at reaches files outside a bind), and the
// performance events of the CPU. Nsight Compute needs none of them: it
// reads the GPU's counters through the driver's device files.
// ---------------------------------------------------------------------------
constexpr const char* kAdministration[] = {
    "mount",        "umount2",         "pivot_root",     "chroot",        "move_mount",
    "open_tree",    "fsopen",          "fsmount",        "fsconfig",      "fspick",
    "mount_setattr", "unshare",        "setns",          "init_module",   "finit_module",
    "delete_module", "kexec_load",     "kexec_file_load", "bpf",          "ptrace",
    "process_vm_writev", "process_vm_readv", "pidfd_getfd", "keyctl",     "add_key",
    "request_key",  "swapon",          "swapoff",        "reboot",        "sethostname",
    "setdomainname", "settimeofday",   "clock_settime",  "clock_adjtime", "adjtimex",
    "syslog",       "acct",            "quotactl",       "quotactl_fd",   "name_to_handle_at",
    "open_by_handle_at", "perf_event_open", "fanotify_init", "iopl",      "ioperm",
    "vhangup",      "userfaultfd"};

// ioctl requests that act on something outside the process: type into a
// terminal (TIOCSTI, TIOCLINUX), make a terminal the console or the
// controlling one, change its foreground process group or line discipline,
// choose which process gets a descriptor's SIGIO. The runtime's own requests
// (to the driver's device files) are all others.
constexpr unsigned long kHostileIoctls[] = {TIOCSTI,  TIOCLINUX, TIOCCONS, TIOCSCTTY,
                                            TIOCSPGRP, TIOCSETD, 0x8901 /* FIOSETOWN */,
                                            0x8902 /* SIOCSPGRP */};

// fcntl commands the runtime and the C library use: duplicate a descriptor,
// read and set its flags. Not F_SETOWN, F_SETSIG and the like (signals to
// another process), nor leases and notifications.
constexpr int kFcntlCommands[] = {F_DUPFD, F_DUPFD_CLOEXEC, F_GETFD, F_SETFD, F_GETFL,
                                  F_SETFL, F_GETLK};

std::string errorText(const char* what, int rc) {
  return std::string(what) + " failed: " + std::strerror(rc < 0 ? -rc : rc);
}

class Filter {
 public:
  explicit Filter(uint32_t byDefault = SCMP_ACT_ERRNO(EPERM)) : ctx_(seccomp_init(byDefault)) {}
  ~Filter() {
    if (ctx_ != nullptr) seccomp_release(ctx_);
  }
  Filter(const Filter&) = delete;
  Filter& operator=(const Filter&) = delete;

  bool ok() const { return ctx_ != nullptr && error_.empty(); }
  const std::string& error() const { return error_; }
  scmp_filter_ctx ctx() const { return ctx_; }

  template <std::size_t N>
  void add(uint32_t action, const char* const (&names)[N]) {
    for (const char* name : names) add(action, name, {});
  }

  void add(uint32_t action, const char* name, std::initializer_list<scmp_arg_cmp> args) {
    if (!error_.empty()) return;
    const int number = seccomp_syscall_resolve_name(name);
    if (number == __NR_SCMP_ERROR) return;  // not a system call on this machine
    const int rc = seccomp_rule_add_array(ctx_, action, number,
                                          static_cast<unsigned>(args.size()), args.begin());
    if (rc != 0) error_ = std::string("adding the rule for ") + name + ": " + std::strerror(-rc);
  }

  void set(enum scmp_filter_attr attribute, uint32_t value, const char* what) {
    if (!error_.empty()) return;
    const int rc = seccomp_attr_set(ctx_, attribute, value);
    if (rc != 0) error_ = errorText(what, rc);
  }

 private:
  scmp_filter_ctx ctx_;
  std::string error_;
};

}  // namespace

std::string refuseAdministrationCalls() {
  // Whatever runs next may not gain privileges through a set-user-ID program
  // either; the capabilities it has stay as they are.
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    return errorText("prctl(PR_SET_NO_NEW_PRIVS)", errno);
  }
  Filter filter(SCMP_ACT_ALLOW);
  if (filter.ctx() == nullptr) return "seccomp_init failed (out of memory?)";
  filter.set(SCMP_FLTATR_CTL_TSYNC, 1, "seccomp_attr_set(SCMP_FLTATR_CTL_TSYNC)");
  // Another architecture's numbering (int $0x80, x32) would name other calls.
  filter.set(SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS,
             "seccomp_attr_set(SCMP_FLTATR_ACT_BADARCH)");
  // Many rules (below): a binary tree, not a chain, where libseccomp can.
  (void)seccomp_attr_set(filter.ctx(), SCMP_FLTATR_CTL_OPTIMIZE, 2);
  filter.add(SCMP_ACT_ERRNO(EPERM), kAdministration);
  // Calls newer than this libseccomp (open_tree_attr, 467, Linux 6.15, is
  // open_tree and mount_setattr in one) have no name here: refused by number.
  for (int number = 0; number < 1024; ++number) {
    char* name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, number);
    if (name != nullptr) { std::free(name); continue; }
    if (seccomp_rule_add(filter.ctx(), SCMP_ACT_ERRNO(ENOSYS), number, 0) != 0) {
      return "adding a rule for the unnamed call " + std::to_string(number);
    }
  }
  // clone3 takes its flags in a structure the filter cannot read: ENOSYS, on
  // which glibc falls back to clone, whose flags it can.
  filter.add(SCMP_ACT_ERRNO(ENOSYS), "clone3", {});
  // A clone with any flag that makes a new namespace.
  for (const scmp_datum_t flag : {scmp_datum_t{CLONE_NEWNS}, scmp_datum_t{CLONE_NEWUSER},
                                  scmp_datum_t{CLONE_NEWPID}, scmp_datum_t{CLONE_NEWNET},
                                  scmp_datum_t{CLONE_NEWIPC}, scmp_datum_t{CLONE_NEWUTS},
                                  scmp_datum_t{CLONE_NEWCGROUP}}) {
    filter.add(SCMP_ACT_ERRNO(EPERM), "clone", {SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag)});
  }
  if (!filter.ok()) return "building the seccomp filter: " + filter.error();
  const int rc = seccomp_load(filter.ctx());
  if (rc != 0) return errorText("seccomp_load", rc);
  return "";
}

void detachFromTestProcess(int keepFd) {
  // Killed with the test process, whatever ends it: nothing outlives a test.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  // The test process's files (a report, a log) are not the child's.
  for (int fd = 3; fd < keepFd; ++fd) ::close(fd);
  ::close_range(static_cast<unsigned>(keepFd < 3 ? 3 : keepFd + 1), ~0U, 0);
  const int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (devNull >= 0) {
    ::dup2(devNull, STDIN_FILENO);
    if (devNull != STDIN_FILENO) ::close(devNull);
  }
}

std::string confineThisProcess(bool usesCuda) {
  // Second layer, should a call slip past the filter: no file may grow (a
  // write past the end fails with EFBIG rather than killing the child with
  // SIGXFSZ), and a user who is not root may start no process, nor thread:
  // the runtime starts its threads when it initialises, before this (the
  // config tests pass run as an unprivileged user on an H100).
  ::signal(SIGXFSZ, SIG_IGN);
  const rlimit none{0, 0};
  if (::setrlimit(RLIMIT_FSIZE, &none) != 0) return errorText("setrlimit(RLIMIT_FSIZE)", errno);
  if (::setrlimit(RLIMIT_NPROC, &none) != 0) return errorText("setrlimit(RLIMIT_NPROC)", errno);
  // Memory: neither kind of child may take the machine's memory from the
  // submissions graded beside it (RLIMIT_NPROC above does not bind root).
  // Every child gets little more data than it has now: RLIMIT_DATA counts
  // private writable memory (the heap, malloc's maps), which CUDA's own
  // mappings are not: on an H100 (CUDA 13) a process under a 256 MiB data
  // limit (and no filter) still initialised CUDA, took 1 GiB of device
  // memory, ran a kernel, and got 256 MiB of pinned and of managed memory,
  // while its malloc of 512 MiB was refused. Shared anonymous maps, which RLIMIT_DATA
  // does not count, the filter refuses (below).
  // The stack is not data either: RLIMIT_DATA leaves it out, so a child
  // started under `ulimit -s unlimited` (Slurm hands on the submitting
  // shell's limits) could recurse through gigabytes. At most 8 MiB, the
  // usual default.
  rlimit stack{};
  if (::getrlimit(RLIMIT_STACK, &stack) != 0) return errorText("getrlimit(RLIMIT_STACK)", errno);
  const rlim_t stackMost = rlim_t{8} << 20;
  if (stack.rlim_cur == RLIM_INFINITY || stack.rlim_cur > stackMost) stack.rlim_cur = stackMost;
  stack.rlim_max = stack.rlim_cur;
  if (::setrlimit(RLIMIT_STACK, &stack) != 0) return errorText("setrlimit(RLIMIT_STACK)", errno);
  const rlim_t data = sizeFromStatm(6);
  if (data == 0) return "could not read this process's size from /proc/self/statm";
  const rlimit dataLimit{data + kHeadroom, data + kHeadroom};
  if (::setrlimit(RLIMIT_DATA, &dataLimit) != 0) return errorText("setrlimit(RLIMIT_DATA)", errno);
  if (!usesCuda) {
    // A host-only child gets little more address space than it has now
    // either. A CUDA child cannot: the runtime reserves address space as it
    // goes, far more than it ever uses, which a limit would break.
    const rlim_t size = sizeFromStatm(1);
    if (size == 0) return "could not read this process's size from /proc/self/statm";
    const rlimit space{size + kHeadroom, size + kHeadroom};
    if (::setrlimit(RLIMIT_AS, &space) != 0) return errorText("setrlimit(RLIMIT_AS)", errno);
  }
  // No program the child could still reach gains privileges (set-user-ID);
  // the kernel also requires it of an unprivileged process's filter.
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    return errorText("prctl(PR_SET_NO_NEW_PRIVS)", errno);
  }

  Filter filter;
  if (filter.ctx() == nullptr) return "seccomp_init failed (out of memory?)";
  // Every thread, the runtime's helper threads included, gets the filter.
  filter.set(SCMP_FLTATR_CTL_TSYNC, 1, "seccomp_attr_set(SCMP_FLTATR_CTL_TSYNC)");
  // A system call of another architecture's numbering (int $0x80 on x86-64)
  // would name other calls: it ends the child.
  filter.set(SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS,
             "seccomp_attr_set(SCMP_FLTATR_ACT_BADARCH)");

  filter.add(SCMP_ACT_ALLOW, kMemory);
  filter.add(SCMP_ACT_ALLOW, kWaiting);
  filter.add(SCMP_ACT_ALLOW, kClocks);
  filter.add(SCMP_ACT_ALLOW, kDescriptors);
  filter.add(SCMP_ACT_ALLOW, kIdentity);
  filter.add(SCMP_ACT_ALLOW, kSignals);
  filter.add(SCMP_ACT_ALLOW, kEnding);
  filter.add(SCMP_ACT_KILL_PROCESS, kHostile);

  // No file by its path: open, openat, openat2, creat, the stat family by
  // path, access, readlink and getcwd have no rule, so they fail with the
  // default, EPERM. A child needs no file once CUDA is initialised (its
  // device files are open by then), and a file it could read (a system
  // file, the reference solution's module in the grading build) it could
  // quote in its answers.

  // clone3 takes its flags in a structure the filter cannot read: ENOSYS, on
  // which glibc falls back to clone.
  filter.add(SCMP_ACT_ERRNO(ENOSYS), "clone3", {});
  // No new thread, CUDA or not: threads would let the function take CPUs
  // from the submissions graded beside it. The call has no rule and fails
  // with the default, EPERM (pthread_create reports it). The runtime starts
  // its threads when it initialises, before this; the config tests passed
  // on an H100 as an unprivileged user, whom RLIMIT_NPROC 0 gives no new
  // thread either. A clone without CLONE_THREAD is a new process: hostile.
  filter.add(SCMP_ACT_KILL_PROCESS, "clone", {SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0)});

  // Signals to itself only (abort() and raise() use tgkill, kill(getpid())
  // is allowed): never to the test process, its group or anyone else.
  const auto self = static_cast<scmp_datum_t>(::getpid());
  filter.add(SCMP_ACT_ALLOW, "kill", {SCMP_A0(SCMP_CMP_EQ, self)});
  filter.add(SCMP_ACT_ALLOW, "tgkill", {SCMP_A0(SCMP_CMP_EQ, self)});
  // mmap, but no shared anonymous memory: RLIMIT_DATA counts only private
  // maps, so a shared one would be memory without a limit. A map of a file
  // (the runtime's device files) and a private anonymous one are allowed;
  // MAP_SHARED_VALIDATE has MAP_SHARED's bit too. The driver maps pinned
  // memory shared and anonymous, so a confined child gets none (on an H100,
  // cudaMallocHost reports cudaErrorMemoryAllocation): device and managed
  // memory still work (GpuConfinedChild.CudaMemoryWorksWithinItsLimits), and
  // no config exercise needs pinned memory. Nor MAP_GROWSDOWN: the kernel
  // counts such a map as stack, outside RLIMIT_DATA, and RLIMIT_STACK binds
  // only the main thread's own stack (3 GiB taken that way in a confined
  // CUDA child, whose test then passed, before this rule).
  filter.add(SCMP_ACT_ALLOW, "mmap",
             {SCMP_A3(SCMP_CMP_MASKED_EQ, MAP_ANONYMOUS | MAP_GROWSDOWN, 0)});
  filter.add(SCMP_ACT_ALLOW, "mmap",
             {SCMP_A3(SCMP_CMP_MASKED_EQ, MAP_ANONYMOUS | MAP_SHARED | MAP_GROWSDOWN,
                      MAP_ANONYMOUS)});
  // Limits may be read, not set (prlimit64 with no new limit).
  filter.add(SCMP_ACT_ALLOW, "prlimit64", {SCMP_A2(SCMP_CMP_EQ, 0)});

  for (const int command : kFcntlCommands) {
    filter.add(SCMP_ACT_ALLOW, "fcntl",
               {SCMP_A1(SCMP_CMP_EQ, static_cast<scmp_datum_t>(command))});
  }
  // ioctl: the hostile requests end the child, compared on the low 32 bits
  // the kernel reads; every other request is allowed (the two ranges below
  // cover all values; the hostile rules are matched first).
  for (const unsigned long request : kHostileIoctls) {
    filter.add(SCMP_ACT_KILL_PROCESS, "ioctl",
               {SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffUL, request)});
  }
  filter.add(SCMP_ACT_ALLOW, "ioctl", {SCMP_A1(SCMP_CMP_LT, TIOCSCTTY)});
  filter.add(SCMP_ACT_ALLOW, "ioctl", {SCMP_A1(SCMP_CMP_GE, TIOCSCTTY)});

  if (!filter.ok()) return "building the seccomp filter: " + filter.error();
  const int rc = seccomp_load(filter.ctx());
  if (rc != 0) return errorText("seccomp_load", rc);
  return "";
}

}  // namespace wb
