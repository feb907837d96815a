#!/usr/bin/env python3
"""Runs one compiler command under limits, and says which limit it hit.

    python3 cmake/compile_with_limits.py --memory-mb 2560 --cpu-seconds 60 \\
        --wall-seconds 180 [--file-mb 1024] --name reduction/reduceSmem -- nvcc ...args

An exercise file is untrusted: a macro or template bomb can hold a compiler
(and the grading machine's memory) for an hour. This launcher runs the
command in a session of its own with

  - RLIMIT_AS (address space) of --memory-mb in every process of the
    compile (nvcc's cudafe++, cicc, ptxas... each inherit it);
  - RLIMIT_CPU of --cpu-seconds in every process: the kernel sends SIGXCPU at
    the limit and SIGKILL a little later;
  - a wall-clock limit of --wall-seconds for the whole command, after which
    the whole process group is killed;
  - RLIMIT_FSIZE of --file-mb: no file the compile writes (the preprocessed
    source in the temporary folder, the output) may grow past it, so a bomb
    cannot fill the disk (a pristine exercise's largest file, its
    preprocessed source, is under 2 MB);

passes the command's standard output and error through, and exits with the
command's status (128 + N when it died by signal N, 124 when the wall-clock
limit stopped it). When a limit was hit it adds one line on standard error:

    LIMIT: compiling reduction/reduceSmem used more than 60 s of CPU time (...)

naming the exercise, the limit and its value, and the CMake cache variable
that sets it (WB_COMPILE_MEMORY_MB, WB_COMPILE_CPU_SECONDS,
WB_COMPILE_WALL_SECONDS; --file-mb has no cache variable yet). A limit of 0
means none.

Python 3.8+, standard library only, POSIX only.
"""
import argparse
import os
import re
import resource
import signal
import subprocess
import sys
import threading
import time

# What a pristine exercise takes to compile (nvcc -fatbin for sm_90, measured
# on a 2-core machine): about 1.2 s of CPU time and a peak resident set of
# about 125 MB; it still compiles under a 200 MB address-space limit. The
# LIMIT message says how many times this a limit is.
PRISTINE_CPU_SECONDS = 1.2
PRISTINE_MEMORY_MB = 125

# Messages of a program that ran out of memory: EDG's front end (cudafe++:
# "catastrophic error: out of memory"), LLVM (cicc: "LLVM ERROR: out of
# memory"), cc1plus ("out of memory allocating N bytes", "virtual memory
# exhausted"), ptxas and nvlink ("Memory allocation failure"), an uncaught
# std::bad_alloc, strerror(ENOMEM), Python's MemoryError. Precise enough that
# a source line the compiler echoes is unlikely to match by accident.
OUT_OF_MEMORY_RE = re.compile(
    r"error\s*:\s*out of memory|ERROR:\s*out of memory|: out of memory allocating|"
    r"virtual memory exhausted|memory exhausted|std::bad_alloc|Cannot allocate memory|"
    r"[Mm]emory allocation fail|\bMemoryError\b|insufficient memory")
# Looser wording, trusted only with a peak resident set of at least
# OOM_TEXT_SHARE of the limit.
OUT_OF_MEMORY_LOOSE_RE = re.compile(r"out of memory|unable to allocate|failed to allocate|"
                                    r"allocation failed|not enough memory", re.IGNORECASE)
# A compiler driver reporting that one of its programs died of a signal:
# nvcc ("'cicc' died due to signal 9 (Kill signal)"), by number, or gcc
# ("Killed signal terminated program cc1plus"), by strsignal()'s name.
CHILD_SIGNAL_NUMBER_RE = re.compile(r"(?:died due to|terminated by|killed by) signal (\d+)")
CHILD_SIGNAL_NAMES = {"Killed": signal.SIGKILL, "CPU time limit exceeded": signal.SIGXCPU,
                      "File size limit exceeded": signal.SIGXFSZ,
                      "Segmentation fault": signal.SIGSEGV, "Aborted": signal.SIGABRT,
                      "Bus error": signal.SIGBUS}
