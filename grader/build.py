"""The grading build: the repository's pristine contracts, harness and tests
built against one submission's staged exercise files, then its starter tests
run through CTest (all of them, or those the result cache does not hold), in
two runs: the timing-sensitive tests last, alone on the GPU.

A slot is a folder holding a staged submission (submission/) and one build
configured against it (build/). The build is configured once and reused for
every submission graded in the slot: only exercise files whose text changed
are recompiled, so grading a class costs one full build per slot. A slot is
locked (flock) while in use, so two graders never share one.

Commands run in their own sessions, so Ctrl-C reaches only the grader, which
then stops them (Commands.stop_all) and writes nothing for the submissions it
was grading.
"""
import contextlib
import dataclasses
import fcntl
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET

from wbcore import build as wbbuild
from wbcore import course as wbex
from wbcore import ctest_listing
from wbcore import gtest_verdict
from wbcore import nsight
from wbcore import object_check
from wbcore import results as wbres
from wbcore import sandbox
from .score import FAILED, NOT_RUN, PASSED, TestOutcome

GPU_LABELS = ("gpu", "perf", "profile", "sanitize")
# Tests that measure: they run one submission at a time, alone on the GPU
# (the other tests of submissions graded in parallel may share it).
TIMING_LABELS = ("perf", "profile")
CTEST_ABNORMAL_RE = re.compile(r"Test\s+#\d+: (\S+) .*?\*\*\*(Timeout|Exception: .*?)\s+[\d.]+ sec")
# The configure preset of the lean grading build (CMakePresets.json: the
# starter's exercises, the tests and the runner; no solutions, mutants or
# tools). Each slot passes its own folders and the --cmake-arg options on top.
PRESET = "grader"
# The folder, under a slot, made afresh for each test run: the only one its
# tests may write besides CTest's own log (build/Testing). The grader reads
# CTest's JUnit reports and, under records/, the record
# wbcore/gtest_verdict.py leaves per test (its verdict and the exercise
# modules and objects it ran).
RUN_OUTPUT = "run-output"
# The launcher (in the build's bin/) that a run keeping CAP_SYS_ADMIN for
# Nsight Compute starts under: it refuses mounts, namespaces and the other
# administration calls (wbcore/sandbox.py).
ADMIN_GUARD = "wb_without_admin_calls"
RECORDS = "records"
# The repository's folders and files the tests read (the contracts, the
# harness, the checks and their shared Python, the course's list of
# exercises); solutions/, grader/ and the rest stay out of sight.
TEST_RUN_SOURCES = ("chapters", "tests", "cmake", "wbcore", "workbook.toml")
# The environment variables a confined test run keeps (the rest of the
# grader's environment, which may hold anything, stays outside).
PASSED_ENV_PREFIXES = ("WB_", "CUDA_", "NVIDIA_")
PASSED_ENV = ("LD_LIBRARY_PATH", "TERM")
# A line the compile launcher (cmake/compile_with_limits.py) starts with when
# it refuses an exercise file for what it included.
REFUSED_PREFIX = "REFUSED: "
# The largest file a test run may write, in MB (RLIMIT_FSIZE on CTest and
# every test): far above any report or log a test writes, so that a test
# cannot fill the disk through the run's folder.
TEST_FILE_MB = 1024
GRACE_SECONDS = 5
COMPILE_TIMEOUT = 600   # seconds to compile one exercise file on its own


class Interrupted(Exception):
    """The grader was asked to stop (Ctrl-C)."""


@dataclasses.dataclass
class CommandResult:
    returncode: object   # int, or None when it never finished
    output: str          # standard output, with standard error unless kept apart
    timed_out: bool = False
    errors: str = ""     # standard error when kept apart

    @property
    def ok(self):
        return self.returncode == 0 and not self.timed_out


