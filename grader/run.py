"""Grading one submission, and a folder of them (batch mode, resumable).

grade() never raises for anything a submission does: an unreadable archive,
an empty submission, a compile or link error, a crash or a hang all become a
scored Grade with the reason. Only Interrupted (Ctrl-C) escapes, and then
nothing is written for the submission.
"""
import concurrent.futures
import contextlib
import dataclasses
import pathlib
import threading
import time
import traceback

from wbcore import course as wbex
from wbcore import ctest_listing
from wbcore.files import printable
from . import build as gb
from . import cache as gc
from . import report as gr
from . import score as gs
from . import submission as gsub
from .records import (Entry, FOLDER_DIGEST, FOLDER_UNSAFE, batch_entries,  # noqa: F401
                      batch_outputs, finished, output_folder)


@dataclasses.dataclass
class Options:
    points: object                 # grading_points.Points
    work_dir: pathlib.Path         # where the slots (build folders) live
    gpu_present: bool
    gpu_note: str                  # the GPU, or why there is none
    build_jobs: int = 2            # parallel compilations in one build
    test_jobs: int = 4             # parallel tests in one CTest run
    build_timeout: float = 3600.0  # seconds for one cmake --build of many targets
    suite_timeout: float = 3 * 3600.0
    cmake_args: tuple = ()
    cache: bool = True             # reuse test outcomes of identical earlier runs
    seed: int = None               # of every test's random inputs (WB_SEED); None: each its own
    confined: bool = True          # compile and run student code in the sandbox (wbcore/sandbox.py)

    @property
    def build_args(self):
        """The grading build's CMake options: the instructor's, and with
        --unconfined the compiles taken out of the sandbox (the include
        check stays)."""
        return (tuple(self.cmake_args) if self.confined
                else (*self.cmake_args, "-DWB_SANDBOX_COMPILES=OFF"))

    @property
    def cache_dir(self):
        return pathlib.Path(self.work_dir) / "cache"


class SharedHold:
    """One shared hold of the GPU lock: `overlapped` becomes True when another
    holder held the lock at any moment of this one (the grader's own record
    of who shared the GPU, which no test can write)."""

    def __init__(self):
        self.overlapped = False


class GpuLock:
    """The GPU, shared by the test runs of submissions graded in parallel:
    runs that only need it to be there (correctness, sanitizer) hold it
    shared, any number at once; a run that measures it (perf, profile) holds
    it alone. A waiting exclusive holder goes before new shared ones, so a
    stream of correctness runs cannot keep the timed runs waiting forever.
    shared() yields a SharedHold that says whether another run held the GPU
    beside it: only then may a failed test be another submission's doing
    (grader/build.py, run_tests)."""

    def __init__(self):
        self._changed = threading.Condition()
        self._holds = set()     # the shared holds now held
        self._exclusive = False
        self._waiting = 0       # exclusive holders waiting

    @contextlib.contextmanager
    def shared(self):
        hold = SharedHold()
        with self._changed:
            self._changed.wait_for(lambda: not self._exclusive and not self._waiting)
            if self._holds:
                hold.overlapped = True
                for other in self._holds:
                    other.overlapped = True
            self._holds.add(hold)
        try:
            yield hold
        finally:
            with self._changed:
                self._holds.discard(hold)
                self._changed.notify_all()

    @contextlib.contextmanager
    def exclusive(self):
        with self._changed:
            self._waiting += 1
            try:
                self._changed.wait_for(lambda: not self._exclusive and not self._holds)
            finally:
                self._waiting -= 1
            self._exclusive = True
        try:
            yield
        finally:
            with self._changed:
                self._exclusive = False
                self._changed.notify_all()


