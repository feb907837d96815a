"""A cache of test outcomes, so that grading a class runs each test once per
distinct input instead of once per submission.

Most submissions share most exercise files: an exercise a student did not
touch is the pristine starter, and a student who changed one file left the
others as they were. The invariant the cache relies on: a stored outcome is
reused only when everything that ran in the test's process is the same as
when it was stored. What runs in a test process:

  - the repository's tests, harness, contracts and tools, the toolchain, the
    GPU, the build options and the WB_* environment: the same for the whole
    class, hashed into the context every key includes;
  - the exercise code it loaded or read: a GoogleTest test holds no exercise code of
    its own; it loads the device module of each exercise whose kernel it
    launches (chapters/common/exercise_kernel.h), and a host exercise's test
    links that one exercise's object. wbcore/gtest_verdict.py records, for
    each test, which modules the harness loaded and which objects were
    linked; the grader reads that record (never the test's output, which a
    kernel's printf could forge). A profile or sanitize test runs the kernel
    runner, which refuses to load any module but that of the one kernel it
    runs (wb::loadOnlyModule), so it ran its exercise's code alone. A
    profile or method-counter test may read its values from its section's
    batch instead (tests/checks/profile_check.py --from-batch): one ncu
    process in which the runner loads each kernel's module afresh, unloads
    it after the kernel (wb::unloadModules), and the counters are those of
    that kernel's own launch, so they too depend on its exercise's code
    alone. A
    method test (tests/checks/method_check.py) reads its own exercise's
    module alone, with the disassemblers whose versions the context holds.

The key of a test is a hash over its name and labels, the context, and the
files of the exercises it is expected to run (those of the exercise its
`exercise=` label names, else its section's: wbcore/ctest_listing.py): the
index under which an outcome is looked up. The
entry also stores the digest of every exercise file the run actually loaded
or linked, and is reused only when each of those equals the submission's:
so even a test that ran more than its labels suggest is reused only where
all of it was the same. A GoogleTest test without a record is never stored.

What is never read from or written to the cache: perf tests (timings are
measured afresh for every submission), with two exceptions below,
placeholder tests (an executable that could not be built or list its
tests), outcomes that are not a plain pass or fail (not run, timed out,
crashed, did not report), and, for writing, anything of a phase of the
test run (the shared run, the timed tests) stopped at the suite timeout; a
phase that ended before it is stored as it ended.

The exception: a perf test that failed while every exercise file it ran was
the pristine starter (byte for byte, our own code, which no student chose),
one of them at least an exercise's (not a worked example's, which is
complete). The starter's exercise kernels leave their output unwritten, so
such a test fails on its result check ("cannot time reduceSmem before it is
correct: ... unwritten", on an H100) whatever the timings, every time; running it
again for each student who has not reached that section only costs the
minutes of exclusive GPU that a class's grading spends mostly on perf
tests.

The other exception: a perf test that passed while every exercise file it
ran was the reference solution, byte for byte (solutions/: our own code
again, timed against the same reference kernels, so the pass says nothing
of a student and no student's code ran in its process). A submission that
changed one file of the solutions (the forgeries of
grader/tests/grade_forgeries.py, or a student who copied solutions/) then
runs only the perf tests of that file. A perf failure of the reference
files is never stored, a perf pass of any other file never, nor a failure
that ran a student's file.

A failure whose cause lies outside the code is kept out where the grader
can tell: a test whose harness met CUDA's out-of-memory or device-unavailable
error (its own record says so, never its output), or a time limit, is not
stored; when it shared the GPU with another submission's tests it runs again
with the GPU to itself, one test at a time, and that run's verdict is stored
if it shows no such sign (grader/build.py, shared_gpu_casualties). One
limit remains: such a failure that shows none of those signs is stored like
any failure; timeouts and crashes are not stored. Delete the cache folder, or
grade with --no-cache, to run everything afresh.

Entries are small JSON files, <folder>/<key[:2]>/<key>.json, each written
atomically (a temporary file, then a rename), so graders running at once may
share one folder. An entry that cannot be read, does not hold a cacheable
outcome of the test asked for, or ran other exercise files than the
submission's, is a miss, never an error.
"""
import hashlib
import json
import math
import os
import pathlib
import subprocess

from wbcore import build as wbbuild
from wbcore import course as wbex
from wbcore import ctest_listing
from wbcore import sass
from . import report as gr
from . import score as gs
from .submission import exercise_path

# Bump when an entry or a key changes meaning. 3: a test's exercise comes
# from its `exercise=` label, no longer from its name.
FORMAT = 3
UNCACHED_LABELS = ("perf",)
# Tests that run the kernel runner, which loads the module of their own
# exercise and no other (so they need no record of what they loaded).
RUNNER_LABELS = ("profile", "sanitize")
# Tests that read the module of their own exercise and no other: the
# runner's, and the method checks, which disassemble it.
OWN_MODULE_LABELS = RUNNER_LABELS + ("method",)
# What the grading build compiles or runs besides the exercise files: the
# build scripts, the contracts, the tests and their harness, the kernel
# runner, the checks CTest runs and the Python they import (all of wbcore
# and the grader, so a change to how the grader reads CTest's results also
# starts the cache afresh), and solutions/, from which the reference modules
# that the perf, profile and method checks hold a kernel against are built.
# The grader's own tests are not among them.
FINGERPRINTED = ("CMakeLists.txt", "CMakePresets.json", "cmake", "chapters", "solutions", "tests",
                 "wbcore", "workbook.toml", "grader/build.py", "grader/score.py",
                 "grader/points.py", "grader/cache.py")
