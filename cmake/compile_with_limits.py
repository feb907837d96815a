#!/usr/bin/env python3
"""Runs one compiler command under limits, and says which limit it hit.

    PYTHONPATH=. python3 cmake/compile_with_limits.py --memory-mb 2560 --cpu-seconds 60 \\
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

passes the command's standard output and error on (collected in files, not
pipes: `#include "/proc/self/fd/1"` would wait on a pipe forever), and exits
with the command's status (128 + N when it died by signal N, 124 when the wall-clock
limit stopped it). When a limit was hit it adds one line on standard error:

    LIMIT: compiling reduction/reduceSmem used more than 60 s of CPU time (...)

naming the exercise, the limit and its value, and the CMake cache variable
that sets it (WB_COMPILE_MEMORY_MB, WB_COMPILE_CPU_SECONDS,
WB_COMPILE_WALL_SECONDS; --file-mb has no cache variable yet). A limit of 0
means none.

With --check-includes (the grader's builds: WB_CHECK_INCLUDES) the compiler
also lists every file it opens (GCC's -H, through nvcc to each of its
preprocessor runs), and the compile is refused when it read, or failed to
find but this machine has, a file outside the exercise file (--source), the
--allow folders (chapters/) and the compiler's own include folders (the
system compiler's, the CUDA toolkit's, the command's -I folders): then the
only output is one line

    REFUSED: starter/reduction/reduceSmem.cu includes /etc/passwd, which ...

and nothing the compiler said (it could quote that file); the output file is
removed. The preprocessor decides what a directive is (a directive split by
a backslash and a space, or by a comment, is what it joins it into), not a
reading of lines. With --sandbox (WB_SANDBOX_COMPILES) the compiler also runs
in the sandbox of wbcore/sandbox.py, seeing the system's and the toolkit's
folders, the --allow folders and the --source file, read-only, and writing
only its outputs' folders: a file outside is simply absent. A diagnostic
that names a file outside the allowed set (the assembler's, EDG's, GCC's)
is refused the same way.

A checked host exercise (the C++ compiler making an object: -c, not nvcc)
takes three passes, each under the same limits and in the same sandbox:
the preprocessor alone, whose line markers must name only allowed files
(`#line 3 "/etc/passwd"` makes each diagnostic on that line quote line 3
of it); that preprocessed text compiled to assembly (-S), which must hold
no asm statement (GCC's #APP marker) and no assembler directive that reads
a file or makes directives (.incbin, .include, macros, also when split by
a /* */ comment; a section or symbol name can smuggle them): a host
exercise is plain C++; only then that assembly assembled into the object. All three run
without the caret display (-fno-diagnostics-show-caret), which quotes the
source line a diagnostic names.

Python 3.8+, standard library only, POSIX only (--sandbox: Linux, bubblewrap).
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

# Run by ninja with the build's Python, from the build folder: the build puts
# the repository's root, where wbcore is, on PYTHONPATH (WB_COMPILE_LIMITS).
from wbcore import sandbox

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
    parser.add_argument("--sandbox", action="store_true",
                        help="run the compiler in the sandbox (wbcore/sandbox.py) and refuse "
                             "a compile that read a file outside the exercise file, the "
                             "--allow folders and the compiler's own include folders")
    parser.add_argument("--check-includes", action="store_true",
                        help="refuse a compile that read a file outside the exercise file, the "
                             "--allow folders and the compiler's own include folders, without "
                             "the sandbox (--sandbox implies it)")
    parser.add_argument("--source", default="",
                        help="the exercise file (with --sandbox: the one file of its folder "
                             "the compiler sees)")
    parser.add_argument("--allow", action="append", default=[],
                        help="with --sandbox: a folder the compile may read and include "
                             "from (repeatable)")
    if "--" not in argv:
        parser.error("the command to run must follow `--`")
    split = argv.index("--")
    args = parser.parse_args(argv[:split])
    args.command = argv[split + 1:]
    if not args.command:
        parser.error("no command after `--`")
    args.check_includes = args.check_includes or args.sandbox
    if args.check_includes and not args.source:
        parser.error("--sandbox and --check-includes need --source (the exercise file)")
    for option in ("memory_mb", "cpu_seconds", "wall_seconds", "file_mb"):
        if getattr(args, option) < 0:
            parser.error(f"--{option.replace('_', '-')} must be 0 (no limit) or more")
    return args


def limits_setter(memory_mb, cpu_seconds, file_mb=0):
    """The child's preexec_fn: set its limits (inherited by its children)."""
    return sandbox.limits(cpu_seconds=cpu_seconds, memory_mb=memory_mb, file_mb=file_mb)


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