# A program that hit the file-size limit (SIGXFSZ's and EFBIG's texts).
FILE_LIMIT_RE = re.compile(r"File size limit exceeded|File too large")
# A process killed by one of these near the memory limit most likely ran out
# of it (allocators that do not check, the kernel's OOM killer).
MEMORY_DEATH_SIGNALS = (signal.SIGKILL, signal.SIGSEGV, signal.SIGABRT, signal.SIGBUS)
# "Near the memory limit": a peak resident set of at least this share of it,
# for a process that died silently ...
NEAR_MEMORY_LIMIT = 0.5
# ... and at least this share for one whose message only loosely says it ran
# out of memory (an address-space limit is often hit with much less memory
# resident: one large request is refused).
OOM_TEXT_SHARE = 0.1
# A CPU-limit verdict needs the command's processes to have used at least
# this share of the limit (rusage's accounting is not exact to the tick).
CPU_USED_SHARE = 0.95
# Seconds past the soft CPU limit (SIGXCPU) before the hard one (SIGKILL).
CPU_HARD_GRACE = 2
# Output kept for recognizing out-of-memory messages.
TAIL_BYTES = 64 * 1024
WALL_TIMEOUT_STATUS = 124


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Run a compiler command under memory, CPU-time, wall-clock and "
                    "file-size limits.",
        usage="%(prog)s [--memory-mb N] [--cpu-seconds N] [--wall-seconds N] "
              "[--file-mb N] [--name SECTION/EXERCISE] -- COMMAND [ARGS...]")
    parser.add_argument("--memory-mb", type=int, default=2560,
                        help="address space per process, in MB (0: no limit)")
    parser.add_argument("--cpu-seconds", type=int, default=60,
                        help="CPU seconds per process (0: no limit)")
    parser.add_argument("--wall-seconds", type=int, default=180,
                        help="seconds for the whole command (0: no limit)")
    parser.add_argument("--file-mb", type=int, default=1024,
                        help="largest file a process may write, in MB (0: no limit)")
    parser.add_argument("--name", default="",
                        help="the exercise being compiled (section/name), for the message")
    if "--" not in argv:
        parser.error("the command to run must follow `--`")
    split = argv.index("--")
    args = parser.parse_args(argv[:split])
    args.command = argv[split + 1:]
    if not args.command:
        parser.error("no command after `--`")
    for option in ("memory_mb", "cpu_seconds", "wall_seconds", "file_mb"):
        if getattr(args, option) < 0:
            parser.error(f"--{option.replace('_', '-')} must be 0 (no limit) or more")
    return args


def _capped(requested, kind):
    """(soft, hard) for setrlimit: the requested value, never above the
    current hard limit (an unprivileged process may not raise it)."""
    _, hard = resource.getrlimit(kind)
    if hard != resource.RLIM_INFINITY:
        requested = min(requested, hard)
    return requested


def limits_setter(memory_mb, cpu_seconds, file_mb=0):
    """The child's preexec_fn: set its limits (inherited by its children)."""
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

    def apply():
        for kind, values in plan:
            resource.setrlimit(kind, values)
    return apply


def _times(count):
    return f", about {count:.0f} times what a pristine exercise takes" if count >= 2 else ""


def limit_message(name, which, value):
    """The LIMIT line for the limit `which` ("memory", "cpu", "wall")."""
    what = f"compiling {name}" if name else "the compiler"
    if which == "memory":
        return (f"LIMIT: {what} used more than {value} MB of memory (the limit for one "
                f"exercise file{_times(value / PRISTINE_MEMORY_MB)}); simplify the file "
                f"(a macro or template that expands to a huge program?), or raise "
                f"WB_COMPILE_MEMORY_MB")
    if which == "file":
        return (f"LIMIT: {what} wrote a file larger than {value} MB (the limit for one "
                f"file of one exercise's compile; a pristine exercise's largest is under "
                f"2 MB); simplify the file (a macro that expands to a huge program?), or "
                f"raise the launcher's --file-mb (WB_COMPILE_LIMITS in "
                f"cmake/WorkbookSections.cmake)")
    if which == "cpu":
        return (f"LIMIT: {what} used more than {value} s of CPU time (the limit for one "
                f"exercise file{_times(value / PRISTINE_CPU_SECONDS)}); simplify the file, "
                f"or raise WB_COMPILE_CPU_SECONDS")
    return (f"LIMIT: {what} took more than {value} s (the wall-clock limit for one "
            f"exercise file{_times(value / PRISTINE_CPU_SECONDS)}); simplify the file, or "
            f"raise WB_COMPILE_WALL_SECONDS (on a busy machine, build with fewer jobs)")


class _Tail:
    """The last TAIL_BYTES of both output streams, filled by two threads."""

    def __init__(self):
        self._data = bytearray()
        self._lock = threading.Lock()

    def extend(self, chunk):
        with self._lock:
            self._data.extend(chunk)
            if len(self._data) > TAIL_BYTES:
                del self._data[:len(self._data) - TAIL_BYTES]

    def text(self):
        with self._lock:
            return bytes(self._data).decode("utf-8", "replace")


def _pump(source, sink, tail):
    """Copy a pipe to one of our streams as it comes, keeping its tail."""
    try:
        while True:
            chunk = os.read(source.fileno(), 65536)
            if not chunk:
                break
            try:
                sink.write(chunk)
                sink.flush()
            except (OSError, ValueError):
                pass
            tail.extend(chunk)
    except OSError:
        pass