class Grader:
    """Grades submissions; shares the running commands (to stop them on
    Ctrl-C), the GPU lock that keeps the timing-sensitive test runs (perf,
    profile) one at a time and alone on the GPU, so submissions graded in
    parallel never time each other's kernels, and the result cache
    (grading_cache)."""

    def __init__(self, options):
        self.options = options
        self.commands = gb.Commands()
        self.gpu_lock = GpuLock()
        self.all_exercises = wbex.exercises()
        self.cache = gc.OutcomeCache(options.cache_dir) if options.cache else None
        self._cache_context = None
        self._context_lock = threading.Lock()
        # Called with (submission name, what it is doing now) as grading goes
        # on: a batch prints it, so hours of grading are never silent.
        self.progress = lambda name, doing: None

    def grade(self, source, name, slot):
        started = time.monotonic()
        try:
            grade = self._grade(pathlib.Path(source), name, slot)
        except gb.Interrupted:
            raise
        except Exception as err:  # a grader bug: an error for the gradebook, the trace for the log
            grade = self._failed(name, "error",
                                 f"internal grader error: {type(err).__name__}: {err}")
            grade.warnings.append(traceback.format_exc())
        grade.seconds = time.monotonic() - started
        grade.seed = self.options.seed
        grade.confined = self.options.confined
        return grade

    def _failed(self, name, status, reason, notes=()):
        results = gs.zero_results(self.options.points, gs.STATE_NOT_GRADED,
                                  f"NOT GRADED: {reason}")
        return gs.Grade(name, status, reason, results, list(notes))

    def _grade(self, source, name, slot):
        options = self.options
        try:
            submission = gsub.read(source, self.all_exercises)
        except gsub.SubmissionError as err:
            return self._failed(name, "error", str(err))
        notes = list(submission.notes)
        if submission.empty:
            return self._failed(
                name, "empty", "the submission holds no exercise file (expected "
                "starter/<section>/<exercise>.cu or <section>/<exercise>.cu, for example "
                "starter/layout/setRowReadCol.cu)", notes)
        problems = {}
        if options.points.missing_exercise == "zero":
            for key in submission.missing:
                problems[key] = gs.Problem("missing", f"NOT GRADED: starter/{key}.cu is not in "
                                           "the submission, so its checks score 0")
        # What an exercise file includes is decided when it compiles, by the
        # preprocessor's own list of the files it read (_compile).
        gsub.stage({k: v for k, v in submission.contents.items() if k not in problems},
                   slot.staged, self.all_exercises)

        configured = gb.configure(slot, options.build_args, self.commands, options.build_timeout)
        if not configured.ok:
            return self._failed(name, "error", "the grading build could not be configured (a "
                                "problem of the grading machine, not of the submission): "
                                + configured.output[-1500:], notes)
        self.progress(name, "compiling its exercise files and building the tests")
        self._compile(slot, submission, problems)
        built, messages = self._build_everything(slot, submission, problems)
        if not built:
            return self._failed(name, "error", "the tests do not build even with the pristine "
                                "starter (a problem of the grading machine or the repository, "
                                "not of the submission): " + messages[-1500:], notes)

        self._not_attempted(submission, problems)
        inventory = gb.list_tests(slot, self.commands)
        outcomes, run = self._outcomes(inventory, slot, name, unrun_reasons(problems))
        gpu_missing = "" if options.gpu_present else options.gpu_note
        unavailable = gb.unavailable_tests(inventory, self.all_exercises)
        results, ungraded, warnings = gs.score(options.points, outcomes, problems, unavailable,
                                               self.all_exercises)
        status, reason = self._status(problems, outcomes, run.timed_out)
        return gs.Grade(name, status, reason, results, notes, gpu_missing, 0.0, ungraded,
                        warnings + run.warnings, len(outcomes),
                        sum(1 for t in outcomes if t.reused),
                        reference_files(submission, self.all_exercises),
                        untouched_files(submission, self.all_exercises))

    def _not_attempted(self, submission, problems):
        """The exercises with a TODO whose file is the starter as shipped (or
        absent, where points.toml grades a missing file as the starter),
        and that are not otherwise ungraded, become problems scoring 0,
        whose tests are not run (unrun_reasons). A TODO left as given fails
        its tests (workbook.starter_is_unsolved; the pristine starter earns
        nothing), so running them, sanitizers, profiles and timed runs
        included, would only cost minutes of a GPU."""
        for key in untouched_files(submission, self.all_exercises):
            if key not in problems:
                problems[key] = gs.Problem(
                    "not attempted", f"NOT ATTEMPTED: starter/{key}.cu is the starter as "
                    "shipped, so its checks score 0 (its tests were not run)")

    def _unrun_exercise(self, labels, unrun):
        """The exercise of `unrun` a test runs (its `exercise=` label, or a
        comparison's `compares=` labels), or None."""
        if not unrun:
            return None
        exercise = ctest_listing.exercise_of(labels, self.all_exercises)
        if exercise is not None:
            return exercise.key if exercise.key in unrun else None
        return next((key for key in ctest_listing.compared_keys(labels, self.all_exercises)
                     if key in unrun), None)

    def _outcomes(self, inventory, slot, submission="", unrun=None):
        """(an outcome per listed test, the gb.TestRun of those that ran): the
        result cache's where it holds the test's key, else from CTest, which
        then runs only the tests that missed (none: no CTest at all). The
        fresh outcomes the cache may keep are stored as each phase of the run
        ends, and again at its end, except those of a phase stopped at the
        suite timeout or made again alone. A test of an exercise in `unrun`
        ({key: why}: those that score 0 whatever their tests say, or a
        comparison that times one) is not run: it fails for that reason,
        or, a GPU test where there is no GPU, is not run as any GPU test
        is."""
        options = self.options
        full_inventory = inventory
        untouched = []
        for test, labels in inventory:
            key = self._unrun_exercise(labels, unrun)
            if key is None:
                continue
            if not options.gpu_present and any(l in gb.GPU_LABELS for l in labels):
                untouched.append(gs.TestOutcome(test, labels, gs.NOT_RUN,
                                                reason=f"no GPU here: {options.gpu_note}"))
            else:
                untouched.append(gs.TestOutcome(test, labels, gs.FAILED, reason=unrun[key]))
        if untouched:
            skipped = {t.name for t in untouched}
            inventory = [(t, labels) for t, labels in inventory if t not in skipped]
        keys, digests = self._cache_keys(inventory, slot)
        cached = {}
        for name, labels in inventory:
            found = self.cache.get(keys[name], name, labels, digests) if name in keys else None
            if found is not None:
                cached[name] = found
        missed = [(test, labels) for test, labels in inventory if test not in cached]
        self.progress(submission, f"{len(inventory)} tests: {len(cached)} reused from identical "
                      f"runs, {len(missed)} to run" + (" (the timed ones alone on the GPU)"
                                                       if missed and options.gpu_present else ""))
        run = gb.TestRun({}, "", False)
        not_run = "" if options.gpu_present else f"no GPU here: {options.gpu_note}"

        def outcomes_of(tests, run):
            fresh = gb.test_outcomes(tests, run.results, run.output, not_run,
                                     run.timed_out, options.suite_timeout)
            for t in fresh:
                t.output = gb.student_paths(t.output, slot)
            return fresh

        def store(fresh, run):
            for t in fresh:
                if t.name in keys and not run.timed_out and t.name not in run.unsure:
                    ran = gc.ran_files(t.labels, run.records.get(t.name), digests,
                                       self.all_exercises)
                    self.cache.put(keys[t.name], t, ran)

        def phase_done(phase):
            # Stored as each phase ends: a grading stopped in a later one
            # (Ctrl-C, a Slurm time limit) resumes without this one's tests.
            store(outcomes_of([m for m in missed if m[0] in phase.results], phase), phase)

        if missed:
            partial = bool(cached or untouched)
            run = gb.run_tests(slot, self.commands, options.gpu_present, options.test_jobs,
                               options.suite_timeout,
                               only=[test for test, _ in missed] if partial else None,
                               gpu_lock=self.gpu_lock, confined=options.confined,
                               exercises=self._run_exercises(missed) if partial else None,
                               phase_done=phase_done if self.cache is not None and keys
                               else None,
                               say=lambda text: self.progress(submission, text))
        fresh = outcomes_of(missed, run)
        store(fresh, run)
        outcomes = gc.merge(inventory, cached, fresh)
        if untouched:
            order = {name: i for i, (name, _) in enumerate(full_inventory)}
            outcomes = sorted(outcomes + untouched, key=lambda t: order[t.name])
        return outcomes, run

    def _run_exercises(self, tests):
        """The keys ("section/name") of the exercises whose kernels the
        listed tests check or time: the kernels a section's batch must run
        for them."""
        keys = set()
        for _, labels in tests:
            exercise = ctest_listing.exercise_of(labels, self.all_exercises)
            if exercise is not None:
                keys.add(exercise.key)
            keys.update(ctest_listing.compared_keys(labels, self.all_exercises))
        return keys

    def _cache_keys(self, inventory, slot):
        """({test name: cache key} of the listed tests the cache may hold,
        {exercise key: digest}), from the exercise files as compiled (read
        from the slot after the grader put the pristine starter in place of
        those that do not compile or were refused); empty without a cache."""
        if self.cache is None:
            return {}, {}
        with self._context_lock:
            if self._cache_context is None:
                options = self.options
                self._cache_context = gc.context(options.gpu_present, options.gpu_note,
                                                 options.build_args)
        digests = gc.exercise_digests(slot.staged, self.all_exercises)
        return ({name: gc.test_key(name, labels, self._cache_context, digests, self.all_exercises)
                 for name, labels in inventory
                 if gc.readable(labels, digests, self.cache.pristine, self.all_exercises,
                                self.cache.reference)}, digests)

    def _compile(self, slot, submission, problems):
        """Each submitted exercise that does not compile scores 0 with the
        compiler's errors (or the compile limit it hit); a host exercise
        whose object reaches outside its exercise is refused, scoring 0 with
        the symbols named. The pristine starter takes the place of either,
        so the rest of the submission is still graded."""
        options = self.options
        errors, refused = gb.compile_exercises(slot, self.all_exercises, self.commands,
                                               options.build_jobs, options.build_timeout)
        for e in self.all_exercises:
            if e.key not in submission.contents or e.key in problems:
                continue
            if e.key in errors:
                problems[e.key] = gs.Problem(
                    "compile error", f"COMPILE ERROR: starter/{e.key}.cu does not compile, so its "
                    f"checks score 0. The compiler said:\n{errors[e.key]}")
            elif e.key in refused:
                problems[e.key] = gs.Problem(
                    "refused", f"REFUSED: starter/{e.key}.cu reaches outside its exercise (an "
                    f"#include outside the contracts and the compiler's headers, or code outside "
                    f"the exercise), so its checks score 0:\n{refused[e.key]}")
            else:
                continue
            gsub.write_if_changed(slot.staged / gsub.exercise_path(e), gsub.pristine_starter(e))

    def _build_everything(self, slot, submission, problems):
        """Build the tests and the runner. When that fails although every
        exercise compiled (a link error, such as a helper defined in two
        files), find the exercises to blame: put the pristine starter in
        place of every suspect, then bring the student's files back one at a
        time; one that breaks the build again scores 0 with the linker's
        messages and stays replaced. Suspects: the submitted files that
        differ from the starter in the sections that failed, those the
        linker names first. Returns (built, messages): built is False when
        even the pristine starter fails (the grading machine's problem, not
        the student's), with the build's messages."""
        options = self.options
        result = gb.build(slot, self.commands, options.build_jobs, options.build_timeout)
        if result.ok:
            return True, ""
        messages = gb.compiler_messages(result.output, slot)
        sections = gb.failing_sections(result.output, self.all_exercises)
        named = gb.named_exercises(messages, self.all_exercises)
        suspects = [e for e in named + self.all_exercises
                    if (e in named or e.section in sections) and e.key in submission.contents
                    and e.key not in problems
                    and submission.contents[e.key] != gsub.pristine_starter(e)]
        suspects = list(dict.fromkeys(suspects))
        for e in suspects:
            gsub.write_if_changed(slot.staged / gsub.exercise_path(e), gsub.pristine_starter(e))
        if not suspects or not gb.build(slot, self.commands, options.build_jobs,
                                        options.build_timeout).ok:
            return False, messages
        for e in suspects:
            gsub.write_if_changed(slot.staged / gsub.exercise_path(e), submission.contents[e.key])
            attempt = gb.build(slot, self.commands, options.build_jobs, options.build_timeout)
            if not attempt.ok:
                problems[e.key] = gs.Problem(
                    "link error", f"LINK ERROR: starter/{e.key}.cu compiles, but the tests do not "
                    "link with it (a missing or a duplicated definition?), so its checks score "
                    "0. The linker said:\n"
                    + gb.unique_lines(gb.compiler_messages(attempt.output, slot))[-3000:])
                gsub.write_if_changed(slot.staged / gsub.exercise_path(e),
                                      gsub.pristine_starter(e))
        return gb.build(slot, self.commands, options.build_jobs, options.build_timeout).ok, ""

    @staticmethod
    def _status(problems, outcomes, suite_timed_out):
        """The first status that applies (see grading_score.STATUSES), and a
        reason naming everything that went wrong."""
        broken = sorted(k for k, p in problems.items()
                        if p.state in ("compile error", "link error"))
        refused = sorted(k for k, p in problems.items() if p.state == "refused")
        hung = [t.short_name for t in outcomes if t.reason.startswith("timed out")]
        missing = sorted(k for k, p in problems.items() if p.state == "missing")
        reasons = []
        if broken:
            reasons.append(f"{len(broken)} exercise(s) did not compile or link: "
                           + ", ".join(broken))
        if refused:
            reasons.append(f"{len(refused)} exercise(s) refused (an #include outside the "
                           "contracts, or code outside the exercise): " + ", ".join(refused))
        if suite_timed_out:
            reasons.append("the test run was stopped at --suite-timeout")
        if hung:
            reasons.append(f"{len(hung)} test(s) timed out, first {hung[0]}")
        if missing:
            reasons.append(f"{len(missing)} exercise file(s) not submitted")
        status = ("refused" if refused else "compile-errors" if broken else
                  "timeout" if suite_timed_out or hung else "ok")
        return status, "; ".join(reasons)