class Commands:
    """Runs commands, each in its own session, and stops them all on request."""

    def __init__(self):
        self._lock = threading.Lock()
        self._running = set()
        self.stopping = False

    def run(self, cmd, timeout, cwd=wbex.ROOT, separate_errors=False, env=None, preexec=None):
        if self.stopping:
            raise Interrupted()
        proc = subprocess.Popen([str(c) for c in cmd], cwd=cwd, preexec_fn=preexec,
                                env=dict(wbbuild.env_with_cuda(), **(env or {})),
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE if separate_errors else subprocess.STDOUT,
                                text=True, errors="replace", start_new_session=True)
        with self._lock:
            self._running.add(proc)
        timed_out = False
        try:
            try:
                output, errors = proc.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
                self._stop(proc)
                output, errors = proc.communicate()
        except BaseException:
            self._stop(proc)
            raise
        finally:
            with self._lock:
                self._running.discard(proc)
        if self.stopping:
            raise Interrupted()
        return CommandResult(None if timed_out else proc.returncode, output, timed_out,
                             errors or "")

    def stop_all(self):
        """Stop every running command; their callers raise Interrupted."""
        self.stopping = True
        with self._lock:
            running = list(self._running)
        for proc in running:
            self._stop(proc)

    @staticmethod
    def _stop(proc):
        # SIGTERM first: ninja then removes half-written outputs and CTest
        # stops its tests; SIGKILL whatever is left.
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(proc.pid, sig)
            except (ProcessLookupError, PermissionError):
                return
            try:
                proc.wait(timeout=GRACE_SECONDS)
                return
            except subprocess.TimeoutExpired:
                continue


class Slot:
    """A locked folder holding a staged submission and its build."""

    def __init__(self, root):
        self.root = pathlib.Path(root)
        self.staged = self.root / "submission"
        self.build = self.root / "build"
        self._lock_file = None

    def try_lock(self):
        self.root.mkdir(parents=True, exist_ok=True)
        handle = open(self.root / "lock", "w")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        self._lock_file = handle
        return True

    def release(self):
        if self._lock_file is not None:
            self._lock_file.close()
            self._lock_file = None


def acquire_slots(work_dir, count):
    """`count` slots under work_dir that no other grader holds."""
    slots = []
    index = 0
    while len(slots) < count:
        slot = Slot(pathlib.Path(work_dir) / f"slot-{index}")
        if slot.try_lock():
            slots.append(slot)
        index += 1
    return slots


def exercise_target(e):
    return f"wb_starter_{e.section}_{e.name}"


def is_host_exercise(e):
    """Whether workbook.toml lists the exercise as a host function (compiled
    into an object) rather than a kernel (compiled into a device module)."""
    listed = {x.key: x for x in wbex.exercises()}
    return listed.get(e.key, e).kind == "host"


def object_file(slot, e, impl="starter"):
    """The object the build compiled from a host exercise's file."""
    found = sorted((slot.build / "CMakeFiles" / f"wb_{impl}_{e.section}_{e.name}.dir")
                   .rglob("*.o"))
    return found[0] if found else None

def _cache_value(cache_text, name):
    m = re.search(rf"^{re.escape(name)}:[A-Z]+=(.*)$", cache_text, re.M)
    return m.group(1) if m else None


def configure_command(slot, cmake_args):
    """The command that configures a slot's build: the grader preset, with
    the slot's build folder, its staged submission as the starter and the
    instructor's options on top (-B after --preset overrides the preset's
    binaryDir, as -D overrides its cache variables; checked with CMake 3.25,
    the presets' minimum). It runs in the repository root, where cmake finds
    CMakePresets.json."""
    return ["cmake", "--preset", PRESET, "-B", slot.build, f"-DWB_STARTER_DIR={slot.staged}",
            *cmake_args]