def _kill_group(pgid):
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def diagnose(args, status, signum, timed_out, cpu_seconds, maxrss_mb, output):
    """Which limit the command hit ("memory", "cpu", "wall"), or None.

    The output alone is not trusted (a compiler echoes the source line of an
    error, which may say anything): a CPU verdict needs the command's
    processes to have used the CPU time; a memory verdict needs a precise
    out-of-memory message, or a loose one with a peak resident set well above
    a pristine compile's, or a death by signal near the limit."""
    if timed_out:
        return "wall"
    if status == 0:
        return None
    child_signals = {int(n) for n in CHILD_SIGNAL_NUMBER_RE.findall(output)}
    child_signals |= {int(number) for name, number in CHILD_SIGNAL_NAMES.items()
                      if name in output}
    if args.file_mb and (signum == signal.SIGXFSZ or int(signal.SIGXFSZ) in child_signals
                         or FILE_LIMIT_RE.search(output)):
        # (An echoed source line could say so too; only a student's own
        # misleading text would, which misleads no one else.)
        return "file"
    if args.cpu_seconds and cpu_seconds >= CPU_USED_SHARE * args.cpu_seconds:
        # A process past its CPU limit gets SIGXCPU, then SIGKILL.
        if (signum in (signal.SIGXCPU, signal.SIGKILL)
                or {int(signal.SIGXCPU), int(signal.SIGKILL)} & child_signals):
            return "cpu"
    if args.memory_mb:
        if OUT_OF_MEMORY_RE.search(output):
            return "memory"
        if (OUT_OF_MEMORY_LOOSE_RE.search(output)
                and maxrss_mb >= OOM_TEXT_SHARE * args.memory_mb):
            return "memory"
        died = (signum in MEMORY_DEATH_SIGNALS
                or any(int(s) in child_signals for s in MEMORY_DEATH_SIGNALS))
        if died and maxrss_mb >= NEAR_MEMORY_LIMIT * args.memory_mb:
            return "memory"
    return None


def run(args):
    """Run the command under the limits; returns the exit status to use."""
    started = time.monotonic()
    try:
        proc = subprocess.Popen(args.command, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                preexec_fn=limits_setter(args.memory_mb, args.cpu_seconds,
                                                         args.file_mb),
                                start_new_session=True)
    except OSError as err:
        print(f"compile_with_limits.py: cannot run {args.command[0]}: {err}", file=sys.stderr)
        return 127
    pgid = proc.pid   # leader of its own session and process group

    # Stopping the build (Ctrl-C, ninja killed) must stop the compile too,
    # which sits in a session of its own where the terminal cannot reach it.
    def stop(signum, _frame):
        _kill_group(pgid)
        sys.exit(128 + signum)
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, stop)

    tail = _Tail()
    out = getattr(sys.stdout, "buffer", sys.stdout)
    err = getattr(sys.stderr, "buffer", sys.stderr)
    pumps = [threading.Thread(target=_pump, args=(proc.stdout, out, tail), daemon=True),
             threading.Thread(target=_pump, args=(proc.stderr, err, tail), daemon=True)]
    for t in pumps:
        t.start()

    timed_out = False
    deadline = started + args.wall_seconds if args.wall_seconds else None
    rusage = None
    while True:
        try:
            pid, wstatus, rusage = os.wait4(proc.pid, os.WNOHANG if deadline else 0)
        except ChildProcessError:
            wstatus = 0
            break
        if pid == proc.pid:
            break
        if deadline and time.monotonic() >= deadline:
            timed_out = True
            _kill_group(pgid)
            _, wstatus, rusage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.05)
    proc.returncode = 0   # reaped by os.wait4 above; keep Popen from waiting
    # Whatever the command left running in its group goes with it.
    _kill_group(pgid)
    for t in pumps:
        t.join(timeout=5)
    if not any(t.is_alive() for t in pumps):
        proc.stdout.close()
        proc.stderr.close()

    if os.WIFSIGNALED(wstatus):
        signum = os.WTERMSIG(wstatus)
        status = 128 + signum
    else:
        signum = None
        status = os.WEXITSTATUS(wstatus)
    if timed_out:
        status = WALL_TIMEOUT_STATUS
    cpu = (rusage.ru_utime + rusage.ru_stime) if rusage else 0.0
    maxrss_mb = (rusage.ru_maxrss / 1024.0) if rusage else 0.0   # ru_maxrss is in KB
    which = diagnose(args, status, signum, timed_out, cpu, maxrss_mb,
                     tail.text())
    if which:
        value = {"memory": args.memory_mb, "cpu": args.cpu_seconds,
                 "wall": args.wall_seconds, "file": args.file_mb}[which]
        try:
            err.flush()
        except (OSError, ValueError):
            pass
        print(limit_message(args.name, which, value), file=sys.stderr, flush=True)
        if status == 0:
            status = 1
    return status


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