# Why an exercise that scores 0 whatever its tests say (a problem of
# grader/score.py) has none of its tests run: by the problem's state.
UNRUN_REASONS = {
    "not attempted": "not attempted: starter/{key}.cu is the starter as shipped",
    "missing": "not run: starter/{key}.cu is not in the submission",
    "compile error": "not run: starter/{key}.cu does not compile",
    "link error": "not run: starter/{key}.cu does not link",
    "refused": "not run: starter/{key}.cu was refused",
}


def unrun_reasons(problems):
    """{exercise key: why its tests are not run} for every exercise with a
    problem: it scores 0 on all its checks (grader/score.py), and where its
    file did not compile or was missing, the pristine starter that stood in
    would only fail them, so running them would only cost the GPU's time."""
    return {key: UNRUN_REASONS.get(p.state, "not run: {key} scores 0 ({state})").format(
        key=key, state=p.state) for key, p in problems.items()}


def _files_equal(submission, exercises, path_of):
    """The keys of the exercises whose submitted file equals path_of(exercise)
    byte for byte."""
    found = []
    for e in exercises:
        data = submission.contents.get(e.key)
        try:
            if data is not None and data == path_of(e).read_bytes():
                found.append(e.key)
        except OSError:
            pass
    return found


def reference_files(submission, all_exercises):
    """The exercise keys whose submitted file is the reference solution,
    byte for byte: such a submission's performance ratios are the
    references' (the class report shows them beside the class's)."""
    return _files_equal(submission, all_exercises, lambda e: e.solution_file())