def configure(slot, cmake_args, commands, timeout):
    """Configure the slot's build unless it already is, with these options,
    against this repository and the slot's staged folder."""
    # The preset's resolved settings are part of what is compared, so editing
    # the grader preset configures every slot afresh.
    wanted = "\n".join([json.dumps(wbbuild.configure_preset(PRESET), sort_keys=True),
                        *cmake_args])
    args_file = slot.root / "configure-args.txt"
    cache = slot.build / "CMakeCache.txt"
    if cache.exists():
        text = cache.read_text(errors="replace")
        if (_cache_value(text, "CMAKE_HOME_DIRECTORY") != str(wbex.ROOT)
                or _cache_value(text, "WB_STARTER_DIR") != str(slot.staged)):
            # Configured for another checkout or folder: start afresh.
            shutil.rmtree(slot.build)
        elif args_file.exists() and args_file.read_text() == wanted:
            return CommandResult(0, "")
    result = commands.run(configure_command(slot, cmake_args), timeout, cwd=wbex.ROOT)
    if result.ok:
        args_file.write_text(wanted)
    return result


def build(slot, commands, jobs, timeout, targets=()):
    """cmake --build, going on past failures so every error is reported."""
    cmd = ["cmake", "--build", slot.build, "-j", str(jobs)]
    for target in targets:
        cmd += ["--target", target]
    return commands.run(cmd + ["--", "-k", "0"], timeout)


def student_paths(text, slot):
    """Paths as a student knows them: the staged folder as starter/ (also
    where the build names it relative to the repository, as in object file
    paths), the repository's files relative to its root."""
    text = text.replace(str(slot.staged) + "/", "starter/")
    if slot.staged.is_relative_to(wbex.ROOT):
        text = text.replace(f"{slot.staged.relative_to(wbex.ROOT)}/", "starter/")
    return text.replace(str(wbex.ROOT) + "/", "")


def unique_lines(text):
    """Each line once (two executables failing to link repeat the linker's
    complaint)."""
    return "\n".join(dict.fromkeys(text.splitlines()))


def compiler_messages(output, slot):
    """A build's output reduced to what the compiler said, with the staged
    folder shown as starter/ (the student's own paths)."""
    kept = []
    skip_command = False
    for line in output.splitlines():
        if skip_command:          # the command line after "FAILED: target"
            skip_command = False
            continue
        if line.startswith("FAILED: "):
            skip_command = True
            continue
        if re.match(r"^\[\d+/\d+\] ", line) or line.startswith("ninja: "):
            continue
        kept.append(line)
    text = "\n".join(kept).strip()
    return student_paths(text or output.strip(), slot)


def compile_exercises(slot, all_exercises, commands, jobs, timeout):
    """({exercise key: compiler messages} for the exercises that do not
    compile, {exercise key: reasons} for host exercises whose object is
    refused). All are first built together (in parallel, going on past
    errors); then each exercise's target is built on its own, which is
    instant when it compiled and yields exactly its own errors when not.
    Each compile runs under the build's per-exercise limits (memory, CPU
    and wall time: cmake/compile_with_limits.py), whose message names the
    limit hit; in the grader's build each compile also runs in the sandbox,
    and one that included a file outside chapters/ and the compiler's own
    headers is refused with the launcher's REFUSED line alone. A host
    exercise's object is then checked (wbcore/object_check.py) against the
    reference's."""
    targets = [exercise_target(e) for e in all_exercises]
    host = [e for e in all_exercises if is_host_exercise(e)]
    build(slot, commands, jobs, timeout,
          targets + [f"wb_solutions_{e.section}_{e.name}" for e in host])
    errors, refused = {}, {}
    limit = min(timeout, COMPILE_TIMEOUT)
    for e in all_exercises:
        result = build(slot, commands, 1, limit, [exercise_target(e)])
        refusals = [line for line in result.output.splitlines()
                    if line.startswith(REFUSED_PREFIX)]
        if result.timed_out:
            errors[e.key] = f"the compiler did not finish within {limit:.0f} s"
        elif refusals and not result.ok:
            # The preprocessor read a file outside the allowed set: only the
            # launcher's line is kept (anything else could quote that file).
            refused[e.key] = student_paths("\n".join(dict.fromkeys(refusals)), slot)
        elif not result.ok:
            errors[e.key] = compiler_messages(result.output, slot)
        elif e in host:
            student, reference = object_file(slot, e), object_file(slot, e, "solutions")
            if student is None or reference is None:
                errors[e.key] = "the build made no object file of it"
                continue
            try:
                problems = object_check.check_object(student, reference, e.key)
            except object_check.ToolMissing as err:
                problems = [f"REFUSED: starter/{e.key}.cu could not be checked: {err}"]
            if problems:
                refused[e.key] = "\n".join(problems)
    return errors, refused


