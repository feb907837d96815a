"""Runs student code confined, with bubblewrap (`bwrap`).

Every compile of an exercise file and every run of a student's tests during
grading goes through `command()`, which wraps an argv in a bwrap sandbox:

  - a new root holding only a read-only view of the system's tool folders
    (/usr, /opt, /usr/local, the /bin, /sbin, /lib* links or folders as this
    machine has them) and the few /etc files compilers and the CUDA runtime
    read; never /root, /home or the work folder;
  - the caller's `read_only` paths (the exercise file, chapters/, a build
    folder...) and `writable` paths (an output folder), each at its own
    absolute path, and nothing else of the file system;
  - new namespaces of every kind (--unshare-all): no network (only a
    loopback device of its own), no view of other processes, and when the
    command ends the sandbox's process 1 ends with it and the kernel kills
    every process left inside, so nothing outlives it;
  - --die-with-parent (the grader stopping stops the sandbox), --new-session
    (no terminal to push input into: TIOCSTI), a private /tmp, its own /proc
    and a minimal /dev (null, zero, random, tty...), plus the GPU's device
    files with gpu=True;
  - --clearenv: only the given environment, PATH, HOME=/tmp and LANG;
  - --cap-drop ALL: run as root, bubblewrap would keep every capability
    inside, and with them a process may remount a read-only bind
    read-write. One exception: a run that profiles (profiling=True, the
    perf and profile tests) keeps CAP_SYS_ADMIN where the NVIDIA driver lets
    only administrators read the GPU's counters
    (RmProfilingAdminOnly: 1 in /proc/driver/nvidia/params, the driver's
    default, set by NVreg_RestrictProfilingToAdminUsers) and the grader
    runs as root, since Nsight Compute needs it there. That run's command
    then starts under
    bin/wb_without_admin_calls (tests/harness/tools), whose seccomp filter
    refuses, in it and everything it starts, what the capability would
    allow: mounts, namespaces, kernel modules, BPF, tracing (wb/confine.h).
    Its student code is device code only besides (a host exercise runs in
    a seccomp-confined child of its own).

`limits()` gives the resource limits (CPU seconds, address space, file size,
processes) as a preexec_fn; the wall-clock limit stays with the caller
(subprocess's timeout, cmake/compile_with_limits.py's --wall-seconds).

The sandbox needs bubblewrap (Debian/Ubuntu package `bubblewrap`; or the
program named by the environment variable WB_BWRAP) and user namespaces
(root, or unprivileged user namespaces allowed by the kernel).
`available()` says whether it starts here and, if not, why.

Python 3.8+, standard library only, Linux only.
"""
import functools
import os
import resource
import shutil
import subprocess

__all__ = ["Unavailable", "available", "command", "limits", "bwrap_path"]


class Unavailable(RuntimeError):
    """The sandbox cannot start on this machine (see available())."""


# Top-level names that are links into /usr on a merged-/usr system (Debian 12,
# Ubuntu 24.04) and folders on older ones: recreated as the same links, or
# bound read-only where they are folders.
SYSTEM_LINKS_OR_FOLDERS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
# Folders of programs and libraries: the compilers (/usr/bin, /usr/lib/gcc),
# the CUDA toolkit (/usr/local/cuda), the driver's libraries
# (/usr/local/nvidia/lib64 on the GPU machines), Nsight tools (/opt/nvidia).
SYSTEM_FOLDERS = ("/usr", "/usr/local", "/opt")
# The /etc files a compile or a CUDA program reads, found by trying:
# ld.so.cache and ld.so.conf(.d): where the dynamic loader finds libraries
# outside the default folders (the CUDA toolkit's and the driver's);
# alternatives: the links some tools' names go through (cc, c++ on Debian);
# localtime: the time zone, for tools that print times. Nothing else of /etc:
# not even passwd (HOME is set, so nothing needs to look the user up), which
# an exercise file could otherwise include and have a compile error quote.
ETC_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
             "/etc/localtime")
# The size of the private /tmp, in MB: room for a compile's temporary files
# (nvcc's intermediate files; the preprocessed source, which the compile
# limits cap at WB_COMPILE_FILE_MB) and the tools' reports.
TMP_MB = 1024
# The GPU's device files (driver, unified memory, MIG capabilities).
GPU_DEVICE_PREFIX = "nvidia"
GPU_CAPS = "/dev/nvidia-caps"
# Where the NVIDIA driver says whether only administrators may profile.
NVIDIA_PARAMS = "/proc/driver/nvidia/params"

HOW_TO_ENABLE = (
    "install bubblewrap (Debian/Ubuntu: `apt-get install bubblewrap`; or point the "
    "environment variable WB_BWRAP at a bwrap program), and allow user namespaces "
    "(run as root, or `sysctl kernel.unprivileged_userns_clone=1` on Debian, "
    "`sysctl user.max_user_namespaces=15000`, and on Ubuntu 24.04 "
    "`sysctl kernel.apparmor_restrict_unprivileged_userns=0`)")