SKIPPED_PARTS = ("__pycache__",)
TOOL_VERSIONS = (("nvcc", "--version"), ("ctest", "--version"))


def _sha256(data):
    return hashlib.sha256(data).hexdigest()


def _files(root, paths):
    """The files under each of `paths` (relative to root), sorted; a path
    that does not exist is listed as such, so adding it changes the hash."""
    for relative in paths:
        path = pathlib.Path(root) / relative
        if path.is_file():
            yield relative, path
        elif path.is_dir():
            for found in sorted(path.rglob("*")):
                parts = found.relative_to(root).parts
                if (found.is_file() and not found.name.endswith(".pyc")
                        and not any(p in SKIPPED_PARTS for p in parts)):
                    yield "/".join(parts), found
        else:
            yield relative, None


def repository_fingerprint(root=wbex.ROOT, paths=FINGERPRINTED):
    """A hash of every file of `paths`: their names and contents."""
    digest = hashlib.sha256()
    for relative, path in _files(root, paths):
        try:
            content = _sha256(path.read_bytes()) if path is not None else "missing"
        except OSError as err:
            content = f"unreadable: {err.strerror}"
        digest.update(f"{relative}\0{content}\n".encode())
    return digest.hexdigest()


def tool_versions():
    """What `nvcc --version` and `ctest --version` say: a new toolkit
    compiles the kernels anew, and a new CTest may report differently; and
    the disassemblers' versions, which the method checks read kernels with."""
    said = {"disassemblers": sass.tool_versions()}
    for cmd in TOOL_VERSIONS:
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=60,
                                  env=wbbuild.env_with_cuda())
            said[cmd[0]] = done.stdout.strip() or done.stderr.strip()
        except (OSError, subprocess.TimeoutExpired) as err:
            said[cmd[0]] = f"failed: {err}"
    return said


def context(gpu_present, gpu_note, cmake_args, root=wbex.ROOT, versions=None, environ=None):
    """The part of every key that is the same for the whole class: the
    repository, the toolchain, the GPU, the build's options and the WB_*
    environment (WB_SEED fixes the random inputs). Computed once per grader."""
    environ = os.environ if environ is None else environ
    document = {
        "format": FORMAT,
        "repository": repository_fingerprint(root),
        "tools": tool_versions() if versions is None else versions,
        "gpu_present": bool(gpu_present),
        "gpu": gpu_note,
        "cmake_args": list(cmake_args),
        "environment": {k: v for k, v in sorted(environ.items()) if k.startswith("WB_")},
    }
    return _sha256(json.dumps(document, sort_keys=True).encode())


def dependencies(labels, all_exercises):
    """The exercises whose files a test is expected to run (see the module's
    docstring), from its labels: the exercise they name, else their
    section's, else all of them. The key covers them; the entry's record of
    what really ran is checked too."""
    owner = ctest_listing.exercise_of(labels, all_exercises)
    if owner is not None:
        return [owner]
    section = ctest_listing.section_of(labels, all_exercises)
    return [e for e in all_exercises if e.section == section] or list(all_exercises)


def exercise_digests(staged, all_exercises):
    """{exercise key: hash of the file the build compiled} from a slot's
    staged folder, read after the grader put the pristine starter in place
    of the files that did not compile or link."""
    digests = {}
    for e in all_exercises:
        try:
            digests[e.key] = _sha256((pathlib.Path(staged) / exercise_path(e)).read_bytes())
        except OSError as err:
            digests[e.key] = f"unreadable: {err.strerror}"
    return digests


def readable(labels, digests=None, pristine=None, all_exercises=None, reference=None):
    """Whether a test's outcome may come from the cache at all: a perf test's
    only where every exercise it may run (its dependencies) is the pristine
    starter in this submission (`digests`), or every one is the reference
    solution (`reference`: reference_digests), so a stored failure of the
    pristine starter or a stored pass of the reference files is all it can
    find."""
    if ctest_listing.PLACEHOLDER_LABEL in labels:
        return False
    if not timed(labels):
        return True
    if digests is None:
        return False
    needed = dependencies(labels, all_exercises or wbex.exercises())
    return any(known is not None and all(digests.get(e.key) == known.get(e.key) for e in needed)
               for known in (pristine, reference))


def timed(labels):
    """Whether a test measures time (a perf test)."""
    return any(label in UNCACHED_LABELS for label in labels)


def pristine_digests(all_exercises=None, root=wbex.ROOT):
    """{exercise key: digest} of the pristine starter files (exercise_digests
    of a slot staged with no submission file)."""
    all_exercises = wbex.exercises() if all_exercises is None else all_exercises
    return {e.key: _sha256(e.starter_file(root).read_bytes()) for e in all_exercises}


