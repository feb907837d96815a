#!/usr/bin/env python3
"""Runs one GoogleTest test for CTest and passes it only when GoogleTest's own
report says it passed.

    python3 wbcore/gtest_verdict.py --test SUITE.NAME [--name CTEST_NAME]
                                   [--links SECTION/EXERCISE ...] -- EXE [ARGS...]

Why: CTest counts a test as passed when its process exits with status 0, and
code linked into a test process can choose that status (end the process with
0 before a failing assertion is reported). So the test executable runs as

    EXE ARGS... --gtest_filter=SUITE.NAME --gtest_output=json:<tmp>/report.json

with <tmp> a fresh private folder (mode 0700) chosen here, and the verdict
comes from that report (GoogleTest writes it after the test ran):

  PASSED  (exit 0)  the process exited with status 0 and the report holds
                    exactly one entry for SUITE.NAME (the suite's "name",
                    ".", the entry's "name"), with status RUN, result
                    COMPLETED and no failures, and no failure anywhere else;
  SKIPPED (exit 77) the same, but the entry's result is SKIPPED (GTEST_SKIP;
                    CTest is told SKIP_RETURN_CODE 77);
  FAILED  (exit 1)  anything else: killed by a signal, no report (the process
                    ended early, whatever its status), an unreadable report, no
                    entry or several, failures, a nonzero status, or more
                    than OUTPUT_LIMIT (8 MiB) printed (the test's processes
                    are then killed and the rest dropped).
  exit 2            a usage error, or a test executable that does not exist
                    or cannot be run.

The last line printed is always one starting with "gtest_verdict:", after all
of the child's output (started on a line of its own), saying the verdict and,
for a failure, why. The child's stdout and stderr are relayed to this
process's as they come; nothing the child prints is read for the verdict (a
GPU kernel can printf any line, "[  PASSED  ]" included).

Batches. With --batch DIR --batch-tests SUITE.NAME ..., the tests run in
one process of EXE (a filter naming each), and DIR (its .json files removed
first) receives a file per test that passed there by the rules above, the
rest of the report accounted for (status 0, or 1 with a failed test in
it): the verdict, the modules loaded, and the size and time of the
executable and of each module file with WB_SEED and WB_MODULES. A test
that failed there is kept too (with GoogleTest's failure messages, which
the test prints when its verdict is taken), where no harness CUDA call
met another process's hold on the GPU, and only up to the test in which
the first of the harness's own CUDA calls failed: the harness marks each
test's start and notes each failed call in the file WB_CUDA_ERROR_LOG
names (wb::noteTestStart, wb::noteCudaError). A kernel that faults
breaks the CUDA context for every test after it, so the failures after
that test run again alone; the ones before it, and its own, stand. A
batch stopped at its time limit leaves no report: the harness's "end"
line for each test that ended (wb::noteTestEnd, its result and GoogleTest's
messages) stands for that test, by the same rule, and the test that was
running fails, however long it had run (its record
joined by a contention note, as a CTest
timeout is: where another submission's run shared the GPU, the grader
makes the run again alone), and those after it run again alone. A
kernel that is wrong, faults or hangs only sometimes (or only after many
launches in one context) would otherwise get a second try, and pass in
it what it failed in the batch. A batch killed for printing more than
OUTPUT_LIMIT is read the same way, the test that was printing failing for
it. This mode always exits 0 and stops the
process after --batch-timeout seconds (default 30): it is a CTest
fixture, and a failed one would keep its tests from running. With --from-batch DIR, a single test whose file is there,
with those inputs unchanged, takes that verdict (and writes its record
from it) without running; any other test runs alone as above. The
tests of a batch share a process, but not their modules: every GPU test
unloads the modules it loaded when it ends (wb::GpuTest's TearDown,
wb::unloadModules), so a module's `__device__` variables start each test
as the file initialises them, as they would alone. Local memory and the
device heap belong to the process's CUDA context and may still hold what
an earlier test's kernel left (measured: harness.GpuFreshContext.*); each
test draws its own inputs and checks the output against them, so what a
kernel finds there cannot make a wrong answer right. The kernel runner's
batches, whose launches the profile and sanitizer checks read, give each
kernel a context of its own (wb::startFreshContext).

--test must name exactly one test: no filter pattern characters (* ? : -).
ARGS may not hold --gtest_filter, --gtest_output or --gtest_flagfile (a usage
error); the GoogleTest variables that would choose other tests or another
report (GTEST_FILTER, GTEST_OUTPUT, GTEST_FLAGFILE, sharding, ...) are removed
from the child's environment, and so is WB_TEST_RECORDS.

The child's environment gains WB_MODULES_LOG=<tmp>/modules.log: the test
harness appends one line "section/exercise" per kernel module it loads (no
file when it loads none). When WB_TEST_RECORDS names a folder and --name was
given, this writes, atomically, <WB_TEST_RECORDS>/<CTEST_NAME, '/' as
'%2F'>.json:

    {"test": CTEST_NAME, "verdict": "passed" | "failed" | "skipped",
     "reason": "...", "modules": [sorted unique modules-log lines + --links]}

which the grader reads instead of anything the child printed. No record is
written for exit 2, nor when the modules log is not a readable plain file
(the test then fails): a test without a record is never cached.

The child's environment also gains WB_GPU_CONTENTION_LOG=<tmp>/contention.log:
the harness appends a line there when one of its own CUDA calls finds the
GPU held by another process (out of memory, device unavailable:
wb::noteGpuContention). When that file holds a line, the record is joined by
<WB_TEST_RECORDS>/<CTEST_NAME, '/' as '%2F'>.contention:

    {"test": CTEST_NAME, "seen": [the log's lines]}

(write_gpu_contention; the sanitizer check writes the same for the runner's
status 75). On that note, or on CTest's timeout, and where another
submission's tests shared the GPU, the grader makes the submission's shared
run again alone; never on what the test printed: a kernel's printf lands in
the same output, and "out of memory" printed there would buy a second try.

Processes: the child runs in its own process group with stdin from
/dev/null. SIGTERM, SIGINT and SIGHUP sent to this wrapper are forwarded to
that group; whatever is left of it 3 seconds later (at once on a second
signal) is killed with SIGKILL, the test is reported FAILED, and the wrapper
then ends by the same signal. When the child exits, whatever it left running
in its group is killed too, so no orphan keeps the GPU busy. On a timeout
CTest does not signal the wrapper politely: it stops it, kills its child
processes (found by parent pid) and then kills it with SIGKILL, so the child
dies with it there as well (only the wrapper's empty private folder is left
behind in $TMPDIR). A process that both left the group and lost its
parent (setsid + double fork) escapes all of this; only a cgroup would catch
it.

Known limit: the report is a file the test process can write. A process that
can run arbitrary host code can find its path (it is on its command line)
and forge a passing report, then end with status 0; this wrapper cannot tell
(grader/tests/test_gtest_verdict.py shows it). What makes the verdict
trustworthy is that the workbook never links student host code into a test
process, except the host exercises, whose object is checked by
wbcore/object_check.py (it refuses file I/O, process control and code
that runs before main) and whose function is called in a forked child
(wb::callIsolated, tests/harness/include/wb/isolated.h). Kernel exercises run
on the GPU as loaded modules; device code cannot write files or end the host
process with a chosen status.

Python 3.8+, standard library only, and only modules that import fast: it
runs once per test.
"""
import json
import os
import select
import signal
import stat
import sys
import time