def named_exercises(messages, all_exercises):
    """Exercises the linker's messages name: by their object files, or by
    their name as a whole word (an undefined `wb::reduction::reduceSmem`)."""
    return [e for e in all_exercises
            if f"{exercise_target(e)}.dir/" in messages
            or re.search(rf"\b{re.escape(e.name)}\b", messages)]


def failing_sections(output, all_exercises):
    """Sections whose exercise modules or host-exercise test executables
    failed to build (only those hold student code)."""
    sections = set()
    for line in output.splitlines():
        if not line.startswith("FAILED: "):
            continue
        sections.update(e.section for e in all_exercises
                        if f"wb_starter_{e.section}_" in line
                        or f"modules/starter/{e.section}/" in line)
    return sections


def _ctest_listing(slot, commands, args=(), timeout=600, ordinals=False):
    """[(name, labels)] of the tests `ctest -N` lists with these arguments,
    in CTest's order (wbcore/ctest_listing.py, run through `commands` so
    that Ctrl-C stops it); with `ordinals`, [(name, labels, ordinal)], the
    number `ctest -I` knows each by (the batch runs, which the listing leaves
    out, take numbers too). The labels carry each test's section, kind and
    exercise; a label naming an exercise the list lacks is an error."""
    def run(command, limit):
        result = commands.run(command, limit, separate_errors=True)
        return (0 if result.ok else 1), result.output, result.errors
    try:
        listed = ctest_listing.list_tests(slot.build, args, run=run, timeout=timeout)
    except ctest_listing.ListingError as err:
        raise RuntimeError(str(err)) from None
    if ordinals:
        return [(t.name, t.labels, t.ordinal) for t in listed]
    return [(t.name, t.labels) for t in listed]


def list_tests(slot, commands, timeout=600):
    """[(name, labels)] of every starter test CTest knows in the build."""
    return _ctest_listing(slot, commands, ["-L", "^starter$"], timeout)


def _label_regex(labels):
    return "^(" + "|".join(labels) + ")$"


# What the grader's progress lines call each kind of phase, by (timed,
# profiling): a shared run made again alone is timed but reads no counters.
PHASE_NAMES = {(False, False): "the shared run",
               (True, True): "the timed tests (alone on the GPU)",
               (True, False): "the shared run again, alone"}


def test_phases(gpu_present):
    """The CTest runs of a submission, as (label arguments, timed): every
    starter test but the timing-sensitive ones, then those (timed: run one
    submission at a time). Without a GPU only the host tests run, at once.
    (Repeated -L options must all match, since CMake 3.21.)"""
    starter = ["-L", "^starter$"]
    if not gpu_present:
        return [(starter + ["-LE", _label_regex(GPU_LABELS)], False)]
    return [(starter + ["-LE", _label_regex(TIMING_LABELS)], False),
            (starter + ["-L", _label_regex(TIMING_LABELS)], True)]