def reference_digests(all_exercises=None, root=wbex.ROOT):
    """{exercise key: digest} of the reference solutions' files."""
    all_exercises = wbex.exercises() if all_exercises is None else all_exercises
    return {e.key: _sha256(e.solution_file(root).read_bytes()) for e in all_exercises}


def cacheable(outcome, ran=None, pristine=None, to_do=(), reference=None):
    """Whether an outcome may be stored or reused: a plain pass or fail of a
    test that may come from the cache (not run, timed out or crashed: never);
    of a perf test, only a failure whose run ran nothing but pristine starter
    files (`ran`: {exercise key: digest}; `pristine`: pristine_digests), among
    them an exercise's TODO kernel (`to_do`: the keys of the exercises that
    are not worked examples), so it failed on the unwritten output, not on a
    time; or a pass whose run ran nothing but reference solution files
    (`reference`: reference_digests)."""
    if not (ctest_listing.PLACEHOLDER_LABEL not in outcome.labels
            and outcome.result in (gs.PASSED, gs.FAILED) and not outcome.reason):
        return False
    if not timed(outcome.labels):
        return True
    if not ran:
        return False
    if outcome.result == gs.PASSED:
        return reference is not None and all(reference.get(k) == v for k, v in ran.items())
    return (pristine is not None and any(k in to_do for k in ran)
            and all(pristine.get(k) == v for k, v in ran.items()))


def test_key(name, labels, context_digest, digests, all_exercises):
    """The cache key of one test of one submission."""
    document = {
        "test": name,
        "labels": list(labels),
        "context": context_digest,
        "files": {e.key: digests[e.key] for e in dependencies(labels, all_exercises)},
    }
    return _sha256(json.dumps(document, sort_keys=True).encode())


def ran_files(labels, record, digests, all_exercises):
    """{exercise key: digest} of the exercise files a finished test ran
    (loaded as a module or linked as an object), or None when that is not
    known, so its outcome must not be stored: a GoogleTest test's from its
    record, a runner or method test's by construction (its own exercise)."""
    if record is not None:
        modules = record.get("modules")
        if not isinstance(modules, list) or not all(m in digests for m in modules):
            return None
        return {m: digests[m] for m in modules}
    if any(label in OWN_MODULE_LABELS for label in labels):
        return {e.key: digests[e.key] for e in dependencies(labels, all_exercises)}
    return None


def merge(inventory, cached, fresh):
    """Outcomes in the order of the listed tests: the cached ones where there
    are, else the fresh one (every listed test has one or the other)."""
    by_name = {t.name: t for t in fresh}
    return [cached[name] if name in cached else by_name[name] for name, _ in inventory]


class OutcomeCache:
    """Test outcomes by key, one JSON file each under `folder`."""

    def __init__(self, folder, pristine=None, reference=None):
        self.folder = pathlib.Path(folder)
        # What a stored perf failure must have run (cacheable): the pristine
        # starter's files, one of them an exercise's TODO kernel; and a
        # stored perf pass: the reference solutions' files.
        self.pristine = pristine_digests() if pristine is None else pristine
        self.reference = reference_digests() if reference is None else reference
        self.to_do = {e.key for e in wbex.exercises() if not e.worked_example}

    def _path(self, key):
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key, name, labels, digests):
        """The stored outcome of test `name` (marked reused), or None when
        there is none, it cannot be trusted, or the run that stored it ran
        an exercise file other than the submission's (`digests`: {exercise
        key: digest} of the files this submission's build compiled)."""
        try:
            doc = json.loads(self._path(key).read_text(encoding="utf-8"))
            outcome = gs.TestOutcome(name, tuple(labels), doc["result"], float(doc["seconds"]),
                                     doc["output"], doc["reason"], reused=True)
            ran = doc["ran"]
            trusted = (doc["format"] == FORMAT and doc["test"] == name
                       and tuple(doc["labels"]) == tuple(labels)
                       and isinstance(outcome.output, str) and isinstance(outcome.reason, str)
                       and math.isfinite(outcome.seconds) and outcome.seconds >= 0
                       and isinstance(ran, dict)
                       and cacheable(outcome, ran, self.pristine, self.to_do, self.reference)
                       and all(digests.get(k) == v for k, v in ran.items()))
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return None
        return outcome if trusted else None

    def put(self, key, outcome, ran):
        """Store a cacheable outcome with the exercise files its run ran
        (ran_files); returns whether it was stored. A cache that cannot be
        written only costs time: the error is not raised."""
        if ran is None or not cacheable(outcome, ran, self.pristine, self.to_do, self.reference):
            return False
        doc = {"format": FORMAT, "test": outcome.name, "labels": list(outcome.labels),
               "result": outcome.result, "seconds": outcome.seconds, "output": outcome.output,
               "reason": outcome.reason, "ran": ran}
        try:
            gr.atomic_write(self._path(key), json.dumps(doc))
            return True
        except OSError:
            return False