PROG = "gtest_verdict"
EXIT_PASSED, EXIT_FAILED, EXIT_USAGE, EXIT_SKIPPED = 0, 1, 2, 77
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
GRACE_SECONDS = 3.0
# What a test's process may print: GoogleTest's lines and the harness's are
# a few KB. A kernel's printf with a field width expands on the host to any
# length (200 MB in 0.7 s on an H200), and CTest keeps a running test's
# whole output in memory, beside the other submissions' tests; past this
# much the test is killed, fails, and nothing more is relayed.
OUTPUT_LIMIT = 8 << 20
REPORT_LIMIT = 64 << 20      # bytes read of the report or the modules log
# Flags that would choose other tests or another report (checked after the
# leading "-", "--" or "/" and with "-" read as "_", as GoogleTest reads them).
REFUSED_FLAGS = ("gtest_filter", "gtest_output", "gtest_flagfile")
# Set by the grader where only some exercises' tests run: the sections'
# sanitizer and profile batches read it (wbcore/nsight.py). The tests do
# not: a host exercise that could read it (its process's environment lies on
# its stack) could answer one way in a batch and another alone.
BATCH_EXERCISES_ENV = "WB_BATCH_EXERCISES"
# Environment variables the child does not get.
DROPPED_ENV = ("GTEST_FILTER", "GTEST_OUTPUT", "GTEST_FLAGFILE", "GTEST_TOTAL_SHARDS",
               "GTEST_SHARD_INDEX", "GTEST_SHARD_STATUS_FILE", "GTEST_ALSO_RUN_DISABLED_TESTS",
               "GTEST_LIST_TESTS", "GTEST_REPEAT", "GTEST_SHUFFLE", "WB_TEST_RECORDS",
               "WB_GPU_CONTENTION_LOG", "WB_CUDA_ERROR_LOG", BATCH_EXERCISES_ENV)
USAGE = ("usage: gtest_verdict.py --test SUITE.NAME [--name CTEST_NAME] "
         "[--links SECTION/EXERCISE ...] [--from-batch DIR] -- EXE [EXE ARGS...]\n"
         "       gtest_verdict.py --batch DIR --batch-tests SUITE.NAME ... "
         "[--batch-timeout S] -- EXE [EXE ARGS...]")
# --help: the usage, what it does, the options; the module's docstring is the
# manual (the verdict rules, records, signals, limits).
HELP = USAGE + """

Runs one GoogleTest test for CTest and passes it only when GoogleTest's own
report says it passed: exit 0 passed, 1 failed, 77 skipped, 2 usage error.
The docstring of wbcore/gtest_verdict.py is the manual.

options:
  --test SUITE.NAME     the one GoogleTest test to run (no pattern characters)
  --name CTEST_NAME     the CTest name; with WB_TEST_RECORDS, names the record
  --links SECTION/EXERCISE ...
                        exercises linked into EXE, added to the record
  --from-batch DIR      take the verdict the batch run in DIR kept for the
                        test, else run it alone
  --batch DIR           run the --batch-tests in one process, keep their
                        verdicts in DIR (failures up to the first failed
                        CUDA call); always exits 0
  --batch-timeout S     the batch's limit in seconds (default 30)
  -- EXE [EXE ARGS...]  the test executable and its own arguments
  -h, --help            print this text and exit
"""


class UsageError(Exception):
    pass


class Stopped(Exception):
    """Raised by the signal handler while the child runs."""


def emit(fd, data):
    """Writes all of data to fd; False when fd is gone (closed pipe)."""
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(fd, view):]
        except InterruptedError:
            continue
        except OSError:
            return False
    return True


# --------------------------------------------------------------------------
# Command line


