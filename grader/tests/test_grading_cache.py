"""The result cache: what a test's key depends on, what is never cached,
damaged entries, the record of what a test ran (so one submission never
changes another's grade), and a grader that runs only the tests the cache
misses (CTest and the verdict wrapper's records stood in for by made-up
results)."""
import json
import pathlib
import tempfile
import unittest
from unittest import mock

from gradingtest import EXERCISES, ctest_labels, outcome, points
from grader import build as gb
from grader import cache as gc
from grader import run as grun
from grader import score as gs
from grader import submission as gsub
from wbcore import ctest_listing
from wbcore.results import TestResult

GPU = ctest_labels("layout", "gpu", "setRowReadCol")
GPU_PAD_LABELS = ctest_labels("layout", "gpu", "setRowReadColPad")
PERF_LABELS = ctest_labels("layout", "perf")
HOST_LABELS = ctest_labels("reduction", "host", "effectiveBandwidth")
SANITIZE_LABELS = ctest_labels("layout", "sanitize", "setRowReadCol")
GPU_ROW = "starter.layout.Layout/GpuLayout.SingleBlock/setRowReadCol_square"
GPU_PAD = "starter.layout.Layout/GpuLayout.SingleBlock/setRowReadColPad_square"
PERF = "starter.layout.PerfLayout.SquarePaddingSpeedsUpColumnRead"
HOST = "starter.reduction.HostEffectiveBandwidth.TimeIsInMilliseconds"
HUNG = "starter.reduction.Reduction/GpuReduction.RandomSizeSweep/reduceSmem"
SANITIZE = "starter.layout.sanitize.square_setRowReadCol"
INVENTORY = [(GPU_ROW, GPU), (GPU_PAD, GPU_PAD_LABELS), (PERF, PERF_LABELS), (HOST, HOST_LABELS),
             (HUNG, ctest_labels("reduction", "gpu", "reduceSmem")), (SANITIZE, SANITIZE_LABELS)]
# What CTest reports for each test: pass, a plain failure, a pass, a pass,
# a timeout, a skip (the sanitizer cannot run here).
JUNIT = {GPU_ROW: TestResult(GPU_ROW, "passed", 0.2, "[ OK ]"),
         GPU_PAD: TestResult(GPU_PAD, "failed", 0.3, "layout_test.cu:20: Failure\nwrong"),
         PERF: TestResult(PERF, "passed", 4.0, "ratio 1.4"),
         HOST: TestResult(HOST, "passed", 0.01, ""),
         HUNG: TestResult(HUNG, "failed", 60.0, "start"),
         SANITIZE: TestResult(SANITIZE, "skipped", 0.1, "skipped: no compute-sanitizer\n")}
CTEST_OUTPUT = f"5/6 Test #5: {HUNG} ...***Timeout  60.01 sec\n"
# What wbcore/gtest_verdict.py records of each GoogleTest test it ran: the
# modules the test loaded, the objects its executable links.
RECORDS = {GPU_ROW: {"test": GPU_ROW, "modules": ["layout/setRowReadCol"]},
           GPU_PAD: {"test": GPU_PAD, "modules": ["layout/setRowReadColPad"]},
           PERF: {"test": PERF, "modules": ["layout/setRowReadCol", "layout/setRowReadColPad"]},
           HOST: {"test": HOST, "modules": ["reduction/effectiveBandwidth"]},
           HUNG: {"test": HUNG, "modules": ["reduction/reduceSmem"]}}
RAN = {"layout/setRowReadColPad": "pristine"}


def digests(**changed):
    found = {e.key: "pristine" for e in EXERCISES}
    found.update({k.replace("__", "/"): v for k, v in changed.items()})
    return found


def key(name, labels=GPU, context="ctx", files=None):
    return gc.test_key(name, labels, context, files or digests(), EXERCISES)