def _option_value(command, *names):
    """The value of the last of these options in a compiler command
    (`-o X`, `-oX`, `--output-file=X`), or None."""
    found = None
    for i, arg in enumerate(command):
        for name in names:
            if arg == name and i + 1 < len(command):
                found = command[i + 1]
            elif name.startswith("--") and arg.startswith(name + "="):
                found = arg[len(name) + 1:]
            elif not name.startswith("--") and arg.startswith(name) and len(arg) > len(name):
                found = arg[len(name):]
    return found


def _is_nvcc(command):
    return os.path.basename(command[0]).startswith("nvcc")


def _header_flag(command):
    """The flag that makes the compiler list each file it includes (GCC's
    -H, through nvcc to each of its preprocessor runs)."""
    return ["-Xcompiler=-H"] if _is_nvcc(command) else ["-H"]


def _toolkit_include_folders(nvcc):
    toolkit = os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    folders = [os.path.join(toolkit, "include")]
    targets = os.path.join(toolkit, "targets")
    if os.path.isdir(targets):
        folders += [os.path.join(targets, t, "include") for t in sorted(os.listdir(targets))]
    return folders


def system_include_folders(command):
    """The folders the compile may include from besides the exercise's own:
    those the command names (-I, -isystem: the build's, not the student's),
    the CUDA toolkit's (some systems link its headers into
    /usr/local/include), and the folders the system C++ compiler searches
    (asked with -v)."""
    folders = []
    for i, arg in enumerate(command[1:], 1):
        for flag in ("-I", "-isystem", "-iquote", "-idirafter"):
            if arg == flag and i + 1 < len(command):
                folders.append(command[i + 1])
            elif arg.startswith(flag) and len(arg) > len(flag) and flag == "-I":
                folders.append(arg[2:])
    host = command[0]
    nvccs = [shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"]
    if _is_nvcc(command):
        nvccs.insert(0, shutil.which(command[0]) or command[0])
        host = _option_value(command, "-ccbin", "--compiler-bindir") or "g++"
        if os.path.isdir(host):
            host = os.path.join(host, "g++")
    for nvcc in nvccs:
        if nvcc and os.path.exists(nvcc):
            folders += _toolkit_include_folders(nvcc)
    try:
        said = subprocess.run([host, "-xc++", "-E", "-v", os.devnull], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              errors="replace", timeout=60).stderr
    except (OSError, subprocess.TimeoutExpired):
        said = ""
    listing = False
    for line in said.splitlines():
        if line.startswith("#include <...> search starts here"):
            listing = True
        elif line.startswith("End of search list"):
            listing = False
        elif listing and line.startswith(" "):
            folders.append(line.strip())
    return folders


def _inside(path, folders):
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


def allowed_include(path, cwd, allowed_files, allowed_folders):
    """Whether a file the preprocessor read is one an exercise may include:
    the exercise file itself, or a file in one of the allowed folders, once
    every link is followed and every `..` taken (a link only leads to what
    it points to, so where it is named does not matter)."""
    real = os.path.realpath(os.path.join(cwd, path))
    return (real in {os.path.realpath(f) for f in allowed_files}
            or _inside(real, [os.path.realpath(f) for f in allowed_folders]))


# A line of GCC's -H listing: one dot per include depth, a space, the path.
HEADER_LINE_RE = re.compile(r"^\.+ (.+)$")
# The line after which GCC -H lists files that lack include guards (each
# listed before).
GUARD_NOTE = "Multiple include guards may be useful for:"


def read_dependencies(path):
    """The files a Make dependency file (-MD -MF) lists after its target."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return []
    text = text.replace("\\\n", " ")
    found = []
    for rule in text.splitlines():
        _, colon, deps = rule.partition(": ")
        if not colon:
            continue
        # Spaces in a name are escaped with a backslash.
        for name in re.split(r"(?<!\\)\s+", deps.strip()):
            if name:
                found.append(name.replace("\\ ", " ").replace("$$", "$"))
    return found


def _read_capped(path, head=256 * 1024, tail=64 * 1024):
    """A captured output file's text: all of it, or its start and end."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        if size <= head + tail:
            return f.read().decode("utf-8", "replace")
        start = f.read(head)
        f.seek(size - tail)
        end = f.read()
    return (start.decode("utf-8", "replace")
            + f"\n[... {size - head - tail} bytes of compiler output left out ...]\n"
            + end.decode("utf-8", "replace"))


def _tail_text(path):
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        f.seek(max(0, size - TAIL_BYTES))
        return f.read().decode("utf-8", "replace")


# GCC's message for an include it could not open ("a.cu:3:10: fatal error:
# x.h: No such file or directory"), with the including file's path.
MISSING_INCLUDE_RE = re.compile(
    r"^(.+?):\d+:\d+: fatal error: (.+): No such file or directory$", re.M)


def _missing_outside(text, cwd, folders, allowed_files, allowed_folders):
    """The first include the compiler could not find (in the sandbox, a
    file outside it is absent) that names a file outside the allowed set
    on this machine: an include of solutions/, of a system file, of
    another exercise file. Looked for where the preprocessor would: by an
    absolute path, beside the including file, in the include folders."""
    for m in MISSING_INCLUDE_RE.finditer(text):
        includer, name = m.group(1), m.group(2)
        places = [name] if os.path.isabs(name) else [
            os.path.join(d, name) for d in
            [os.path.dirname(os.path.join(cwd, includer)), *folders]]
        for place in places:
            full = os.path.join(cwd, place)
            if os.path.exists(full) and not allowed_include(full, cwd, allowed_files,
                                                            allowed_folders):
                return name
    return None


def refusal(args, command, cwd, opened, errors):
    """The REFUSED line for the first file the preprocessor read, or could
    not find but exists outside the sandbox, that an exercise may not
    include; or None."""
    allowed_files = [os.path.join(cwd, args.source)]
    allowed_folders = list(args.allow) + system_include_folders(command)
    found = next((path for path in opened
                  if not allowed_include(path, cwd, allowed_files, allowed_folders)), None)
    if found is None:
        found = _missing_outside(errors, cwd, allowed_folders, allowed_files, allowed_folders)
    if found is None:
        return None
    what = f"starter/{args.name}.cu" if args.name else args.source
    return (f"REFUSED: {what} includes {found}, which an exercise may not include: "
            f"only the contract headers (chapters/), the CUDA toolkit's and the "
            f"system compiler's headers")


# Run inside the sandbox around the compiler, by this Python: the sandbox's
# own processes are not reaped by this one, so the CPU time and peak memory
# of the compile (which the limit verdicts need) are measured in there, and
# written to the file descriptor argv[1] as "CPU-SECONDS MAXRSS-KB". A
# compiler killed by signal N exits 128 + N.
USAGE_SHIM = (
    "import os, resource, subprocess, sys\n"
    "status = subprocess.call(sys.argv[2:])\n"
    "used = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "os.write(int(sys.argv[1]), b'%f %d' % (used.ru_utime + used.ru_stime, used.ru_maxrss))\n"
    "sys.exit(status if status >= 0 else 128 - status)\n")


def confined(args, command, cwd, usage_fd):
    """The command run in the sandbox (wbcore/sandbox.py): it sees the
    system's and the toolkit's folders, the allowed folders and the exercise
    file, read-only, and can write only in the folders of its outputs. This
    Python's installation is there too, read-only, for USAGE_SHIM."""
    outputs = [p for p in (_option_value(command, "-o", "--output-file"),
                           _option_value(command, "-MF")) if p]
    writable = sorted({os.path.dirname(os.path.join(cwd, p)) for p in outputs})
    python = sorted({sys.prefix, sys.base_prefix})
    return sandbox.command([sys.executable, "-c", USAGE_SHIM, str(usage_fd), *command],
                           read_only=[*args.allow, args.source, *python], writable=writable,
                           cwd=cwd, env={k: os.environ[k] for k in PASSED_ENV
                                         if k in os.environ})


# The variables a confined compile keeps (nvcc reads its own; TMPDIR would
# point outside the sandbox's private /tmp).
PASSED_ENV = ("NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS", "CUDA_HOME", "CUDA_PATH")


def run_once(args, compiler_command, show_on_success=True):
    """Run one compiler command under the limits (in the sandbox, with the
    include check, as the options say); returns the exit status to use.
    With show_on_success False, a compile that succeeds shows nothing (a
    check pass whose warnings the real compile repeats)."""
    cwd = os.getcwd()
    command = list(compiler_command)
    if args.check_includes:
        command = command + _header_flag(command)
    usage_read, usage_write = os.pipe() if args.sandbox else (None, None)
    if args.sandbox:
        try:
            command = confined(args, command, cwd, usage_write)
        except sandbox.Unavailable as err:
            print(f"compile_with_limits.py: --sandbox: {err}", file=sys.stderr)
            return 125
    started = time.monotonic()
    # The output goes to files, not pipes: a pipe is what an
    # `#include "/proc/self/fd/1"` would read from, blocking until the limit.
    out_file = tempfile.TemporaryFile()
    err_file = tempfile.NamedTemporaryFile()
    try:
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out_file,
                                stderr=err_file,
                                preexec_fn=limits_setter(args.memory_mb, args.cpu_seconds,
                                                         args.file_mb),
                                start_new_session=True,
                                pass_fds=(usage_write,) if args.sandbox else ())
    except OSError as err:
        print(f"compile_with_limits.py: cannot run {command[0]}: {err}", file=sys.stderr)
        return 127
    pgid = proc.pid   # leader of its own session and process group

    # Stopping the build (Ctrl-C, ninja killed) must stop the compile too,
    # which sits in a session of its own where the terminal cannot reach it.
    def stop(signum, _frame):
        _kill_group(pgid)
        sys.exit(128 + signum)
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, stop)

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
    # Whatever the command left running in its group goes with it (in the
    # sandbox, its own process 1 takes every process inside with it).
    _kill_group(pgid)

    if os.WIFSIGNALED(wstatus):
        signum = os.WTERMSIG(wstatus)
        status = 128 + signum
    else:
        signum = None
        status = os.WEXITSTATUS(wstatus)
    if timed_out:
        status = WALL_TIMEOUT_STATUS
    out_file.flush()
    err_file.flush()
    out_text = _read_capped(f"/proc/self/fd/{out_file.fileno()}")
    err_path = err_file.name

    if args.check_includes:
        # What the preprocessor read, as it said (-H: every file it opened,
        # listed as it opens it, even when the compile then fails) and as the
        # dependency file lists it. A file outside the allowed set means
        # nothing of the output is shown: it could quote that file.
        opened = []
        with open(err_path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = HEADER_LINE_RE.match(line.rstrip("\n"))
                if m:
                    opened.append(m.group(1))
        depfile = _option_value(compiler_command, "-MF")
        if depfile:
            opened += read_dependencies(os.path.join(cwd, depfile))
        refused = refusal(args, compiler_command, cwd, dict.fromkeys(opened),
                          _read_capped(err_path) if status else "")
        heard = set(opened)
        kept = []
        for line in _read_capped(err_path).splitlines(keepends=True):
            bare = line.rstrip("\n")
            if HEADER_LINE_RE.match(bare) or bare == GUARD_NOTE or bare in heard:
                continue
            kept.append(line)
        err_text = "".join(kept)
        if not refused:
            refused = diagnostic_refusal(args, compiler_command, cwd, err_text + out_text)
        if refused:
            for p in (_option_value(compiler_command, "-o", "--output-file"), depfile):
                if p:
                    try:
                        os.unlink(os.path.join(cwd, p))
                    except OSError:
                        pass
            print(refused, file=sys.stderr, flush=True)
            return status if status not in (0, WALL_TIMEOUT_STATUS) else 1
    else:
        err_text = _read_capped(err_path)
    out = getattr(sys.stdout, "buffer", sys.stdout)
    err = getattr(sys.stderr, "buffer", sys.stderr)
    shown = ((out, out_text), (err, err_text)) if status or show_on_success else ()
    for stream, text in shown:
        try:
            stream.write(text.encode("utf-8"))
            stream.flush()
        except (OSError, ValueError):
            pass

    cpu = (rusage.ru_utime + rusage.ru_stime) if rusage else 0.0
    maxrss_mb = (rusage.ru_maxrss / 1024.0) if rusage else 0.0   # ru_maxrss is in KB
    if args.sandbox:
        # What the shim measured in the sandbox (nothing when it was killed).
        os.close(usage_write)
        with os.fdopen(usage_read, "rb") as measured:
            said = measured.read(200).split()
        if len(said) == 2:
            try:
                cpu = max(cpu, float(said[0]))
                maxrss_mb = max(maxrss_mb, int(said[1]) / 1024.0)
            except ValueError:
                pass
        if signum is None and 128 < status < 128 + 65:
            signum = status - 128   # the compiler's signal, passed on as a status
    which = diagnose(args, status, signum, timed_out, cpu, maxrss_mb,
                     _tail_text(err_path) + out_text[-TAIL_BYTES:])
    if which:
        value = {"memory": args.memory_mb, "cpu": args.cpu_seconds,
                 "wall": args.wall_seconds, "file": args.file_mb}[which]
        print(limit_message(args.name, which, value), file=sys.stderr, flush=True)
        if status == 0:
            status = 1
    return status


# Where a diagnostic names a file: GCC's and the assembler's "path:line:"
# or "path:line:col:", "path: In function ...", "In file included from
# path:line", "                 from path:line"; EDG's (nvcc) "path(line):".
DIAGNOSTIC_FILE_RES = (
    re.compile(r"^(?:In file included from|\s+from) (.+?):\d+[:,]"),
    re.compile(r"^([^\s:][^:]*?):\d+(?::\d+)?: "),
    re.compile(r"^([^\s:][^:]*?): (?:In |At |Assembler messages:)"),
    re.compile(r"^([^\s(][^(]*?)\(\d+\): "),
)
# Names in diagnostics and line markers that are no file: the compiler's own
# pseudo-files, and the temporary files it makes itself in the sandbox's
# private /tmp (cc1plus's assembly, nvcc's intermediate files).
PSEUDO_FILE_RE = re.compile(r"^(?:<built-in>|<command-line>|/tmp/cc\w+\.s|/tmp/tmpxft_[\w.-]+)$")


def _outside_file(args, command, cwd, paths):
    """The first of these file names (from diagnostics or line markers)
    that is not a file an exercise may read, or None."""
    allowed_files = [os.path.join(cwd, args.source)]
    allowed_folders = None
    for path in paths:
        if PSEUDO_FILE_RE.match(path):
            continue
        if allowed_folders is None:
            allowed_folders = list(args.allow) + system_include_folders(command)
        if not allowed_include(path, cwd, allowed_files, allowed_folders):
            return path
    return None


def _what(args):
    return f"starter/{args.name}.cu" if args.name else args.source


def diagnostic_refusal(args, command, cwd, text):
    """The REFUSED line when a diagnostic names a file outside the allowed
    set (a #line directive naming it, an assembler's .include): the
    diagnostic, or the caret display beside it, could quote that file."""
    named = [m.group(1) for line in text.splitlines() for r in DIAGNOSTIC_FILE_RES
             for m in [r.match(line)] if m]
    found = _outside_file(args, command, cwd, dict.fromkeys(named))
    if found is None:
        return None
    return (f"REFUSED: {_what(args)} makes the compiler name {found} in a diagnostic, "
            f"which an exercise may not read (a #line directive naming it?): only the "
            f"contract headers (chapters/), the CUDA toolkit's and the system compiler's "
            f"headers")


# A line marker of the preprocessed output (`# 12 "path" 2`, `#line 12 "path"`).
LINE_MARKER_RE = re.compile(rb'^#(?:line)? *\d+ +"((?:[^"\\]|\\.)*)"', re.M)


def _unescape(name):
    """A line marker's file name as the file system spells it (GCC escapes
    backslashes, quotes and unprintable bytes as octal)."""
    return re.sub(rb"\\([0-7]{1,3}|.)",
                  lambda m: (bytes([int(m.group(1), 8) & 0xFF]) if m.group(1)[:1].isdigit()
                             else m.group(1)), name).decode("utf-8", "surrogateescape")


def line_marker_refusal(args, command, cwd, preprocessed):
    """The REFUSED line when the preprocessed output's line markers name a
    file outside the allowed set (`#line 3 "/etc/ld.so.conf"`: each
    diagnostic on that line would name, and could quote, line 3 of it), or
    None."""
    try:
        with open(preprocessed, "rb") as f:
            text = f.read()
    except OSError:
        return None
    names = dict.fromkeys(_unescape(m.group(1)) for m in LINE_MARKER_RE.finditer(text))
    found = _outside_file(args, command, cwd, names)
    if found is None:
        return None
    return (f"REFUSED: {_what(args)} names {found} in a #line directive, which an exercise "
            f"may not read: only the contract headers (chapters/), the CUDA toolkit's and "
            f"the system compiler's headers")


# GCC brackets the text of every asm statement, top-level ones too, with
# #APP and #NO_APP in its assembly output.
ASM_STATEMENT_RE = re.compile(r"^#APP$", re.M)
# The assembler's directives that read a file (.incbin, .include) or make
# directives out of other text (macros), as a statement of their own
# (gas's names are case-insensitive; `;` and a label's `:` start a new
# statement). A section or symbol name (attribute section, an asm label)
# can smuggle them past #APP. Looked for in the whole text, strings too
# (gas's own quoting, with character constants like '", is not this
# check's to follow); a string literal of the program is written with its
# newlines escaped (\n), so one reads like a directive only by holding
# whitespace before the dot.
ASM_DIRECTIVE_RE = re.compile(r"(?:^|[;:\s])\.(incbin|include|macro|irpc?|altmacro)\b",
                              re.IGNORECASE | re.M)
# A C-style comment, which the assembler removes wherever it stands.
C_COMMENT_RE = re.compile(r"/\*.*?\*/", re.S)
# What the REFUSED line names of what the assembly does, from this fixed
# list only (nothing of the assembly is quoted): the directives above and
# the instructions that make a system call.
ASM_NAMED_RE = re.compile(r"(?:^|[;:\s])(\.incbin|\.include|\.macro|\.irpc?|\.altmacro|"
                          r"syscall|sysenter|int\s+\$0x80)\b", re.IGNORECASE | re.M)


def assembly_refusal(args, assembly):
    """The REFUSED line when the compiler's assembly output holds an asm
    statement or a directive that reads a file (a host exercise is plain C++:
    asm could read files the preprocessor never saw), or None."""
    try:
        with open(assembly, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    statement = ASM_STATEMENT_RE.search(text)
    # The assembler drops /* */ comments before it reads a statement, so a
    # directive split by one (`.inc/**/bin`) is whole to it: looked for in
    # the text with them taken out, as nothing and as a space, too.
    seen = (text, C_COMMENT_RE.sub("", text), C_COMMENT_RE.sub(" ", text))
    if not statement and not any(ASM_DIRECTIVE_RE.search(t) for t in seen):
        return None
    text = seen[1]
    what = "an asm statement" if statement else "assembler text in a section or symbol name"
    named = dict.fromkeys(re.sub(r"\s+", " ", m.group(1).lower())
                          for m in ASM_NAMED_RE.finditer(text))
    if named:
        what += f", with {', '.join(named)}"
    return (f"REFUSED: {_what(args)} holds assembly ({what}), which a host exercise may "
            f"not: it is plain C++, compiled without asm")


def _with_mode(command, mode, output):
    """The compile command with -c replaced by `mode` (-E, -S) and its
    output by `output`."""
    changed = []
    skip = False
    for i, arg in enumerate(command):
        if skip:
            skip = False
            continue
        if arg == "-c":
            changed.append(mode)
        elif arg == "-o" and i + 1 < len(command):
            changed += ["-o", output]
            skip = True
        else:
            changed.append(arg)
    return changed


# The dependency-file options of a compile command: the first pass (the
# preprocessor) writes the dependency file; the later ones read no source.
DEPENDENCY_OPTIONS_WITH_VALUE = ("-MF", "-MT", "-MQ")
DEPENDENCY_FLAGS = ("-MD", "-MMD", "-MP")


def _from_checked(command, source, mode, language, checked, output):
    """The compile command making `output` with `mode` (-S, -c) from the
    file `checked` (of `language`: c++-cpp-output, assembler) in place of
    the exercise's source, without the dependency-file options; None when
    the source is not in the command."""
    wanted = os.path.realpath(source)
    changed, skip, found = [], False, False
    for arg in command:
        if skip:
            skip = False
            continue
        if arg in DEPENDENCY_OPTIONS_WITH_VALUE or arg == "-o":
            skip = True
        elif arg in DEPENDENCY_FLAGS or arg in ("-c", "-S", "-E"):
            pass
        elif not arg.startswith("-") and os.path.realpath(arg) == wanted:
            found = True
        else:
            changed.append(arg)
    return changed + [mode, "-x", language, checked, "-o", output] if found else None


def run_host_checked(args, command, output):
    """A host exercise's checked compile (GCC): diagnostics without the
    caret display (it quotes the source line a diagnostic names: with #line,
    a line of any file). The preprocessor alone first (it writes the
    dependency file), whose line markers must name only allowed files; then
    that very preprocessed text compiled to assembly, which must hold no
    assembly of the student's; then that very assembly assembled into the
    object. Each pass reads what the one before wrote and was checked, so
    the compiler cannot be led to make something else the second time (by
    __TIME__, or by what files exist). A refused pass shows only its
    REFUSED line."""
    command = command + ["-fno-diagnostics-show-caret"]
    cwd = os.getcwd()
    preprocessed, assembly = output + ".check.ii", output + ".check.s"

    def refuse(line):
        for p in (output, _option_value(command, "-MF")):
            if p:
                try:
                    os.unlink(os.path.join(cwd, p))
                except OSError:
                    pass
        print(line, file=sys.stderr, flush=True)
        return 1

    source = os.path.join(cwd, args.source)
    to_assembly = _from_checked(command, source, "-S", "c++-cpp-output", preprocessed, assembly)
    to_object = _from_checked(command, source, "-c", "assembler", assembly, output)
    if to_assembly is None or to_object is None:
        return refuse(f"REFUSED: the compile command of {_what(args)} does not name its "
                      f"source {args.source} (the build's compile rule changed?)")
    try:
        # -fno-working-directory: no line marker naming the build folder.
        # Each pass shows its own diagnostics: the preprocessor's (#warning)
        # here, the compiler's in the next, so each is shown once.
        status = run_once(args, _with_mode(command, "-E", preprocessed)
                          + ["-fno-working-directory"])
        if status:
            return status
        refused = line_marker_refusal(args, command, cwd, os.path.join(cwd, preprocessed))
        if refused:
            return refuse(refused)
        status = run_once(args, to_assembly)
        if status:
            return status
        refused = assembly_refusal(args, os.path.join(cwd, assembly))
        if refused:
            return refuse(refused)
        return run_once(args, to_object)
    finally:
        for p in (preprocessed, assembly):
            try:
                os.unlink(os.path.join(cwd, p))
            except OSError:
                pass


def run(args):
    """Run the command under the limits; returns the exit status to use.
    A checked compile of a host exercise (the C++ compiler making an
    object) goes through run_host_checked."""
    output = _option_value(args.command, "-o", "--output-file")
    if (args.check_includes and not _is_nvcc(args.command) and "-c" in args.command
            and output):
        return run_host_checked(args, list(args.command), output)
    return run_once(args, args.command)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