def parse_args(argv, batch=None):
    """(test, name, links, command); `batch`, a dict when given, receives
    the batch options: "run" (the folder of a batch run), "tests", "timeout",
    "from" (the folder a single test reads its batch verdict from)."""
    test = name = None
    links = []
    if batch is None:
        batch = {}
    batch.update({"run": None, "tests": [], "timeout": 30.0, "from": None})
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            command = argv[i + 1:]
            break
        if arg in ("-h", "--help"):
            raise UsageError("")
        key, has_value, value = arg.partition("=")
        if key in ("--test", "--name"):
            if not has_value:
                i += 1
                if i >= len(argv):
                    raise UsageError(f"{key} needs a value")
                value = argv[i]
            if (test if key == "--test" else name) is not None:
                raise UsageError(f"{key} given twice")
            if key == "--test":
                test = value
            else:
                name = value
        elif key in ("--batch", "--from-batch", "--batch-timeout"):
            if not has_value:
                i += 1
                if i >= len(argv):
                    raise UsageError(f"{key} needs a value")
                value = argv[i]
            if key == "--batch-timeout":
                try:
                    batch["timeout"] = float(value)
                except ValueError:
                    raise UsageError(f"--batch-timeout {value!r} is not a number of seconds") \
                        from None
                if not batch["timeout"] > 0:
                    raise UsageError("--batch-timeout must be positive")
            else:
                batch["run" if key == "--batch" else "from"] = value
        elif key == "--batch-tests":
            while i + 1 < len(argv) and not argv[i + 1].startswith("-"):
                i += 1
                batch["tests"].append(argv[i])
            if not batch["tests"]:
                raise UsageError("--batch-tests needs at least one SUITE.NAME")
        elif key == "--links":
            values = [value] if has_value else []
            while not has_value and i + 1 < len(argv) and not argv[i + 1].startswith("-"):
                i += 1
                values.append(argv[i])
            if not values:
                raise UsageError("--links needs at least one SECTION/EXERCISE")
            links.extend(values)
        else:
            raise UsageError(f"unknown argument {arg!r}")
        i += 1
    else:
        raise UsageError("missing '-- EXE': the test executable comes after '--'")

    if batch["run"] is not None:
        if test is not None or batch["from"] is not None or not batch["tests"]:
            raise UsageError("--batch takes --batch-tests, not --test or --from-batch")
        test = batch["tests"][0]
    elif batch["tests"]:
        raise UsageError("--batch-tests needs --batch DIR")
    if test is None:
        raise UsageError("--test SUITE.NAME is required")
    for one in batch["tests"] or [test]:
        if "." not in one or one.startswith(".") or one.endswith(".") or \
                any(c in one for c in "*?:-") or any(c.isspace() for c in one):
            raise UsageError(f"--test {one!r} is not one GoogleTest test name SUITE.NAME "
                             "(no pattern characters * ? : -)")
    if name is not None and (not name or "\n" in name or "\0" in name):
        raise UsageError("--name must be a non-empty single line")
    for link in links:
        section, slash, exercise = link.partition("/")
        if not section or not slash or not exercise or "/" in exercise or \
                any(c.isspace() for c in link):
            raise UsageError(f"--links {link!r} is not SECTION/EXERCISE")
    if not command or not command[0]:
        raise UsageError("no test executable after '--'")
    for arg in command[1:]:
        flag = arg.lstrip("-/").replace("-", "_")
        if arg[:1] in "-/" and flag.startswith(REFUSED_FLAGS):
            raise UsageError(f"{arg!r}: the wrapper chooses the test and the report itself; "
                             "do not pass --gtest_filter, --gtest_output or --gtest_flagfile")
    return test, name, links, command


# --------------------------------------------------------------------------
# Files the child may have touched: read without following links or blocking
# on a FIFO it left in their place.