def selection_spec(listed, names):
    """CTest's -I argument for the tests of `listed` (a `ctest -N` listing
    made with the run's label filters) named in `names`, or "" for none.
    With label (or name) filters, CTest numbers -I's tests among those the
    filters let through, not as a plain `ctest -N` numbers them: the 2nd
    starter test is 2 under -L ^starter$, whatever its number in the whole
    list. A listing made with ordinals gives each test its own number (the
    batch runs it leaves out are numbered too); else a test's place in it.
    "0,0,0," is an empty range (start, end, stride) before the numbers."""
    wanted = set(names)
    numbers = [str(item[2] if len(item) > 2 else i)
               for i, item in enumerate(listed, 1) if item[0] in wanted]
    return "0,0,0," + ",".join(numbers) if numbers else ""


def select_tests(slot, commands, label_args, names):
    """CTest's -I argument to run exactly the tests in `names` that
    label_args let through; "" when none is. A dry run (-N) with the same
    arguments checks the selection before anything runs: should a CTest
    ever number the tests otherwise, None (run the whole phase: slower,
    never wrong)."""
    listed = _ctest_listing(slot, commands, label_args, ordinals=True)
    spec = selection_spec(listed, names)
    if not spec:
        return ""
    wanted = set(names)
    expected = [name for name, _, _ in listed if name in wanted]
    chosen = [name for name, _ in _ctest_listing(slot, commands, [*label_args, "-I", spec])]
    return spec if chosen == expected else None


@dataclasses.dataclass
class TestRun:
    """What the CTest runs of one submission reported."""
    results: dict          # JUnit results by test name
    output: str            # CTest's output, the runs one after the other
    timed_out: bool        # stopped at the suite timeout
    warnings: list = dataclasses.field(default_factory=list)   # for the instructor
    # wbcore/gtest_verdict.py's record of each GoogleTest test, by test name:
    # its verdict and the exercises whose code it ran (modules, objects)
    records: dict = dataclasses.field(default_factory=dict)
    # The tests whose last run failed with a sign of another process holding
    # the GPU (shared_gpu_casualties), or failed in a run where any test met
    # such a sign: their verdict is not stored in the result cache, where
    # another submission with the same files would reuse what this one's
    # code (or a neighbour's) did to the GPU.
    unsure: set = dataclasses.field(default_factory=set)


def read_records(folder):
    """{test name: record} of the records wbcore/gtest_verdict.py wrote in
    folder; an unreadable one is left out (its test then has no record)."""
    records = {}
    for path in sorted(pathlib.Path(folder).glob("*.json")):
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(doc.get("test"), str) and isinstance(doc.get("modules"), list):
                records[doc["test"]] = doc
        except (OSError, ValueError, AttributeError):
            continue
    return records


def _read_junit(path):
    if not path.exists():
        return {}
    try:
        return {r.name: r for r in wbres.load_junit(path)}
    except (OSError, ET.ParseError):  # a truncated report from a stopped run
        return {}


def _python_folders(slot):
    """The installations of the Pythons the tests may run: the build's
    (CMake's Python3_EXECUTABLE: a virtual environment and the Python it
    was made from) and the grader's own."""
    folders = {sys.prefix, sys.base_prefix}
    try:
        exe = _cache_value((slot.build / "CMakeCache.txt").read_text(errors="replace"),
                           "Python3_EXECUTABLE")
    except OSError:
        exe = None
    if exe:
        for form in (os.path.abspath(exe), os.path.realpath(exe)):
            folders.add(os.path.dirname(os.path.dirname(form)))
    return sorted(f for f in folders if f and os.path.isdir(f))


def _tool_folders():
    """The installation of CTest, when it lies outside the system folders
    the sandbox always shows (a CMake from pip or a tarball)."""
    found = shutil.which("ctest")
    if not found:
        return []
    prefix = os.path.dirname(os.path.dirname(os.path.realpath(found)))
    return [] if prefix.startswith(("/usr", "/opt")) else [prefix]