class KeyTest(unittest.TestCase):
    def test_a_test_of_an_exercise_depends_on_that_exercise_only(self):
        self.assertNotEqual(key(GPU_ROW), key(GPU_ROW, files=digests(layout__setRowReadCol="x")))
        self.assertEqual(key(GPU_ROW), key(GPU_ROW, files=digests(layout__setRowReadColPad="x")),
                         "another exercise of the section")
        self.assertEqual(key(GPU_ROW), key(GPU_ROW, files=digests(reduction__reduceSmem="x")),
                         "an exercise of another section")
        self.assertEqual([e.key for e in gc.dependencies(SANITIZE_LABELS, EXERCISES)],
                         ["layout/setRowReadCol"])
        self.assertEqual([e.key for e in gc.dependencies(HOST_LABELS, EXERCISES)],
                         ["reduction/effectiveBandwidth"])

    def test_the_labels_not_the_name_say_what_a_test_depends_on(self):
        # A name that mentions setRowReadColPad, labelled setRowReadCol.
        self.assertNotEqual(key(GPU_PAD), key(GPU_PAD, files=digests(layout__setRowReadCol="x")))
        self.assertEqual(key(GPU_PAD), key(GPU_PAD, files=digests(layout__setRowReadColPad="x")))

    def test_a_section_wide_test_depends_on_its_section(self):
        wide = "starter.layout.HostLayoutSummary.A"
        section_wide = ctest_labels("layout", "host")
        self.assertNotEqual(key(wide, section_wide),
                            key(wide, section_wide, files=digests(layout__setRowReadColPad="x")))
        self.assertEqual(key(wide, section_wide),
                         key(wide, section_wide, files=digests(reduction__reduceSmem="x")))
        self.assertEqual(gc.dependencies(("meta",), EXERCISES), EXERCISES)

    def test_name_labels_and_context_are_in_the_key(self):
        self.assertNotEqual(key(GPU_ROW), key(GPU_ROW.replace("square", "rect")))
        self.assertNotEqual(key(GPU_ROW), key(GPU_ROW, labels=GPU_PAD_LABELS))
        self.assertNotEqual(key(GPU_ROW), key(GPU_ROW, labels=GPU + ("extra",)))
        self.assertNotEqual(key(GPU_ROW), key(GPU_ROW, context="another GPU"))

    def test_the_context_covers_the_machine_and_the_build(self):
        def context(**kwargs):
            arguments = dict(gpu_present=True, gpu_note="NVIDIA H100, 9.0", cmake_args=(),
                             versions={"nvcc": "13.0"}, environ={"HOME": "/root"})
            arguments.update(kwargs)
            return gc.context(**arguments)
        base = context()
        self.assertEqual(base, context(environ={"HOME": "/elsewhere"}))
        for changed in (dict(gpu_present=False), dict(gpu_note="NVIDIA H200, 9.0"),
                        dict(cmake_args=("-DWB_TIMEOUT_gpu=30",)), dict(versions={"nvcc": "13.1"}),
                        dict(environ={"WB_SEED": "7"})):
            self.assertNotEqual(base, context(**changed), changed)

    def test_the_repository_fingerprint_follows_the_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = pathlib.Path(tmp)
            (root / "tests" / "__pycache__").mkdir(parents=True)
            (root / "tests" / "a_test.cu").write_text("one")
            (root / "CMakeLists.txt").write_text("project(x)")
            paths = ("CMakeLists.txt", "tests", "tests/runner")
            first = gc.repository_fingerprint(root, paths)
            (root / "tests" / "__pycache__" / "x.pyc").write_bytes(b"\0")
            self.assertEqual(gc.repository_fingerprint(root, paths), first)
            (root / "tests" / "a_test.cu").write_text("two")
            self.assertNotEqual(gc.repository_fingerprint(root, paths), first)

    def test_a_changed_reference_changes_the_fingerprint(self):
        # The perf, profile and method checks hold a kernel against the
        # reference modules built from solutions/: a changed reference must
        # not reuse outcomes measured against the old one.
        with tempfile.TemporaryDirectory() as tmp:
            reference = pathlib.Path(tmp) / "solutions" / "reduction" / "reduceSmem.cu"
            reference.parent.mkdir(parents=True)
            reference.write_text("one")
            first = gc.repository_fingerprint(pathlib.Path(tmp))
            reference.write_text("two")
            self.assertNotEqual(gc.repository_fingerprint(pathlib.Path(tmp)), first)

    def test_digests_of_the_staged_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            gsub.stage({"layout/setRowReadCol": b"mine"}, tmp, EXERCISES)
            found = gc.exercise_digests(tmp, EXERCISES)
            again = gc.exercise_digests(tmp, EXERCISES)
            self.assertEqual(found, again)
            gsub.stage({}, tmp, EXERCISES)
            pristine = gc.exercise_digests(tmp, EXERCISES)
            self.assertNotEqual(found["layout/setRowReadCol"], pristine["layout/setRowReadCol"])
            self.assertEqual(found["reduction/reduceSmem"], pristine["reduction/reduceSmem"])


class CacheTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.cache = gc.OutcomeCache(pathlib.Path(self._tmp.name) / "cache")

    def tearDown(self):
        self._tmp.cleanup()

    def test_a_stored_outcome_comes_back_marked_reused(self):
        stored = outcome(GPU_PAD, GPU, gs.FAILED, output="wrong\nvalues", seconds=0.25)
        self.assertTrue(self.cache.put("ab12", stored, RAN))
        back = self.cache.get("ab12", GPU_PAD, GPU, digests())
        self.assertEqual((back.result, back.seconds, back.output, back.reason, back.labels),
                         (gs.FAILED, 0.25, "wrong\nvalues", "", GPU))
        self.assertTrue(back.reused)
        self.assertFalse(stored.reused)
        self.assertEqual(list(self.cache.folder.rglob("*.tmp")), [], "no temporary file left")

    def test_perf_not_run_timeouts_and_crashes_are_never_stored(self):
        never = [outcome(PERF, PERF_LABELS, gs.PASSED),
                 outcome(SANITIZE, SANITIZE_LABELS, gs.NOT_RUN, reason="no GPU here"),
                 outcome(HUNG, GPU, gs.FAILED, reason="timed out after 60 s"),
                 outcome(GPU_ROW, GPU, gs.FAILED, reason="crashed (Exception: SegFault)"),
                 outcome("starter.layout.NOT_BUILT", ("layout", "starter", "placeholder"),
                         gs.FAILED)]
        for i, t in enumerate(never):
            self.assertFalse(self.cache.put(f"k{i}", t, RAN), t.name)
        self.assertFalse(self.cache.folder.exists() and any(self.cache.folder.rglob("*.json")))
        self.assertFalse(gc.readable(PERF_LABELS))

    def test_a_perf_failure_is_stored_only_where_it_ran_the_pristine_starter(self):
        # The starter's kernels leave their output unwritten: its perf tests
        # fail on the result check whatever the timings.
        # The test's exercises, and a worked example (complete in the starter).
        cache = gc.OutcomeCache(self.cache.folder,
                                pristine=dict(digests(), **{"layout/setRowReadRow": "pristine"}))
        failed = outcome(PERF, PERF_LABELS, gs.FAILED, output="left 1024 of 1024 unwritten")
        pristine_run = {"layout/setRowReadCol": "pristine", "layout/setRowReadColPad": "pristine"}
        students_run = dict(pristine_run, **{"layout/setRowReadColPad": "mine"})
        self.assertFalse(cache.put("p1", outcome(PERF, PERF_LABELS, gs.PASSED), pristine_run),
                         "a perf pass: a timing, never stored")
        self.assertFalse(cache.put("p2", failed, students_run), "it ran a student's file")
        self.assertFalse(cache.put("p3", failed, {}), "nothing known to have run")
        self.assertFalse(cache.put("p5", failed, {"layout/setRowReadRow": "pristine"}),
                         "only a worked example ran: complete, so it failed on a time")
        self.assertFalse(self.cache.folder.exists() and any(self.cache.folder.rglob("*.json")))
        self.assertTrue(cache.put("p4", failed, pristine_run))
        back = cache.get("p4", PERF, PERF_LABELS, digests())
        self.assertEqual((back.result, back.reused), (gs.FAILED, True))
        self.assertIsNone(cache.get("p4", PERF, PERF_LABELS,
                                    digests(layout__setRowReadColPad="mine")))
        # An entry forged into the folder with a pass, or with a student's
        # file among what ran, is a miss.
        path = next(cache.folder.rglob("p4.json"))
        good = json.loads(path.read_text())
        for forged in (dict(good, result=gs.PASSED), dict(good, ran=students_run)):
            path.write_text(json.dumps(forged))
            self.assertIsNone(cache.get("p4", PERF, PERF_LABELS, digests(
                layout__setRowReadColPad="mine") if forged["ran"] is students_run else digests()))

    def test_a_perf_pass_is_stored_only_where_it_ran_the_reference_solutions(self):
        # A submission that changed one file of the solutions runs only the
        # perf tests of that file: the others ran our own code, timed
        # against the same reference kernels.
        reference = {e.key: "solution" for e in EXERCISES}
        cache = gc.OutcomeCache(self.cache.folder, pristine=digests(), reference=reference)
        passed = outcome(PERF, PERF_LABELS, gs.PASSED, output="1.02x")
        ran = {"layout/setRowReadCol": "solution", "layout/setRowReadColPad": "solution"}
        students_run = dict(ran, **{"layout/setRowReadColPad": "mine"})
        self.assertFalse(cache.put("r1", passed, students_run), "it ran a student's file")
        self.assertFalse(cache.put("r2", passed, {}), "nothing known to have run")
        self.assertFalse(cache.put("r3", outcome(PERF, PERF_LABELS, gs.FAILED), ran),
                         "a perf failure of the reference files: a timing, never stored")
        self.assertTrue(cache.put("r4", passed, ran))
        solutions = dict(reference)
        self.assertTrue(gc.readable(PERF_LABELS, solutions, digests(), EXERCISES, reference))
        back = cache.get("r4", PERF, PERF_LABELS, solutions)
        self.assertEqual((back.result, back.reused), (gs.PASSED, True))
        mine = dict(solutions, **{"layout/setRowReadColPad": "mine"})
        self.assertFalse(gc.readable(PERF_LABELS, mine, digests(), EXERCISES, reference))
        self.assertIsNone(cache.get("r4", PERF, PERF_LABELS, mine))
        # Without the reference's digests, no perf pass is stored or read.
        self.assertFalse(gc.cacheable(passed, ran, digests(), ()))
        self.assertFalse(gc.readable(PERF_LABELS, solutions, digests(), EXERCISES))

    def test_a_perf_test_is_looked_up_only_for_a_pristine_section(self):
        pristine = digests()
        self.assertTrue(gc.readable(PERF_LABELS, digests(), pristine, EXERCISES))
        self.assertTrue(gc.readable(PERF_LABELS, digests(reduction__reduceSmem="mine"), pristine,
                                    EXERCISES), "another section's file")
        self.assertFalse(gc.readable(PERF_LABELS, digests(layout__setRowReadColPad="mine"),
                                     pristine, EXERCISES))
        self.assertTrue(gc.readable(GPU, digests(layout__setRowReadCol="mine"), pristine,
                                    EXERCISES))

    def test_a_damaged_or_foreign_entry_is_a_miss(self):
        self.assertIsNone(self.cache.get("cd34", GPU_ROW, GPU, digests()), "no entry")
        self.cache.put("cd34", outcome(GPU_ROW, GPU, gs.PASSED), RAN)
        path = next(self.cache.folder.rglob("cd34.json"))
        good = json.loads(path.read_text())
        self.assertIsNotNone(self.cache.get("cd34", GPU_ROW, GPU, digests()))
        self.assertIsNone(self.cache.get("cd34", GPU_PAD, GPU, digests()), "another test's entry")
        self.assertIsNone(self.cache.get("cd34", GPU_ROW, GPU_PAD_LABELS, digests()),
                          "the same name, labelled with another exercise")
        for damage in (b"{\"result\": \"pass", b"\xff\xfe\x00", b"[]", b"null",
                       json.dumps(dict(good, result="not run")).encode(),
                       json.dumps(dict(good, reason="timed out")).encode(),
                       json.dumps(dict(good, seconds="fast")).encode(),
                       json.dumps(dict(good, output=None)).encode(),
                       json.dumps(dict(good, format=gc.FORMAT + 1)).encode(),
                       json.dumps({k: v for k, v in good.items() if k != "labels"}).encode(),
                       json.dumps({k: v for k, v in good.items() if k != "ran"}).encode(),
                       json.dumps(dict(good, ran=["layout/setRowReadColPad"])).encode()):
            path.write_bytes(damage)
            self.assertIsNone(self.cache.get("cd34", GPU_ROW, GPU, digests()), damage)

    def test_an_outcome_is_reused_only_where_every_file_it_ran_is_the_same(self):
        # A test that ran two exercises' code (whatever its name says) is
        # reused only where both files are the submission's.
        ran = {"layout/setRowReadCol": "pristine", "reduction/reduceSmem": "forged"}
        self.assertTrue(self.cache.put("ef56", outcome(GPU_ROW, GPU, gs.PASSED), ran))
        self.assertIsNone(self.cache.get("ef56", GPU_ROW, GPU, digests()))
        self.assertIsNotNone(self.cache.get("ef56", GPU_ROW, GPU,
                                            digests(reduction__reduceSmem="forged")))

    def test_what_a_test_ran_comes_from_its_record_or_the_runner(self):
        files = digests(layout__setRowReadCol="mine")
        self.assertEqual(gc.ran_files(GPU, RECORDS[GPU_ROW], files, EXERCISES),
                         {"layout/setRowReadCol": "mine"})
        self.assertIsNone(gc.ran_files(GPU, None, files, EXERCISES),
                          "a GoogleTest test without a record is not stored")
        self.assertIsNone(gc.ran_files(GPU, {"modules": ["layout/unknown"]}, files, EXERCISES))
        self.assertEqual(gc.ran_files(SANITIZE_LABELS, None, files, EXERCISES),
                         {"layout/setRowReadCol": "mine"},
                         "the runner loads the module of its kernel's exercise alone")
        self.assertEqual(gc.ran_files(ctest_labels("layout", "method", "setRowReadCol"), None,
                                      files, EXERCISES),
                         {"layout/setRowReadCol": "mine"},
                         "a method check reads the module of its exercise alone")

    def test_merge_keeps_the_listed_order(self):
        cached = {GPU_PAD: outcome(GPU_PAD, GPU, gs.PASSED)}
        fresh = [outcome(name, labels, gs.FAILED) for name, labels in INVENTORY
                 if name != GPU_PAD]
        merged = gc.merge(INVENTORY, cached, fresh)
        self.assertEqual([t.name for t in merged], [name for name, _ in INVENTORY])
        self.assertIs(merged[1], cached[GPU_PAD])