def read_plain(path):
    """(bytes, None), (None, None) when there is no file, or (None, why)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None, None
    except OSError as error:
        return None, f"cannot open it ({error.strerror})"
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None, "it is not a plain file"
        chunks, size = [], 0
        while size <= REPORT_LIMIT:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks), None
            chunks.append(chunk)
            size += len(chunk)
        return None, f"it is larger than {REPORT_LIMIT} bytes"
    except OSError as error:
        return None, f"cannot read it ({error.strerror})"
    finally:
        os.close(fd)


def make_private_dir():
    bases = [os.environ.get(v) for v in ("TMPDIR", "TEMP", "TMP")] + ["/tmp", "/var/tmp"]
    last_error = None
    for base in bases:
        if not base:
            continue
        for _ in range(8):
            path = os.path.join(os.path.abspath(base), "gtest_verdict-" + os.urandom(8).hex())
            try:
                os.mkdir(path, 0o700)
            except FileExistsError:
                continue
            except OSError as error:
                last_error = error
                break
            os.chmod(path, 0o700)   # whatever the umask
            return path
    raise OSError(f"no writable temporary folder ({last_error})")


def remove_tree(path):
    try:
        entries = list(os.scandir(path))
    except OSError:
        entries = []
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):
                os.chmod(entry.path, 0o700)
                remove_tree(entry.path)
            else:
                os.unlink(entry.path)
        except OSError:
            pass
    try:
        os.rmdir(path)
    except OSError:
        pass


# --------------------------------------------------------------------------
# The verdict


def _signal_name(number):
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def describe_end(how, code):
    if how == "signal":
        return f"the process was killed by signal {code} ({_signal_name(code)})"
    return f"the process exited with status {code}"


def judge(test, how, code, report_bytes, report_problem):
    """(verdict, reason) of a run: how is "exit" (code: exit status) or
    "signal" (code: signal number); report_bytes is the report (None when
    there is none), report_problem why it could not be read."""
    if how == "signal":
        return "failed", describe_end(how, code)
    if report_problem:
        return "failed", f"the GoogleTest report could not be read: {report_problem}"
    if report_bytes is None:
        if code == 0:
            return "failed", ("the test process ended (exit status 0) without reporting a result "
                              "for this test: something in the process ended it early")
        return "failed", (f"the test process ended (exit status {code}) without reporting a "
                          "result for this test")
    try:
        doc = json.loads(report_bytes.decode("utf-8"))
        entries, failures_total = [], 0
        for suite in doc["testsuites"]:
            for entry in suite["testsuite"]:
                failures = entry.get("failures", [])
                if not isinstance(failures, list):
                    raise TypeError("failures is not a list")
                failures_total += len(failures)
                if f"{suite['name']}.{entry['name']}" == test:
                    entries.append(entry)
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        return "failed", f"the GoogleTest report is malformed ({type(error).__name__}: {error})"
    if not entries:
        return "failed", f"no test named {test} ran (is the name right?)"
    if len(entries) > 1:
        return "failed", f"the GoogleTest report holds {len(entries)} entries for {test}"
    entry = entries[0]
    failures = len(entry.get("failures", []))
    status, result = entry.get("status"), entry.get("result")
    if failures:
        return "failed", f"GoogleTest reports {failures} failure(s)"
    if failures_total:
        return "failed", (f"GoogleTest reports {failures_total} failure(s) outside this test "
                          "(global set-up or tear-down)")
    if status != "RUN":
        if result == "SUPPRESSED":
            return "failed", f"GoogleTest did not run {test}: it is disabled"
        return "failed", f"GoogleTest did not run {test} (status {status}, result {result})"
    if result == "SKIPPED":
        if code != 0:
            return "failed", (f"GoogleTest reports the test skipped, but "
                              f"{describe_end(how, code)}")
        message = _skip_message(entry)
        return "skipped", ("GoogleTest reports it skipped" +
                           (f": {message}" if message else
                            " (the reason, if any, is in the output above)"))
    if result != "COMPLETED":
        return "failed", f"GoogleTest reports the unexpected result {result!r}"
    if code != 0:
        return "failed", f"GoogleTest reports the test passed, but {describe_end(how, code)}"
    return "passed", "GoogleTest reports it passed"


def _skip_message(entry):
    """The GTEST_SKIP message when the report carries one (GoogleTest 1.12's
    JSON does not; its XML and its output do)."""
    skipped = entry.get("skipped")
    if isinstance(skipped, str):
        return " ".join(skipped.split())
    if isinstance(skipped, list):
        parts = [item.get("message", "") if isinstance(item, dict) else str(item)
                 for item in skipped]
        return " ".join(" ".join(parts).split())
    return ""


def write_record(folder, name, verdict, reason, modules):
    write_json(folder, name, ".json",
                {"test": name, "verdict": verdict, "reason": reason, "modules": modules})


def write_gpu_contention(folder, name, seen):
    """Writes <folder>/<name>.contention: the harness found the GPU held by
    another process while test `name` ran (`seen`: what, one line each)."""
    write_json(folder, name, CONTENTION_SUFFIX, {"test": name, "seen": list(seen)})


CONTENTION_SUFFIX = ".contention"


def write_json(folder, name, suffix, doc):
    """Writes `doc` as folder/<name, '/' as %2F><suffix>, atomically (a
    temporary file renamed over it); raises OSError."""
    path = os.path.join(folder, name.replace("/", "%2F") + suffix)
    temporary = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    data = json.dumps(doc, indent=1) + "\n"
    try:
        with open(temporary, "w", encoding="utf-8") as out:
            out.write(data)
        os.replace(temporary, path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


# --------------------------------------------------------------------------
# Running the child


class Child:
    """The test process: its group, the relay of its output, its end."""

    def __init__(self):
        self.pid = None
        self.done = False          # reaped
        self.stop_signal = None    # the first stop signal received
        self.hurry = False         # a second one: no grace period
        self.pipes = {}            # read end -> our fd it is relayed to
        self.poller = select.poll()
        self.last_byte = b"\n"     # of all output relayed (b"\n": at a line start)
        self.dead_outputs = set()
        self.relayed = 0           # bytes of the child's output relayed
        self.flooded = False       # it printed more than OUTPUT_LIMIT: killed

    # Signals -------------------------------------------------------------
    def on_signal(self, number, _frame):
        if self.pid is not None and not self.done:
            self.kill_group(number)
        if self.stop_signal is None:
            self.stop_signal = number
            if self.pid is not None and not self.done:
                raise Stopped()
        else:
            self.hurry = True

    def kill_group(self, number):
        try:
            os.killpg(self.pid, number)
        except OSError:
            pass

    # Start ---------------------------------------------------------------
    def start(self, command, env):
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                   (os.POSIX_SPAWN_DUP2, out_w, 1), (os.POSIX_SPAWN_DUP2, err_w, 2)]
        spawn = os.posix_spawn if "/" in command[0] else os.posix_spawnp
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            for number in STOP_SIGNALS:
                signal.signal(number, self.on_signal)
            try:
                self.pid = spawn(command[0], command, env, file_actions=actions, setpgroup=0,
                                 setsigmask=(), setsigdef=(signal.SIGPIPE, signal.SIGXFSZ,
                                                           *STOP_SIGNALS))
            finally:
                os.close(out_w)
                os.close(err_w)
                if self.pid is None:
                    os.close(out_r)
                    os.close(err_r)
            # Before the signals are let in: the handler may raise Stopped
            # as soon as they are, and stop() relays these.
            for read_end, ours in ((out_r, 1), (err_r, 2)):
                os.set_blocking(read_end, False)
                self.pipes[read_end] = ours
                self.poller.register(read_end, select.POLLIN)
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)

    # Output --------------------------------------------------------------
    def pump(self, timeout_ms):
        """Relays what is there (waiting at most timeout_ms for something);
        False once both pipes are closed."""
        if not self.pipes:
            return False
        for read_end, _ in self.poller.poll(timeout_ms):
            self._relay(read_end)
        return bool(self.pipes)

    def _relay(self, read_end):
        while read_end in self.pipes:
            try:
                data = os.read(read_end, 1 << 16)
            except BlockingIOError:
                return
            except InterruptedError:
                continue
            except OSError:
                data = b""
            if not data:
                self.poller.unregister(read_end)
                os.close(read_end)
                del self.pipes[read_end]
                return
            ours = self.pipes[read_end]
            if self.relayed + len(data) > OUTPUT_LIMIT:
                data = data[:max(0, OUTPUT_LIMIT - self.relayed)]
                if not self.flooded:
                    self.flooded = True
                    self.kill_group(signal.SIGKILL)
            self.relayed += len(data)
            if data and ours not in self.dead_outputs:
                if emit(ours, data):
                    self.last_byte = data[-1:]
                else:
                    self.dead_outputs.add(ours)

    def drain(self, seconds):
        """Relays what is left, for at most `seconds` (a process that escaped
        the group may hold the pipes open), then closes them."""
        deadline = time.monotonic() + seconds
        while self.pipes and time.monotonic() < deadline:
            self.pump(50)
        for read_end in list(self.pipes):
            self.poller.unregister(read_end)
            os.close(read_end)
        self.pipes.clear()

    # End -----------------------------------------------------------------
    def exited(self, block):
        """Whether the child has ended, leaving it unreaped (its pid, and so
        its group's id, stay taken)."""
        options = os.WEXITED | os.WNOWAIT | (0 if block else os.WNOHANG)
        while True:
            try:
                return os.waitid(os.P_PID, self.pid, options) is not None
            except InterruptedError:
                continue
            except ChildProcessError:
                return True

    def reap(self):
        """Kills what the child left in its group, reaps it: (how, code)."""
        self.kill_group(signal.SIGKILL)
        while True:
            try:
                _, status = os.waitpid(self.pid, 0)
                break
            except InterruptedError:
                continue
            except ChildProcessError:
                status = 0
                break
        self.done = True
        if os.WIFSIGNALED(status):
            return "signal", os.WTERMSIG(status)
        return "exit", os.WEXITSTATUS(status)

    def wait(self, deadline=None):
        """Relays the output until the child ends: (how, code). With a
        deadline (time.monotonic()), the group is killed when it passes."""
        while self.pump(200):
            if self.exited(block=False):
                break
            if deadline is not None and time.monotonic() > deadline:
                break
        while deadline is not None and not self.exited(block=False):
            if time.monotonic() > deadline:
                self.kill_group(signal.SIGKILL)
                break
            time.sleep(0.05)
        self.exited(block=True)
        result = self.reap()
        self.drain(1.0)
        return result

    def stop(self):
        """After a stop signal: the grace period, then SIGKILL for the group."""
        deadline = time.monotonic() + GRACE_SECONDS
        while not self.hurry and time.monotonic() < deadline:
            if self.exited(block=False):
                break
            if not self.pump(50):
                time.sleep(0.05)
        result = self.reap()
        self.drain(0.5)
        return result


# --------------------------------------------------------------------------


# --------------------------------------------------------------------------
# Batches: an exercise's tests in one process, each test's verdict kept


BATCH_ENV = ("WB_SEED", "WB_MODULES")   # the run's inputs besides the files


def batch_file(folder, test):
    return os.path.join(folder, test.replace("/", "%2F") + ".json")


def module_file(key, folders=None):
    """The module file the harness loads for `key` ("section/exercise"): the
    first <folder>/<key>.fatbin of WB_MODULES' folders (or of `folders`,
    ':'-separated), as the harness searches them; None where there is none."""
    for folder in (f for f in (os.environ.get("WB_MODULES", "") if folders is None
                               else folders).split(":") if f):
        candidate = os.path.join(folder, key + ".fatbin")
        if os.path.exists(candidate):
            return candidate
    return None


def batch_inputs(command, modules, folders=None):
    """{path: [mtime_ns, size]} of the test executable and of each module
    file `modules` names ("section/exercise", found in WB_MODULES' folders
    as the harness finds it, or in `folders`, ':'-separated), and the
    environment the verdict depends on: a kept verdict stands only while all
    of them are unchanged."""
    files = {}
    paths = [command[0]]
    for key in modules:
        found = module_file(key, folders)
        if found:
            paths.append(found)
    for path in paths:
        try:
            st = os.stat(path)
            files[os.path.abspath(path)] = [st.st_mtime_ns, st.st_size]
        except OSError:
            files[os.path.abspath(path)] = None
    return {"files": files, "env": {k: os.environ.get(k) for k in BATCH_ENV}}


# What a kept failure prints of GoogleTest's messages: the first few, each
# cut to a length a student reads.
KEPT_FAILURES, KEPT_FAILURE_CHARS = 5, 4000


def batch_verdicts(tests, how, code, report_bytes, report_problem, failures_stand=()):
    """{test: (verdict, reason, failures)} of the tests of a batch whose
    verdict can stand for a run alone: the process exited (status 0, or 1
    with a failing test in the report to account for it), the report holds
    each test once, and the entry ran and completed. A pass is kept; a
    failure only for a test in `failures_stand` (None: every test), with
    its messages as GoogleTest prints them: a kernel that faults leaves the
    CUDA context broken for every test after it, whose failures are run
    again alone (failures_standing). A skipped test is never kept: its
    reason only its own output shows."""
    if how != "exit" or code not in (0, 1) or report_problem or report_bytes is None:
        return {}
    try:
        doc = json.loads(report_bytes.decode("utf-8"))
        entries, failing = {}, 0
        for suite in doc["testsuites"]:
            for entry in suite["testsuite"]:
                full = f"{suite['name']}.{entry['name']}"
                if not isinstance(entry.get("failures", []), list):
                    return {}
                failing += bool(entry.get("failures"))
                entries.setdefault(full, []).append(entry)
    except (ValueError, KeyError, TypeError, AttributeError):
        return {}
    if code == 1 and not failing:
        return {}   # something failed that no test's entry shows
    if any(full not in tests for full in entries):
        return {}   # an entry of no test asked for (a failure outside the tests)
    kept = {}
    for test in tests:
        found = entries.get(test, [])
        if (len(found) != 1 or found[0].get("status") != "RUN"
                or found[0].get("result") != "COMPLETED"):
            continue
        failures = found[0].get("failures")
        if not failures:
            kept[test] = ("passed", "GoogleTest reports it passed (in its exercise's run of "
                                    "all its tests)", [])
        elif failures_stand is None or test in failures_stand:
            kept[test] = ("failed", f"GoogleTest reports {len(failures)} failure(s) (in its "
                                    "exercise's run of all its tests)",
                          failure_messages(failures))
    return kept


def failures_standing(errors_bytes, contention):
    """The tests of a batch whose failures stand, from the CUDA error log
    (wb::noteTestStart's "test NAME" lines, wb::noteCudaError's "error ..."
    lines): None (every test) when no call failed; else the tests that
    started up to the first error, that error's test included; none when
    the GPU was held by another process (`contention`) or the error came
    before any test started."""
    if contention:
        return set()
    started = []
    for line in (errors_bytes or b"").decode("utf-8", "replace").splitlines():
        if line.startswith("test "):
            started.append(line[len("test "):].strip())
        elif line.startswith("error "):
            return set(started)
    return None


def ended_verdicts(tests, errors_bytes, failures_stand, timeout, flooded=False):
    """(kept, hung): batch_verdicts' {test: (verdict, reason, failures)} for a batch that
    left no report (stopped at its time limit, `timeout` seconds): from the
    harness's "end {JSON}" lines (wb::noteTestEnd), each test's result as
    GoogleTest had it when the test ended. A pass is kept; a failure as
    batch_verdicts keeps one; any test with more than one line runs alone.
    Where the batch was stopped at its time limit (`timeout` not None),
    the test that was running fails, however long it had run, with the
    reason (a kernel that hangs only after many launches in one process
    hangs only in the batch), and is `hung` (else None): its record is then
    joined by a contention note, as a CTest timeout is, so that a run that
    shared the GPU with another submission's is made again alone. Where it
    was killed for printing more than OUTPUT_LIMIT (`flooded`), the test
    that was running fails for that, and is not `hung`."""
    stopped = "killed later for its output" if flooded else "stopped later at its time limit"
    ended, started = {}, []
    for line in (errors_bytes or b"").decode("utf-8", "replace").splitlines():
        if line.startswith("test "):
            started.append(line[len("test "):].strip())
        if not line.startswith("end "):
            continue
        try:
            doc = json.loads(line[len("end "):])
            name, result = str(doc["test"]), str(doc["result"])
            failures = [str(f) for f in doc["failures"]][:KEPT_FAILURES]
        except (ValueError, KeyError, TypeError):
            continue
        ended[name] = None if name in ended else (result, failures)
    kept = {}
    for test in tests:
        found = ended.get(test)
        if found is None:
            continue
        result, failures = found
        if result == "passed":
            kept[test] = ("passed", "GoogleTest reports it passed (in its exercise's run of "
                                    f"all its tests, {stopped})", [])
        elif (result == "failed" and failures
              and (failures_stand is None or test in failures_stand)):
            kept[test] = ("failed", f"GoogleTest reports {len(failures)} failure(s) (in its "
                                    f"exercise's run of all its tests, {stopped})",
                          [f[:KEPT_FAILURE_CHARS] for f in failures])
    running = started[-1] if started and started[-1] not in ended else None
    if flooded:
        if (running in tests and running not in kept
                and (failures_stand is None or running in failures_stand)):
            kept[running] = ("failed", flood_reason(), [flood_reason()])
        return kept, None
    if (timeout is None or running not in tests or running in kept
            or not (failures_stand is None or running in failures_stand)):
        return kept, None
    kept[running] = ("failed", f"the exercise's run of all its tests stopped at its time "
                               f"limit of {timeout:g} s while this test ran",
                     [f"the exercise's tests, run together in one process, did not finish "
                      f"within {timeout:g} s; this test was running (a kernel that never "
                      "returns, or one far slower than its reference)"])
    return kept, running


def failure_messages(failures):
    """GoogleTest's failures of a report entry as its console prints them
    ("FILE:LINE: Failure" and the message), the first KEPT_FAILURES."""
    said = []
    for failure in failures[:KEPT_FAILURES]:
        text = failure.get("failure", "") if isinstance(failure, dict) else str(failure)
        text = str(text)[:KEPT_FAILURE_CHARS]
        where, newline, rest = text.partition("\n")
        if newline and ":" in where and " " not in where.strip():
            text = f"{where}: Failure\n{rest}"
        said.append(text)
    return said


def run_batch(folder, tests, command, timeout):
    """Runs `tests` in one process of `command`, and writes in `folder` (its
    earlier files removed first) a file per test batch_verdicts keeps
    (batch_file: the verdict, the modules loaded, batch_inputs). Never
    fails the CTest test it is: the tests that require it would then not run
    at all; each one whose verdict is not kept runs alone instead."""
    try:
        os.makedirs(folder, exist_ok=True)
        for entry in os.scandir(folder):
            if entry.name.endswith(".json"):
                os.unlink(entry.path)
    except OSError as error:
        verdict_line(None, f"batch: {folder} could not be cleared ({error}); every test "
                           "runs alone")
        return EXIT_PASSED
    try:
        tmp = make_private_dir()
    except OSError as error:
        verdict_line(None, f"batch: {error}; every test runs alone")
        return EXIT_PASSED
    child = None
    try:
        report = os.path.join(tmp, "report.json")
        modules_log = os.path.join(tmp, "modules.log")
        env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}
        env["WB_MODULES_LOG"] = modules_log
        contention_log = os.path.join(tmp, "contention.log")
        errors_log = os.path.join(tmp, "cuda_errors.log")
        env["WB_GPU_CONTENTION_LOG"] = contention_log
        env["WB_CUDA_ERROR_LOG"] = errors_log
        args = [*command, "--gtest_filter=" + ":".join(tests), f"--gtest_output=json:{report}"]
        child = Child()
        timed_out = False
        try:
            try:
                child.start(args, env)
            except OSError as error:
                verdict_line(None, f"batch: cannot run {command[0]}: {error}; every test "
                                   "runs alone")
                return EXIT_PASSED
            deadline = time.monotonic() + timeout
            how, code = child.wait(deadline=deadline)
            timed_out = how == "signal" and time.monotonic() >= deadline
        except Stopped:
            how, code = child.stop()
        if child.stop_signal is not None:
            verdict_line(child, "batch: stopped; every test runs alone")
            return EXIT_PASSED
        report_bytes, report_problem = read_plain(report)
        errors_bytes, errors_problem = read_plain(errors_log)
        stand = failures_standing(errors_bytes, os.path.lexists(contention_log))
        if errors_problem:
            stand = set()
        hung = None
        if how == "exit" and not child.flooded:
            kept = batch_verdicts(tests, how, code, report_bytes, report_problem,
                                  failures_stand=stand)
        else:
            # Killed at its time limit: no report, but the tests that ended
            # before it said how (a kernel that hangs on purpose after a
            # wrong answer keeps that failure).
            # The running test fails however long it had run: a kernel that
            # makes an earlier test of the batch slow on purpose would
            # otherwise have its own hang found just begun, and run alone,
            # where it does not hang. A batch takes 1 to 2 s on an H100
            # (docs/results/grading-time-nvidia-h200.md: 45 batches, 44.6 s
            # in all, on an H200) against its limit of 30 s
            # (-DWB_BATCH_TIMEOUT=S for a slower GPU); one that shared the
            # GPU with another submission's run is made again alone
            # (the contention note).
            # Killed for printing too much: the same, the test that was
            # printing failing for it (a kernel that floods only where it
            # finds itself in a batch gets no second try alone either).
            limit = timeout if timed_out and not child.flooded else None
            kept, hung = ({}, None) if errors_problem else ended_verdicts(
                tests, errors_bytes, stand, limit, flooded=child.flooded)
        modules_bytes, modules_problem = read_plain(modules_log)
        if modules_problem:
            kept = {}
        lines = (modules_bytes or b"").decode("utf-8", "replace").splitlines()
        modules = sorted({line.strip() for line in lines if line.strip()})
        inputs = batch_inputs(command, modules)
        for test, (verdict, reason, failures) in kept.items():
            doc = {"test": test, "verdict": verdict, "reason": reason, "failures": failures,
                   "hung": test == hung, "modules": modules, **inputs}
            write_json(folder, test, ".json", doc)
        failed = sum(verdict == "failed" for verdict, _, _ in kept.values())
        verdict_line(child, f"batch: {len(kept)} of {len(tests)} test(s) kept, {failed} of "
                            f"them failed ({describe_end(how, code)}"
                            + (f"; killed for printing more than {OUTPUT_LIMIT >> 20} MiB"
                               if child.flooded else "")
                            + ("" if stand is None else
                               "; a CUDA call failed: the failures after its test run alone")
                            + "); the others run alone")
        return EXIT_PASSED
    except OSError as error:
        verdict_line(child, f"batch: {error}; every test runs alone")
        return EXIT_PASSED
    finally:
        if child is not None and child.pid is not None and not child.done:
            child.kill_group(signal.SIGKILL)
        remove_tree(tmp)