def confined_test_command(slot, cmd, run_folder, gpu_present, env, profiling=False):
    """A CTest command run in the sandbox (wbcore/sandbox.py): it sees the
    slot's build and staged submission, the repository's folders the tests
    read and the Pythons they run, read-only; it writes only the run's own
    folder and CTest's log (build/Testing). The work folder (other slots,
    the result cache), the results, solutions/ and the home folder are not
    there. With a GPU, its device files are; `profiling` (the perf and
    profile tests) keeps what Nsight Compute needs (sandbox.command)."""
    testing = slot.build / "Testing"
    testing.mkdir(parents=True, exist_ok=True)
    read_only = [slot.build, slot.staged, *_python_folders(slot), *_tool_folders()]
    read_only += [wbex.ROOT / name for name in TEST_RUN_SOURCES if (wbex.ROOT / name).exists()]
    passed = {k: v for k, v in wbbuild.env_with_cuda().items()
              if k.startswith(PASSED_ENV_PREFIXES) or k in PASSED_ENV}
    passed.update(env)
    return sandbox.command(cmd, read_only=read_only, writable=[run_folder, testing],
                           gpu=gpu_present, cwd=wbex.ROOT, env=passed, profiling=profiling,
                           admin_guard=slot.build / "bin" / ADMIN_GUARD)


def read_gpu_contention(folder):
    """The names of the tests whose harness found the GPU held by another
    process: the .contention notes in the run's records folder
    (wbcore/gtest_verdict.py, write_gpu_contention)."""
    names = set()
    for path in sorted(pathlib.Path(folder).glob("*" + gtest_verdict.CONTENTION_SUFFIX)):
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(doc, dict) and isinstance(doc.get("test"), str):
            names.add(doc["test"])
    return names


def shared_gpu_casualties(results, ctest_output, contention):
    """The tests of a phase run beside another submission's (the GPU lock
    held shared by both) that failed the way a test fails when another
    process holds the GPU's memory or time: any of them makes run_tests run
    the whole shared run again alone, so no submission's grade depends on
    what another's code did meanwhile. The signs are the harness's and CTest's own, never
    the test's output, where a kernel's printf lands ("out of memory"
    printed there bought a second try: forgery
    reduceSmemUnroll__prints_out_of_memory_for_a_second_try):
    `contention` names the tests whose harness met the GPU's memory taken
    or the device unavailable (what a new CUDA context gets on an H100
    whose memory another process holds, cudaErrorDevicesUnavailable:
    measured with the forgery
    optInDynamicShared__holds_the_gpu_memory_of_other_submissions), or
    whose sanitizer run stopped at its time limit (read_gpu_contention);
    `ctest_output` names CTest's timeouts. `results`: name -> JUnit record."""
    timed_out = {m.group(1) for m in CTEST_ABNORMAL_RE.finditer(ctest_output)
                 if m.group(2) == "Timeout"}
    return sorted(name for name, r in results.items()
                  if r.result == "failed" and (name in timed_out or name in contention))