def untouched_files(submission, all_exercises):
    """The exercises (with a TODO: not the worked examples) the submission
    did not attempt: its file is absent or the pristine starter, byte for
    byte. The class report counts their failures apart, so the messages it
    groups are those of attempts, not of TODOs left as given. Never a score."""
    to_do = [e for e in all_exercises if not e.worked_example]
    given = set(_files_equal(submission, to_do, lambda e: e.starter_file()))
    return [e.key for e in to_do if e.key in given or e.key not in submission.contents]


def write_error_log(grade, out_dir):
    """A grader bug's traceback, for the instructor (never in the student's files)."""
    traces = [w for w in grade.warnings if w.startswith("Traceback")]
    if traces:
        gr.atomic_write(pathlib.Path(out_dir) / "grader-error.log", "\n".join(traces))
        grade.warnings = [w for w in grade.warnings if not w.startswith("Traceback")]


def grade_one(grader, source, out_dir, name=None, log=None):
    """Grade one submission into out_dir with a slot of its own; `log(line)`,
    where given, is told what it is doing, with the seconds since it began."""
    name = name or gsub.submission_name(source)
    if log is not None:
        started = time.monotonic()
        grader.progress = lambda who, doing: log(
            f"  [{time.monotonic() - started:6.0f} s] {who}: {doing}")
    slot = gb.acquire_slots(grader.options.work_dir, 1)[0]
    try:
        grade = grader.grade(source, name, slot)
    finally:
        slot.release()
    write_error_log(grade, out_dir)
    gr.write_outputs(grade, out_dir, grader.options.points.split)
    return grade