def read_json(folder, name):
    """The dict write_json(folder, name, ".json", ...) wrote (batch_file), or
    None: no such file, not a plain file, or not a JSON object."""
    data, problem = read_plain(batch_file(folder, name))
    if data is None or problem:
        return None
    try:
        doc = json.loads(data.decode("utf-8"))
    except ValueError:
        return None
    return doc if isinstance(doc, dict) else None


def kept_verdict(folder, test, command):
    """(verdict, reason, modules, failures, hung) the batch run in `folder`
    kept for `test` ("passed" or "failed"; failures: GoogleTest's messages;
    hung: the batch stopped at its time limit while the test ran), or None:
    no file, or one whose inputs (executable, modules, seed) have changed
    since."""
    doc = read_json(folder, test)
    if doc is None:
        return None
    try:
        if doc["test"] != test or doc["verdict"] not in ("passed", "failed"):
            return None
        modules = [str(m) for m in doc["modules"]]
        failures = [str(f) for f in doc.get("failures", [])]
        if doc["verdict"] == "failed" and not failures:
            return None
        if batch_inputs(command, modules) != {"files": doc["files"], "env": doc["env"]}:
            return None
        return (doc["verdict"], str(doc["reason"]), modules, failures,
                doc.get("hung") is True)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def flood_reason():
    return (f"the test printed more than {OUTPUT_LIMIT >> 20} MiB (a printf in a kernel or "
            f"in the exercise?); its processes were killed there and the rest dropped")