def run_tests(slot, commands, gpu_present, jobs, timeout, only=None, gpu_lock=None,
              confined=True, exercises=None, phase_done=None, say=None):
    """Run the starter tests (all of them with a GPU, else the host ones),
    or only those named in `only`, in the CTest runs of test_phases: first
    all but the perf and profile tests, holding gpu_lock shared, so those of
    submissions graded in parallel may run at the same time (correctness and
    sanitizer runs may share the GPU); then the perf and profile tests
    holding it exclusively, so no other submission's kernel runs while they
    measure (gpu_lock: grading_run.GpuLock, or None for no locking; without
    a GPU nothing runs on one, so nothing is locked). When another
    submission's run held the GPU beside the shared run (the lock's own
    record, GpuLock.shared) and a test of it failed for want of GPU memory
    or time (shared_gpu_casualties), the whole shared run is made again
    with the lock held exclusively, as it would have run graded alone, and
    its verdicts replace the first run's: a neighbour's code cannot fail
    this submission's checks, and a submission whose own code takes the
    GPU's memory scores what it scores alone (its own checks fail again
    beside it), so a batch grades every submission as alone. Graded alone,
    a submission's failures are its own: nothing runs again.
    `timeout` bounds the runs together (the waits for the lock do not
    count). A phase with nothing to run starts no CTest. Each CTest runs in
    the sandbox (confined_test_command) unless confined is False; what the
    grader reads back (JUnit reports, records) is in a folder made afresh
    for the run. `exercises` (keys "section/name"), where only some tests
    run, limits the sections' sanitizer and profile batches to those
    exercises' kernels (nsight.BATCH_EXERCISES_ENV): the others' checks are
    not run. `phase_done(TestRun)`, where given, is called after each phase
    whose verdicts stand (it ended in time and is not to be made again
    alone) with that phase's results, output and records and its unsure
    tests: a grading stopped in a later phase keeps what this one found.
    `say(text)`, where given, is told how long each phase took, and waited
    for the GPU."""
    run = TestRun({}, "", False)
    outputs = []
    spent = 0.0
    run_folder = (slot.root / RUN_OUTPUT).absolute()
    shutil.rmtree(run_folder, ignore_errors=True)
    records = run_folder / RECORDS
    records.mkdir(parents=True)
    # (label arguments, GPU lock held alone, tests, jobs, reads the GPU's
    # counters): the timed phase profiles; a shared run made again alone
    # does not, so it gets no more of the machine than the first time.
    phases = [(label_args, timed, only, jobs, timed)
              for label_args, timed in test_phases(gpu_present)]
    index = 0
    while index < len(phases):
        label_args, timed, names, phase_jobs, profiling = phases[index]
        selection = []
        if names is not None:
            spec = select_tests(slot, commands, label_args, names)
            if spec == "":
                index += 1
                continue
            if spec is None:
                run.warnings.append("ctest -I did not select exactly the tests asked for (a "
                                    "CTest that numbers them otherwise?): every test of the run "
                                    "ran, not only those missing from the result cache")
            else:
                selection = ["-I", spec]
        if gpu_lock is None or not gpu_present:
            lock = contextlib.nullcontext()
        else:
            lock = gpu_lock.exclusive() if timed else gpu_lock.shared()
        asked = time.monotonic()
        with lock as hold:
            waited = time.monotonic() - asked
            if say is not None and waited >= 1:
                say(f"waited {waited:.0f} s for the GPU ({PHASE_NAMES[(timed, profiling)]})")
            left = timeout - spent
            if left <= 0:
                run.timed_out = True
                break
            # Absolute: CTest writes it from inside the build folder.
            junit = run_folder / f"ctest-junit-{index}.xml"
            junit.unlink(missing_ok=True)
            for note in records.glob("*" + gtest_verdict.CONTENTION_SUFFIX):
                note.unlink(missing_ok=True)   # each phase's notes are its own
            env = {"WB_TEST_RECORDS": str(records)}
            if exercises is not None:
                env[nsight.BATCH_EXERCISES_ENV] = ",".join(sorted(exercises))
            cmd = ["ctest", "--test-dir", slot.build.absolute(), *label_args, *selection,
                   "-j", str(phase_jobs), "--output-junit", junit, "--no-tests=ignore"]
            if confined:
                cmd = confined_test_command(slot, cmd, run_folder, gpu_present, env,
                                            profiling=profiling)
            started = time.monotonic()
            result = commands.run(cmd, left, env=env,
                                  preexec=sandbox.limits(file_mb=TEST_FILE_MB))
            spent += time.monotonic() - started
        outputs.append(result.output)
        phase_results = _read_junit(junit)
        run.results.update(phase_results)
        if say is not None:
            say(f"{PHASE_NAMES[(timed, profiling)]}: {len(phase_results)} tests in "
                f"{time.monotonic() - started:.0f} s" + (", stopped at the suite timeout"
                                                          if result.timed_out else ""))
        if result.timed_out:
            run.timed_out = True
            break
        contention = read_gpu_contention(records)
        hit = shared_gpu_casualties(phase_results, result.output, contention)
        run.unsure -= set(phase_results)
        if contention:
            # The GPU was held by another process during this phase: a
            # failure of it may be that, where no path of the harness could
            # tell (measured on an H100: racecheck's runner crashed), so none
            # of its failures is stored.
            run.unsure |= {name for name, r in phase_results.items() if r.result == "failed"}
        run.unsure |= set(hit)
        again = bool(hit and not timed and getattr(hold, "overlapped", False))
        if again:
            # The run made alone replaces these verdicts; should it report
            # nothing, none of the contended run's may be stored.
            run.unsure |= set(phase_results)
            phases.insert(index + 1, (label_args, True, names, phase_jobs, False))
        elif phase_done is not None and phase_results:
            phase_done(TestRun(phase_results, result.output, False,
                               unsure=run.unsure & set(phase_results),
                               records=read_records(records)))
        index += 1
    run.output = "\n".join(outputs)
    run.records = read_records(records)
    return run