def bwrap_path():
    """The bwrap program: $WB_BWRAP if set, else `bwrap` on PATH, else None."""
    named = os.environ.get("WB_BWRAP")
    if named:
        return named if os.access(named, os.X_OK) else None
    return shutil.which("bwrap")


@functools.lru_cache(maxsize=None)
def _probe(bwrap):
    try:
        done = subprocess.run(_sandbox_args(bwrap, (), (), False, None, {}, True) + ["true"],
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as err:
        return False, f"{bwrap} could not be run: {err}"
    if done.returncode != 0:
        said = done.stdout.decode("utf-8", "replace").strip()
        return False, f"{bwrap} could not start a sandbox here ({said or 'exit status ' + str(done.returncode)})"
    return True, f"sandbox by {bwrap}"


def available():
    """(True, what runs it) when bwrap starts a sandbox here; else (False,
    why, and how to enable it). Tried once per bwrap program."""
    bwrap = bwrap_path()
    if bwrap is None:
        named = os.environ.get("WB_BWRAP")
        why = (f"WB_BWRAP names {named}, which is not an executable program" if named
               else "bwrap (bubblewrap) is not installed (not found on PATH)")
        return False, f"{why}; to confine student code, {HOW_TO_ENABLE}"
    ok, said = _probe(bwrap)
    if ok:
        return True, said
    return False, f"{said}; to confine student code, {HOW_TO_ENABLE}"


@functools.lru_cache(maxsize=None)
def _knows_size(bwrap):
    try:
        said = subprocess.run([bwrap, "--help"], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "--size" in said.stdout + said.stderr


def _gpu_devices():
    try:
        names = sorted(os.listdir("/dev"))
    except OSError:
        return []
    return [f"/dev/{n}" for n in names if n.startswith(GPU_DEVICE_PREFIX)]


# The parts of /proc that change the machine rather than show a process:
# bound read-only over the sandbox's own /proc.
PROC_READ_ONLY = ("/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus")

# The names under which /proc/driver/nvidia/params shows the driver's
# "profiling by administrators only" setting: RmProfilingAdminOnly (the
# driver 580 on an H100 shows this one; the module option that sets it is
# NVreg_RestrictProfilingToAdminUsers, which older documents use for both).
PROFILING_ADMIN_KEYS = ("RmProfilingAdminOnly", "RestrictProfilingToAdminUsers")


def profiling_needs_admin(params=None):
    """Whether the NVIDIA driver lets only administrators read the GPU's
    performance counters (PROFILING_ADMIN_KEYS: 1 in its parameters);
    False where the file is missing or unreadable (no NVIDIA driver)."""
    try:
        with open(params or NVIDIA_PARAMS, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                key, _, value = line.partition(":")
                if key.strip() in PROFILING_ADMIN_KEYS:
                    return value.strip() == "1"
    except OSError:
        pass
    return False


def keeps_admin(gpu, profiling):
    """Whether a run keeps CAP_SYS_ADMIN: it profiles on the GPU, as root,
    where the driver keeps the counters to administrators."""
    return bool(gpu and profiling and os.geteuid() == 0 and profiling_needs_admin())


def _sandbox_args(bwrap, read_only, writable, gpu, cwd, env, tmp, keep_admin=False):
    args = [bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
    if keep_admin:
        args += ["--cap-add", "CAP_SYS_ADMIN"]
    for name in SYSTEM_LINKS_OR_FOLDERS:
        path = "/" + name
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    for path in SYSTEM_FOLDERS + ETC_FILES:
        args += ["--ro-bind-try", path, path]
    args += ["--proc", "/proc", "--dev", "/dev"]
    # The new /proc still holds the machine's kernel settings, and the
    # sandbox's root is the machine's root when the grader runs as root:
    # without these, a process inside could set kernel.core_pattern (a
    # program the kernel runs as root outside) with no capability at all.
    for path in PROC_READ_ONLY:
        args += ["--ro-bind-try", path, path]
    if gpu:
        for device in _gpu_devices():
            args += ["--dev-bind", device, device]
    if tmp:
        # In memory: sized, so that filling it cannot fill the machine's
        # (bubblewrap 0.7 and newer; Ubuntu 22.04's 0.6 has no --size).
        if _knows_size(bwrap):
            args += ["--size", str(TMP_MB * 1024 * 1024)]
        args += ["--tmpfs", "/tmp"]
    if cwd is not None:
        # The folder to start in exists even where nothing of it is bound
        # (a compile run from a build folder it may not see): an empty one,
        # which a bind below covers where one is given.
        args += ["--dir", os.path.abspath(cwd)]
    # The caller's paths, parents before what lies inside them, so that a
    # writable folder inside a read-only one (build/Testing in build) stays
    # writable, and a read-only file inside a writable folder stays read-only.
    binds = [(os.path.abspath(p), "--ro-bind") for p in read_only]
    binds += [(os.path.abspath(p), "--bind") for p in writable]
    binds.sort(key=lambda b: (b[0].rstrip("/").count("/"), b[0]))
    for path, how in binds:
        args += [how, path, path]
    # The new root is an in-memory folder holding the mount points: made
    # read-only, so that only /tmp and the writable paths can be written.
    args += ["--remount-ro", "/", "--clearenv"]
    full_env = {"PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
                "HOME": "/tmp", "LANG": "C.UTF-8"}
    full_env.update(env or {})
    for key, value in full_env.items():
        args += ["--setenv", key, str(value)]
    if cwd is not None:
        args += ["--chdir", os.path.abspath(cwd)]
    return args + ["--"]


def command(argv, *, read_only=(), writable=(), gpu=False, cwd=None, env=None, tmp=True,
            unconfined=False, profiling=False, admin_guard=None):
    """The argv that runs `argv` in a sandbox (see the module's text).

    read_only, writable: paths bound at their own absolute path (each must
    exist); gpu: bind the GPU's device files; cwd: the folder the command
    starts in (inside the sandbox; default: the caller's, when visible);
    env: the only variables it sees, besides PATH, HOME=/tmp and LANG (which
    env may override); tmp: a private, empty /tmp. unconfined=True returns
    argv unchanged (the explicit opt-out); profiling: the run reads the
    GPU's counters (Nsight Compute), so it keeps CAP_SYS_ADMIN where the
    driver requires it (see the module's text), and then runs argv under
    admin_guard, the path of wb_without_admin_calls, which must be visible
    in the sandbox. Raises Unavailable when the sandbox cannot start here,
    or when the run would keep the capability without a guard."""
    argv = [str(a) for a in argv]
    if unconfined:
        return argv
    ok, why = available()
    if not ok:
        raise Unavailable(why)
    keep_admin = keeps_admin(gpu, profiling)
    if keep_admin:
        if admin_guard is None or not os.access(str(admin_guard), os.X_OK):
            raise Unavailable(
                "this run profiles as root where the NVIDIA driver keeps the GPU's counters to "
                "administrators, so it keeps CAP_SYS_ADMIN, but the launcher that takes the "
                f"capability's other powers away is missing ({admin_guard or 'none given'}): "
                "build the target wb_without_admin_calls")
        argv = [os.path.abspath(str(admin_guard)), *argv]
        read_only = [*read_only, argv[0]]   # bound where it is, read-only
    return _sandbox_args(bwrap_path(), [str(p) for p in read_only], [str(p) for p in writable],
                         gpu, cwd, env, tmp, keep_admin) + argv


# Seconds past the soft CPU limit (SIGXCPU) before the hard one (SIGKILL).
CPU_HARD_GRACE = 2


def _capped(requested, kind):
    """The requested value, never above the current hard limit (an
    unprivileged process may not raise it)."""
    _, hard = resource.getrlimit(kind)
    if hard != resource.RLIM_INFINITY:
        requested = min(requested, hard)
    return requested


def limits(cpu_seconds=0, memory_mb=0, file_mb=0, processes=0):
    """A preexec_fn that sets the child's resource limits, which every
    process it starts inherits; 0 leaves a limit as it is.

    cpu_seconds: RLIMIT_CPU per process (SIGXCPU at the limit, SIGKILL
    CPU_HARD_GRACE s later); memory_mb: RLIMIT_AS, address space per
    process; file_mb: RLIMIT_FSIZE, the largest file a process may write;
    processes: RLIMIT_NPROC, counted per user; the kernel does not apply it
    to root, in the sandbox's user namespace either (80 processes started
    under a limit of 50 as root), so it binds only a grader run as another
    user."""
    plan = []
    if file_mb:
        value = _capped(file_mb * 1024 * 1024, resource.RLIMIT_FSIZE)
        plan.append((resource.RLIMIT_FSIZE, (value, value)))
    if memory_mb:
        value = _capped(memory_mb * 1024 * 1024, resource.RLIMIT_AS)
        plan.append((resource.RLIMIT_AS, (value, value)))
    if cpu_seconds:
        soft = _capped(cpu_seconds, resource.RLIMIT_CPU)
        hard = _capped(cpu_seconds + CPU_HARD_GRACE, resource.RLIMIT_CPU)
        plan.append((resource.RLIMIT_CPU, (soft, max(soft, hard))))
    if processes:
        value = _capped(processes, resource.RLIMIT_NPROC)
        plan.append((resource.RLIMIT_NPROC, (value, value)))

    def apply():
        for kind, values in plan:
            resource.setrlimit(kind, values)
    return apply