def verdict_line(child, text):
    prefix = b"" if child is None or child.last_byte == b"\n" else b"\n"
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        pass
    emit(1, prefix + f"{PROG}: {text}\n".encode("utf-8", "replace"))


def fail_usage(message):
    """Exit 2: a usage error or an executable that cannot run."""
    emit(2, f"{PROG}: ERROR: {message}\n".encode("utf-8", "replace"))
    return EXIT_USAGE


def main(argv):
    batch = {}
    try:
        test, name, links, command = parse_args(argv, batch)
    except UsageError as error:
        if str(error):
            code = fail_usage(f"{error}\n{USAGE}")
            # A batch run is a CTest fixture: failing it would leave its
            # tests not run; they run alone instead (they find no verdict).
            return EXIT_PASSED if "--batch" in argv else code
        emit(1, HELP.encode())
        return 0

    exe = command[0]
    if batch["run"] is not None:
        return run_batch(batch["run"], batch["tests"], command, batch["timeout"])
    if "/" in exe:
        if not os.path.exists(exe):
            return fail_usage(f"{test}: the test executable {exe} does not exist (is it built?)")
        if os.path.isdir(exe) or not os.access(exe, os.X_OK):
            return fail_usage(f"{test}: the test executable {exe} is not an executable file")

    kept = kept_verdict(batch["from"], test, command) if batch["from"] else None
    if kept is not None:
        verdict, reason, modules, failures, hung = kept
        if failures:
            emit(1, ("".join(f"{text}\n\n" for text in failures)).encode("utf-8", "replace"))
        records = os.environ.get("WB_TEST_RECORDS")
        if records and name is not None and os.path.isdir(records):
            try:
                write_record(records, name, verdict, reason, sorted(set(modules) | set(links)))
                if hung:
                    # As a CTest timeout: another submission's kernels on
                    # the GPU may have slowed the batch (grader/build.py).
                    write_gpu_contention(records, name, [reason])
            except OSError as error:
                verdict_line(None, f"warning: could not write the record in {records}: {error}")
        verdict_line(None, f"{verdict.upper()} {test}: {reason}")
        return EXIT_PASSED if verdict == "passed" else EXIT_FAILED

    try:
        tmp = make_private_dir()
    except OSError as error:
        return fail_usage(f"{test}: {error}")
    child = None
    try:
        report = os.path.join(tmp, "report.json")
        modules_log = os.path.join(tmp, "modules.log")
        contention_log = os.path.join(tmp, "contention.log")
        env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}
        env["WB_MODULES_LOG"] = modules_log
        env["WB_GPU_CONTENTION_LOG"] = contention_log
        if "GTEST_COLOR" not in env and os.isatty(1):
            env["GTEST_COLOR"] = "yes"   # its stdout is our pipe, ours a terminal
        args = [*command, f"--gtest_filter={test}", f"--gtest_output=json:{report}"]

        child = Child()
        try:
            try:
                child.start(args, env)
            except OSError as error:
                return fail_usage(f"{test}: cannot run the test executable {exe}: "
                                  f"{error.strerror or error}")
            how, code = child.wait()
        except Stopped:
            how, code = child.stop()
        stop = child.stop_signal

        if stop is not None:
            verdict = "failed"
            reason = (f"the wrapper was told to stop ({_signal_name(stop)}) before the test "
                      f"ended; the test's processes were killed")
        elif child.flooded:
            verdict, reason = "failed", flood_reason()
        else:
            report_bytes, report_problem = read_plain(report)
            verdict, reason = judge(test, how, code, report_bytes, report_problem)

        modules_bytes, modules_problem = read_plain(modules_log)
        records = os.environ.get("WB_TEST_RECORDS")
        record_note = None
        if modules_problem:
            verdict = "failed"
            reason = f"the modules log {modules_log} could not be read: {modules_problem}"
        elif records and name is not None and os.path.isdir(records):
            lines = (modules_bytes or b"").decode("utf-8", "replace").splitlines()
            modules = sorted({line.strip() for line in lines if line.strip()} | set(links))
            contention_bytes, _ = read_plain(contention_log)
            seen = [line.strip() for line in
                    (contention_bytes or b"").decode("utf-8", "replace").splitlines()
                    if line.strip()]
            try:
                write_record(records, name, verdict, reason, modules)
                if seen and verdict == "failed":
                    write_gpu_contention(records, name, seen[:20])
            except OSError as error:
                record_note = f"{PROG}: warning: could not write the record in {records}: {error}"

        if record_note:
            verdict_line(child, record_note)
        verdict_line(child, f"{verdict.upper()} {test}: {reason}")
        if stop is not None:
            remove_tree(tmp)
            tmp = None
            for number in STOP_SIGNALS:
                signal.signal(number, signal.SIG_DFL)
            os.kill(os.getpid(), stop)     # end as CTest and shells expect
            return 128 + stop
        return {"passed": EXIT_PASSED, "skipped": EXIT_SKIPPED}.get(verdict, EXIT_FAILED)
    finally:
        if child is not None and child.pid is not None and not child.done:
            child.kill_group(signal.SIGKILL)   # an unexpected error: leave nothing behind
        if tmp is not None:
            remove_tree(tmp)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