def skip_reason(output):
    """Why a test skipped itself, from its output."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    for i, line in enumerate(lines):
        if line.lower().startswith("skipped:"):
            return line.split(":", 1)[1].strip()
        if line.endswith("Skipped") and i + 1 < len(lines) and not lines[i + 1].startswith("["):
            return lines[i + 1]
    return "the test skipped itself"


def test_outcomes(inventory, junit_results, ctest_output, not_run_reason, suite_timed_out,
                  suite_timeout):
    """A TestOutcome per listed test, from CTest's JUnit report and output:
    timeouts and crashes get their reason; tests that were left out (no GPU)
    or never reached are not run, with why."""
    abnormal = {m.group(1): m.group(2) for m in CTEST_ABNORMAL_RE.finditer(ctest_output)}
    outcomes = []
    for name, labels in inventory:
        found = junit_results.get(name)
        if found is None:
            if suite_timed_out:
                why = f"the test run was stopped after {suite_timeout:.0f} s"
            elif any(label in GPU_LABELS for label in labels) and not_run_reason:
                why = not_run_reason
            else:
                # Every test of the trusted listing must report: one that
                # went missing from the run fails, it is not left out.
                outcomes.append(TestOutcome(
                    name, labels, FAILED,
                    reason="the test did not report a result (it is in the workbook's list of "
                           "tests, but the run did not report it)"))
                continue
            outcomes.append(TestOutcome(name, labels, NOT_RUN, reason=why))
            continue
        reason = ""
        if found.result == "skipped":
            result, reason = NOT_RUN, skip_reason(found.output)
        elif found.result == "passed":
            result = PASSED
        else:
            result = FAILED
            what = abnormal.get(name, "")
            if what == "Timeout":
                reason = (f"timed out after {found.seconds:.0f} s: the code may never return "
                          "(an endless loop, a missing bound check, or a barrier not every "
                          "thread reaches)")
            elif what:
                reason = f"crashed ({what.strip()})"
        outcomes.append(TestOutcome(name, labels, result, found.seconds, found.output, reason))
    return outcomes


def unavailable_tests(inventory, all_exercises):
    """{(section, label): reason} for placeholder tests (label
    `placeholder`): an executable that was not built or could not list its
    tests, so the tests it holds are unknown. The kernel runner's
    placeholder (label `runner`) covers profile and sanitize."""
    found = {}
    for name, labels in inventory:
        if ctest_listing.PLACEHOLDER_LABEL not in labels:
            continue
        section = ctest_listing.section_of(labels, all_exercises)
        if "runner" in labels:
            for runner_section in {e.section for e in all_exercises}:
                for label in ("profile", "sanitize"):
                    found[(runner_section, label)] = "the kernel runner could not list its kernels"
        elif section is not None:
            for label in ("host", "gpu", "perf"):
                found[(section, label)] = (f"the {section} tests could not be built or "
                                           "listed, so none of them ran")
    return found