class GraderCacheTest(unittest.TestCase):
    """Grader._outcomes with gb.run_tests replaced by JUNIT's results."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = pathlib.Path(self._tmp.name)
        self.slot = gb.Slot(self.tmp / "work" / "slot-0")
        gsub.stage({}, self.slot.staged, EXERCISES)
        self.calls = []
        self.batch_exercises = []
        self.timed_out = False
        self.stopped_after_shared_phase = False

    def tearDown(self):
        self._tmp.cleanup()

    def grader(self, cache=True):
        options = grun.Options(points=points(), work_dir=self.tmp / "work", gpu_present=True,
                               gpu_note="NVIDIA H100, 9.0", cache=cache)
        grader = grun.Grader(options)
        grader.all_exercises = EXERCISES
        return grader

    def fake_run_tests(self, slot, commands, gpu_present, jobs, timeout, only=None,
                       gpu_lock=None, confined=True, exercises=None, phase_done=None,
                       say=None):
        self.calls.append(only)
        self.batch_exercises.append(exercises)
        names = [n for n, _ in INVENTORY] if only is None else only
        # Two phases, as run_tests runs them: the perf test alone, last; a
        # run stopped at the suite timeout stops in the first.
        shared = [n for n in names if n != PERF]
        if phase_done is not None and shared and not self.timed_out:
            phase_done(gb.TestRun({n: JUNIT[n] for n in shared}, CTEST_OUTPUT, False,
                                  records={n: RECORDS[n] for n in shared if n in RECORDS}))
        if self.stopped_after_shared_phase:
            raise KeyboardInterrupt
        return gb.TestRun({n: JUNIT[n] for n in names}, CTEST_OUTPUT, self.timed_out,
                          records={n: RECORDS[n] for n in names if n in RECORDS})

    def outcomes(self, grader, inventory=INVENTORY, problems=None):
        with mock.patch.object(gb, "run_tests", self.fake_run_tests), \
                mock.patch.object(gc, "context", return_value="ctx"):
            found, _ = grader._outcomes(inventory, self.slot, "",
                                        grun.unrun_reasons(problems or {}))
        return {t.name: t for t in found}

    def stored(self):
        return sorted(p.stem for p in (self.tmp / "work" / "cache").rglob("*.json"))

    def test_the_second_submission_runs_only_what_the_cache_misses(self):
        first = self.outcomes(self.grader())
        self.assertEqual(self.calls, [None], "nothing cached: every test runs")
        self.assertEqual(first[HUNG].reason[:9], "timed out")
        self.assertEqual(first[SANITIZE].result, gs.NOT_RUN)
        self.assertEqual(len(self.stored()), 3, "the passes and the plain failure only")

        second = self.outcomes(self.grader())
        self.assertEqual(self.calls[1], [PERF, HUNG, SANITIZE])
        self.assertEqual([n for n, t in second.items() if t.reused], [GPU_ROW, GPU_PAD, HOST])
        self.assertEqual(list(second), [n for n, _ in INVENTORY])
        for name in (GPU_ROW, GPU_PAD, HOST):
            self.assertEqual((second[name].result, second[name].output, second[name].seconds),
                             (first[name].result, first[name].output, first[name].seconds))

    def test_a_changed_file_misses_only_its_exercises_tests(self):
        grader = self.grader()
        self.outcomes(grader)
        gsub.write_if_changed(self.slot.staged / "layout" / "setRowReadColPad.cu", b"// mine\n")
        self.outcomes(grader)
        self.assertEqual(self.calls[1], [GPU_PAD, PERF, HUNG, SANITIZE])

    def test_the_sections_batches_run_only_the_kernels_of_the_tests_that_run(self):
        grader = self.grader()
        self.outcomes(grader)
        self.assertEqual(self.batch_exercises, [None], "everything runs: every kernel")
        gsub.write_if_changed(self.slot.staged / "layout" / "setRowReadColPad.cu", b"// mine\n")
        self.outcomes(grader)
        # The perf comparison names no exercise here; the hung and the
        # sanitize tests missed the cache the first time.
        self.assertEqual(self.batch_exercises[1], {"layout/setRowReadColPad",
                                                   "reduction/reduceSmem",
                                                   "layout/setRowReadCol"})
        compares = PERF_LABELS + (ctest_listing.compares_label("setRowReadColPad"),
                                  ctest_listing.compares_label("setRowReadCol"))
        self.assertEqual(grader._run_exercises([(PERF, compares)]),
                         {"layout/setRowReadColPad", "layout/setRowReadCol"})

    def test_the_pristine_starters_perf_failure_is_reused_until_the_section_changes(self):
        JUNIT_FAILING_PERF = dict(JUNIT, **{PERF: TestResult(PERF, "failed", 1.0, "unwritten")})
        with mock.patch.dict(JUNIT, JUNIT_FAILING_PERF):
            grader = self.grader()
            self.outcomes(grader)
            second = self.outcomes(grader)
            self.assertEqual(self.calls[1], [HUNG, SANITIZE], "the perf failure came back")
            self.assertTrue(second[PERF].reused)
            gsub.write_if_changed(self.slot.staged / "layout" / "setRowReadColPad.cu",
                                  b"// mine\n")
            self.outcomes(grader)
            self.assertEqual(self.calls[2], [GPU_PAD, PERF, HUNG, SANITIZE])

    def test_an_exercise_not_attempted_runs_none_of_its_tests(self):
        # setRowReadColPad left as shipped: its own test and the comparison
        # that times its kernel fail as not attempted, without running.
        compares = PERF_LABELS + (ctest_listing.compares_label("setRowReadColPad"),)
        inventory = [(n, compares if n == PERF else labels) for n, labels in INVENTORY]
        untouched = {"layout/setRowReadColPad": gs.Problem("not attempted", "NOT ATTEMPTED")}
        found = self.outcomes(self.grader(), inventory, untouched)
        self.assertEqual(self.calls, [[GPU_ROW, HOST, HUNG, SANITIZE]])
        self.assertEqual(list(found), [n for n, _ in INVENTORY])
        for name in (GPU_PAD, PERF):
            self.assertEqual(found[name].result, gs.FAILED)
            self.assertEqual(found[name].reason, "not attempted: "
                             "starter/layout/setRowReadColPad.cu is the starter as shipped")
        self.assertEqual(len(self.stored()), 2, "the passes that ran; nothing not attempted")
        # Without a GPU, its GPU tests are not run, as any GPU test.
        grader = self.grader()
        grader.options.gpu_present = False
        found = self.outcomes(grader, inventory, untouched)
        self.assertEqual((found[GPU_PAD].result, found[PERF].result), (gs.NOT_RUN, gs.NOT_RUN))

    def test_an_exercise_that_does_not_compile_runs_none_of_its_tests(self):
        # Its checks score 0 with the compiler's messages; the pristine
        # starter that stands in for it would only fail its tests.
        broken = {"reduction/effectiveBandwidth": gs.Problem("compile error", "COMPILE ERROR")}
        found = self.outcomes(self.grader(), INVENTORY, broken)
        self.assertEqual(self.calls, [[GPU_ROW, GPU_PAD, PERF, HUNG, SANITIZE]])
        self.assertEqual((found[HOST].result, found[HOST].reason),
                         (gs.FAILED, "not run: starter/reduction/effectiveBandwidth.cu does "
                                     "not compile"))

    def test_nothing_missed_runs_no_ctest(self):
        grader = self.grader()
        self.outcomes(grader)
        cacheable = [t for t in INVENTORY if t[0] in (GPU_ROW, GPU_PAD, HOST)]
        again = self.outcomes(grader, cacheable)
        self.assertEqual(self.calls, [None])
        self.assertTrue(all(t.reused for t in again.values()))

    def test_a_grading_stopped_in_its_timed_phase_keeps_the_shared_phases_verdicts(self):
        self.stopped_after_shared_phase = True
        with self.assertRaises(KeyboardInterrupt):
            self.outcomes(self.grader())
        self.assertEqual(len(self.stored()), 3, "the shared phase's passes and plain failure")
        self.stopped_after_shared_phase = False
        again = self.outcomes(self.grader())
        self.assertEqual(self.calls[1], [PERF, HUNG, SANITIZE])
        self.assertEqual([n for n, t in again.items() if t.reused], [GPU_ROW, GPU_PAD, HOST])

    def test_a_run_stopped_at_the_suite_timeout_in_its_first_phase_stores_nothing(self):
        self.timed_out = True
        self.outcomes(self.grader())
        self.assertEqual(self.stored(), [])

    def test_no_cache_runs_everything_and_stores_nothing(self):
        grader = self.grader(cache=False)
        self.outcomes(grader)
        again = self.outcomes(grader)
        self.assertEqual(self.calls, [None, None])
        self.assertEqual(self.stored(), [])
        self.assertFalse(any(t.reused for t in again.values()))


if __name__ == "__main__":
    unittest.main()