# ---- batch mode -----------------------------------------------------------

def write_gradebook(out_dir, entries):
    """gradebook.csv from every graded entry's results.json."""
    rows = []
    for entry in entries:
        doc = gr.load_results(pathlib.Path(out_dir) / entry[0] / gr.RESULTS)
        if doc is not None:
            rows.append((getattr(entry, "name", entry[0]), doc))
    sections = [s for s in wbex.section_names() if any(s in d["extra_data"].get("sections", {})
                                                for _, d in rows)]
    gr.atomic_write(pathlib.Path(out_dir) / gr.GRADEBOOK, gr.gradebook_text(rows, sections))
    return len(rows)


# With the result cache and --jobs N, the first submission is graded alone
# for at most this long before the others start anyway: one whose tests hang
# until the suite's time limit must not hold the whole class back.
FIRST_ALONE_SECONDS = 600


def grade_batch(grader, folder, out_dir, jobs=1, regrade=False, log=print):
    """Grade every entry of folder into out_dir/<name>/, `jobs` at a time,
    skipping those already graded (unless regrade). The gradebook is
    rewritten after each submission. Returns the number graded now."""
    out_dir = pathlib.Path(out_dir)
    # One line at a time: the workers' progress and the results interleave.
    one_line = threading.Lock()
    write_line = log

    def log(line):
        with one_line:
            write_line(printable(line))
    started_wall = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    started = time.monotonic()
    entries = batch_entries(folder, out_dir)
    shown = {entry[0]: entry.name for entry in entries}   # folder -> the submission's name
    todo = [(n, p) for n, p in entries if regrade or finished(out_dir, n) is None]
    if len(todo) < len(entries):
        log(f"{len(entries) - len(todo)} of {len(entries)} submissions already graded "
            "(--regrade grades them again)")
    jobs = max(1, min(jobs, len(todo) or 1))
    slots = gb.acquire_slots(grader.options.work_dir, jobs)
    free = list(slots)
    slot_lock = threading.Lock()
    book_lock = threading.Lock()

    stop = threading.Event()

    def work(name, path):
        if stop.is_set():
            raise gb.Interrupted()
        with slot_lock:
            slot = free.pop()
        grader.progress(name, "started")
        try:
            grade = grader.grade(path, shown[name], slot)
        except (KeyboardInterrupt, gb.Interrupted):
            stop.set()   # the submissions still queued must not start
            raise
        finally:
            with slot_lock:
                free.append(slot)
        try:
            write_error_log(grade, out_dir / name)
            gr.write_outputs(grade, out_dir / name, grader.options.points.split)
        except Exception as err:  # a grader bug: this submission's error, not the batch's end
            grade = grader._failed(grade.submission, "error", "internal grader error writing the "
                                   f"results: {type(err).__name__}: {err}")
            grade.warnings.append(traceback.format_exc())
            gr.write_outputs(grade, out_dir / name, grader.options.points.split)
        with book_lock:
            write_gradebook(out_dir, entries)
        return grade

    def progress(name, doing):
        log(f"  [{time.monotonic() - started:6.0f} s] {name}: {doing}")
    grader.progress = progress
    done = 0
    warned = set()
    futures = {}
    interrupted = False
    # With the result cache, the first submission is graded alone: the tests
    # it runs (most of them those of the pristine starter, which the others
    # share) are stored before the rest start, instead of every slot running
    # them at once. Measured on an H100: three first submissions at once were
    # still testing after 510 s; one alone took 246 s, the next 66 s.
    waves = [todo]
    if jobs > 1 and len(todo) > 1 and getattr(grader.options, "cache", False):
        waves = [todo[:1], todo[1:]]
        log(f"{todo[0][0]} is graded alone first (for up to {FIRST_ALONE_SECONDS} s): the tests "
            f"it runs are stored, so the others ({jobs} at a time) run only what differs")
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
    try:
        for index, wave in enumerate(waves):
            if stop.is_set():
                break
            futures.update({pool.submit(work, n, p): n for n, p in wave})
            if index + 1 < len(waves):
                first, _ = concurrent.futures.wait(futures, timeout=FIRST_ALONE_SECONDS)
                if not first:
                    log(f"{todo[0][0]} is still being graded after {FIRST_ALONE_SECONDS} s: "
                        "the others start now")
        for future in concurrent.futures.as_completed(futures):
            grade = future.result()
            done += 1
            log(f"[{done}/{len(todo)}] {grade.submission}: {grade.score:g} of "
                f"{grade.max_score:g} ({grade.status}"
                f"{': ' + grade.reason if grade.reason else ''})"
                + (f"; {gr.reused_line(grade)}" if grade.tests_reused else ""))
            for warning in grade.warnings:
                if warning not in warned:
                    warned.add(warning)
                    log(f"warning: {warning}")
    except (KeyboardInterrupt, gb.Interrupted):
        # Stop the running builds and tests; their submissions write nothing.
        interrupted = True
        stop.set()
        grader.commands.stop_all()
        for future in futures:
            future.cancel()
    finally:
        pool.shutdown(wait=True)
        write_gradebook(out_dir, entries)
        for slot in slots:
            slot.release()
        gr.record_batch_run(out_dir, folder, started_wall, time.monotonic() - started, done,
                            jobs, interrupted)
    if interrupted:
        raise gb.Interrupted()
    return done
