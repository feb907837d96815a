"""The grading build's pure parts: reading CTest's results (timeouts,
crashes, skips), placeholders of tests that could not be listed, blaming
link errors, compiler messages; stopping commands; and running the tests in
two CTest runs, all of them or exactly a chosen few, on a small CTest
project of fake tests (no build)."""
import contextlib
import pathlib
import shutil
import sys
import tempfile
import threading
import time
import unittest
from unittest import mock

from gradingtest import EXERCISES, ctest_labels
from grader import build as gb
from grader import run as grun
from wbcore import gtest_verdict
from wbcore import sandbox
from grader import score as gs
from wbcore.results import TestResult

GPU = ctest_labels("layout", "gpu", "setRowReadCol")
HOST = ctest_labels("reduction", "host", "effectiveBandwidth")
CTEST_OUTPUT = """\
1/4 Test #1: starter.layout.A/GpuLayout.One/square_setRowReadCol ....***Timeout 120.01 sec
2/4 Test #2: starter.layout.A/GpuLayout.One/rect_setRowReadCol ***Exception: SegFault 0.1 sec
3/4 Test #3: starter.reduction.HostEffectiveBandwidth.A ...................   Passed    0.01 sec
"""


class OutcomesTest(unittest.TestCase):
    def test_outcomes_from_junit_and_ctest_output(self):
        inventory = [("starter.layout.A/GpuLayout.One/square_setRowReadCol", GPU),
                     ("starter.layout.A/GpuLayout.One/rect_setRowReadCol", GPU),
                     ("starter.reduction.HostEffectiveBandwidth.A", HOST),
                     ("starter.reduction.HostEffectiveBandwidth.B", HOST),
                     ("starter.layout.profile.square_setRowReadCol",
                      ctest_labels("layout", "profile", "setRowReadCol")),
                     ("starter.layout.sanitize.square_setRowReadCol",
                      ctest_labels("layout", "sanitize", "setRowReadCol"))]
        junit = {r.name: r for r in [
            TestResult(inventory[0][0], "failed", 120.0, "start\n"),
            TestResult(inventory[1][0], "failed", 0.1, ""),
            TestResult(inventory[2][0], "passed", 0.0, ""),
            TestResult(inventory[3][0], "skipped", 0.0, "[ RUN      ] X\nfoo.cu:3: Skipped\n"
                       "no CUDA device\n[  SKIPPED ] X"),
            TestResult(inventory[4][0], "skipped", 0.0, "skipped: ncu may not read counters\n"),
        ]}
        outcomes = {o.name: o for o in gb.test_outcomes(inventory, junit, CTEST_OUTPUT,
                                                        "no GPU here: none", False, 60)}
        timeout = outcomes[inventory[0][0]]
        self.assertEqual(timeout.result, gs.FAILED)
        self.assertTrue(timeout.reason.startswith("timed out after 120 s"))
        self.assertEqual(outcomes[inventory[1][0]].reason, "crashed (Exception: SegFault)")
        self.assertEqual(outcomes[inventory[2][0]].result, gs.PASSED)
        self.assertEqual((outcomes[inventory[3][0]].result, outcomes[inventory[3][0]].reason),
                         (gs.NOT_RUN, "no CUDA device"))
        self.assertEqual(outcomes[inventory[4][0]].reason, "ncu may not read counters")
        left_out = outcomes[inventory[5][0]]
        self.assertEqual((left_out.result, left_out.reason), (gs.NOT_RUN, "no GPU here: none"))

    def test_a_test_missing_from_the_run_fails(self):
        # The list of tests comes from builds without student code; a test
        # that the run did not report (its process hid it) fails.
        outcomes = gb.test_outcomes([("starter.layout.X", GPU),
                                     ("starter.reduction.HostEffectiveBandwidth.A", HOST)],
                                    {}, "", "", False, 600)
        self.assertEqual([o.result for o in outcomes], [gs.FAILED, gs.FAILED])
        self.assertIn("did not report a result", outcomes[0].reason)

    def test_a_stopped_run_says_so(self):
        outcomes = gb.test_outcomes([("starter.layout.X", GPU)], {}, "", "no GPU", True, 600)
        self.assertEqual(outcomes[0].reason, "the test run was stopped after 600 s")

    def test_placeholders_make_their_tests_unknown(self):
        # Found by their labels: a name that looks like a placeholder's is
        # not one, and a placeholder's name is not read.
        unavailable = gb.unavailable_tests(
            [("starter.layout.A", ("layout", "starter", "placeholder")),
             ("starter.B", ("starter", "runner", "placeholder")),
             ("starter.transpose.NOT_BUILT", ("transpose", "starter", "gpu"))], EXERCISES)
        self.assertIn(("layout", "gpu"), unavailable)
        self.assertIn(("reduction", "sanitize"), unavailable)
        self.assertNotIn(("reduction", "gpu"), unavailable)
        self.assertNotIn(("transpose", "gpu"), unavailable)


class BuildOutputTest(unittest.TestCase):
    slot = gb.Slot("/w/slot-0")

    def test_compiler_messages_drop_ninja_noise_and_show_student_paths(self):
        output = ("[1/2] Building CUDA object CMakeFiles/x.dir/a.cu.o\n"
                  "FAILED: CMakeFiles/wb_starter_layout_setRowReadCol.dir/x.cu.o\n"
                  "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -c a.cu\n"
                  "/w/slot-0/submission/layout/setRowReadCol.cu(12): error: expected a \";\"\n"
                  "1 error detected in the compilation\n"
                  "ninja: build stopped: subcommand failed.\n")
        self.assertEqual(gb.compiler_messages(output, self.slot),
                         "starter/layout/setRowReadCol.cu(12): error: expected a \";\"\n"
                         "1 error detected in the compilation")

    def test_link_blame(self):
        output = ("FAILED: tests/layout/wb_starter_layout_tests\n"
                  ": && g++ CMakeFiles/wb_starter_layout_setRowReadColPad.dir/p.cu.o -o x\n"
                  "/usr/bin/ld: CMakeFiles/wb_starter_layout_setRowReadCol.dir/a.cu.o: multiple "
                  "definition of `helper()'\n")
        messages = gb.compiler_messages(output, self.slot)
        self.assertEqual([e.name for e in gb.named_exercises(messages, EXERCISES)],
                         ["setRowReadCol"], "the command line names every object: not a culprit")
        self.assertEqual(gb.failing_sections(output, EXERCISES), {"layout"})
        self.assertEqual(gb.failing_sections("FAILED: modules/starter/reduction/reduceSmem.fatbin\n",
                                             EXERCISES), {"reduction"})
        self.assertEqual(gb.failing_sections("FAILED: tests/runner/wb_run\n", EXERCISES), set(),
                         "the runner holds no exercise code")
        undefined = "undefined reference to `wb::reduction::reduceSmem(int const*, int*)'"
        self.assertEqual([e.name for e in gb.named_exercises(undefined, EXERCISES)], ["reduceSmem"])


class CommandsTest(unittest.TestCase):
    def test_timeout_stops_the_command(self):
        started = time.monotonic()
        result = gb.Commands().run([sys.executable, "-c", "import time; time.sleep(30)"], 1,
                                   cwd=pathlib.Path.cwd())
        self.assertTrue(result.timed_out)
        self.assertFalse(result.ok)
        self.assertLess(time.monotonic() - started, 20)

    def test_stop_all_interrupts_running_commands(self):
        commands = gb.Commands()
        threading.Timer(0.5, commands.stop_all).start()
        with self.assertRaises(gb.Interrupted):
            commands.run([sys.executable, "-c", "import time; time.sleep(30)"], 60,
                         cwd=pathlib.Path.cwd())
        with self.assertRaises(gb.Interrupted):
            commands.run([sys.executable, "-c", "pass"], 60, cwd=pathlib.Path.cwd())


class FakeCommands:
    """Commands that note what they were asked to run and succeed."""

    def __init__(self):
        self.ran = []

    def run(self, cmd, timeout, cwd=None, **_):
        self.ran.append(([str(c) for c in cmd], cwd))
        return gb.CommandResult(0, "")


class ConfigureTest(unittest.TestCase):
    """The grading build is configured through the grader preset, with the
    slot's folders and the instructor's options on top, and only when what
    it would be configured with changed."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.slot = gb.Slot(pathlib.Path(self._tmp.name) / "slot-0")
        self.slot.root.mkdir(parents=True)

    def tearDown(self):
        self._tmp.cleanup()

    def configure(self, cmake_args=()):
        commands = FakeCommands()
        self.assertTrue(gb.configure(self.slot, cmake_args, commands, 60).ok)
        return commands.ran

    def write_cache(self, starter_dir):
        self.slot.build.mkdir(parents=True, exist_ok=True)
        (self.slot.build / "CMakeCache.txt").write_text(
            f"CMAKE_HOME_DIRECTORY:INTERNAL={gb.wbex.ROOT}\n"
            f"WB_STARTER_DIR:PATH={starter_dir}\n")

    def test_the_grader_preset_with_the_slot_and_the_options_on_top(self):
        [(cmd, cwd)] = self.configure(["-DCMAKE_CUDA_ARCHITECTURES=90"])
        self.assertEqual(cmd, ["cmake", "--preset", "grader", "-B", str(self.slot.build),
                               f"-DWB_STARTER_DIR={self.slot.staged}",
                               "-DCMAKE_CUDA_ARCHITECTURES=90"])
        # cmake finds CMakePresets.json in the folder it runs in.
        self.assertEqual(pathlib.Path(cwd), gb.wbex.ROOT)

    def test_the_grader_preset_is_the_lean_build(self):
        variables = gb.wbbuild.configure_preset(gb.PRESET)["cacheVariables"]
        self.assertEqual({k: v for k, v in variables.items() if k.startswith("WB_BUILD_")},
                         {"WB_BUILD_STARTER": "ON", "WB_BUILD_TESTS": "ON",
                          "WB_BUILD_SOLUTIONS": "OFF", "WB_BUILD_MUTANTS": "OFF",
                          "WB_BUILD_TOOLS": "OFF"})
        self.assertEqual(gb.wbbuild.configure_preset(gb.PRESET)["generator"], "Ninja")

    def test_a_configured_slot_is_not_configured_again(self):
        self.configure(["-DWB_TIMEOUT_gpu=30"])
        self.write_cache(self.slot.staged)
        self.assertEqual(self.configure(["-DWB_TIMEOUT_gpu=30"]), [])
        self.assertEqual(len(self.configure(["-DWB_TIMEOUT_gpu=20"])), 1)

    def test_a_changed_preset_configures_again(self):
        self.configure()
        self.write_cache(self.slot.staged)
        changed = dict(gb.wbbuild.configure_preset(gb.PRESET))
        changed["cacheVariables"] = dict(changed["cacheVariables"], WB_BUILD_TOOLS="ON")
        with mock.patch.object(gb.wbbuild, "configure_preset", return_value=changed):
            self.assertEqual(len(self.configure()), 1)

    def test_a_slot_configured_for_another_folder_starts_afresh(self):
        self.configure()
        self.write_cache("/elsewhere/submission")
        self.assertEqual(len(self.configure()), 1)
        self.assertFalse((self.slot.build / "CMakeCache.txt").exists())


# A CTest project of fake tests, in CTest's order: some that are not the
# starter's come first, so a number in the whole list differs from one
# among the starter tests. Each test appends its name to a log.
FAKE_TESTS = [
    ("workbook.starter_is_unsolved", "meta"),
    ("model.layout.HostBankModel.A", "host;layout"),
    ("starter.layout.PerfLayout.SquareRowRowBeatsColCol", "layout;starter;perf"),
    ("starter.layout.Layout/GpuLayout.SingleBlock/setRowReadCol_square",
     "layout;starter;gpu;exercise=setRowReadCol"),
    ("starter.layout.Layout/GpuLayout.SingleBlock/setRowReadCol_rect",
     "layout;starter;gpu;exercise=setRowReadCol"),
    ("starter.reduction.HostEffectiveBandwidth.OneGigabyteInOneSecond",
     "reduction;starter;host;exercise=effectiveBandwidth"),
    ("starter.reduction.HostEffectiveBandwidth.TimeIsInMilliseconds",
     "reduction;starter;host;exercise=effectiveBandwidth"),
    ("starter.layout.profile.square_setRowReadCol", "layout;starter;exercise=setRowReadCol;profile"),
    ("starter.layout.sanitize.square_setRowReadCol",
     "layout;starter;exercise=setRowReadCol;sanitize"),
    ("starter.reduction.sanitize.reduceSmem", "reduction;starter;exercise=reduceSmem;sanitize"),
]
STARTER = [name for name, labels in FAKE_TESTS if "starter" in labels.split(";")]
TIMED = [name for name, labels in FAKE_TESTS if {"perf", "profile"} & set(labels.split(";"))]
HOST = [name for name, labels in FAKE_TESTS
        if labels == "reduction;starter;host;exercise=effectiveBandwidth"]
# Each fake test logs its name and, as wbcore/gtest_verdict.py does, leaves a
# record in $WB_TEST_RECORDS when the grader gives one.
LOGGER = ("import json, os, sys; open(sys.argv[1], 'a').write(sys.argv[2] + '\\n'); "
          "d = os.environ.get('WB_TEST_RECORDS'); "
          "d and open(os.path.join(d, sys.argv[2] + '.json'), 'w').write("
          "json.dumps({'test': sys.argv[2], 'verdict': 'passed', 'modules': ['layout/x']}))")


class RecordingLock:
    """A GPU lock that notes which tests had run whenever it is taken or
    released; its shared holds say another submission's run held the GPU
    beside them when `overlapped` is True."""

    def __init__(self, log, overlapped=True):
        self.log = log
        self.seen = []
        self.overlapped = overlapped

    def _ran(self):
        return sorted(self.log.read_text().split()) if self.log.exists() else []

    @contextlib.contextmanager
    def _hold(self, how):
        self.seen.append((how, self._ran()))
        hold = grun.SharedHold()
        hold.overlapped = self.overlapped and how == "shared"
        yield hold
        self.seen.append(("released", self._ran()))

    def shared(self):
        return self._hold("shared")

    def exclusive(self):
        return self._hold("exclusive")


@unittest.skipUnless(shutil.which("ctest"), "needs ctest")
class RunTestsTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.slot = gb.Slot(pathlib.Path(self._tmp.name) / "slot-0")
        self.slot.build.mkdir(parents=True)
        self.log = self.slot.root / "ran.txt"
        lines = []
        for name, labels in FAKE_TESTS:
            lines.append(f"add_test([==[{name}]==] [==[{sys.executable}]==] -c [==[{LOGGER}]==] "
                         f"[==[{self.log}]==] [==[{name}]==])")
            lines.append(f"set_tests_properties([==[{name}]==] PROPERTIES LABELS "
                         f"[==[{labels}]==])")
        (self.slot.build / "CTestTestfile.cmake").write_text("\n".join(lines) + "\n")
        self.lock = RecordingLock(self.log)

    def tearDown(self):
        self._tmp.cleanup()

    def ran(self):
        return sorted(self.log.read_text().split()) if self.log.exists() else []

    def run_tests(self, gpu_present=True, only=None, timeout=120):
        # Unconfined: the fake tests log what ran into the slot, which a
        # confined run may not write (test_a_confined_run_writes_only_its_folder).
        return gb.run_tests(self.slot, gb.Commands(), gpu_present, 2, timeout, only=only,
                            gpu_lock=self.lock, confined=False)

    @unittest.skipUnless(sandbox.available()[0], "the sandbox cannot start here")
    def test_a_confined_run_writes_only_its_folder(self):
        escape = self.slot.root / "escaped.txt"
        self.slot.staged.mkdir()
        cache = self.slot.root.parent / "cache"
        cache.mkdir()
        (cache / "entry.json").write_text("{}")
        name = HOST[0]
        # The test notes in its record what it saw.
        code = ("import json, os, sys\n"
                "def write(path):\n"
                "    try:\n"
                "        open(path, 'w').write('x'); return 'written'\n"
                "    except OSError as e:\n"
                "        return e.strerror\n"
                "d = os.environ['WB_TEST_RECORDS']\n"
                f"saw = {{'cache': os.path.exists({str(cache)!r}), "
                f"'escape': write({str(escape)!r}), 'build': write({str(self.slot.build)!r} + '/x')}}\n"
                "open(os.path.join(d, sys.argv[1] + '.json'), 'w').write(json.dumps("
                "{'test': sys.argv[1], 'verdict': 'passed', 'modules': [], 'saw': saw}))\n")
        (self.slot.build / "CTestTestfile.cmake").write_text(
            f"add_test([==[{name}]==] [==[{sys.executable}]==] -c [==[{code}]==] "
            f"[==[{name}]==])\nset_tests_properties([==[{name}]==] PROPERTIES LABELS "
            f"[==[{dict(FAKE_TESTS)[name]}]==])\n")
        run = gb.run_tests(self.slot, gb.Commands(), False, 1, 120, gpu_lock=self.lock)
        self.assertEqual(sorted(run.records), [name], run.output)
        self.assertIn(name, run.results)
        # (The slot lies under /tmp here, so the test wrote its escape into
        # the sandbox's own /tmp, which went with it.)
        self.assertFalse(escape.exists())
        saw = run.records[name]["saw"]
        self.assertEqual((saw["cache"], saw["build"]), (False, "Read-only file system"))

    def test_the_listing_is_ctests_order_and_keeps_only_the_starter_tests(self):
        self.assertEqual([name for name, _ in gb.list_tests(self.slot, gb.Commands())], STARTER)
        labels = dict(gb.list_tests(self.slot, gb.Commands()))
        self.assertIn("exercise=effectiveBandwidth", labels[HOST[0]])

    def test_a_label_naming_an_unknown_exercise_stops_the_grading(self):
        testfile = self.slot.build / "CTestTestfile.cmake"
        testfile.write_text(testfile.read_text() + (
            "add_test(starter.layout.Odd true)\n"
            "set_tests_properties(starter.layout.Odd PROPERTIES LABELS "
            "[==[layout;starter;gpu;exercise=setRowReadSideways]==])\n"))
        with self.assertRaisesRegex(RuntimeError, "setRowReadSideways"):
            gb.list_tests(self.slot, gb.Commands())

    def test_all_tests_the_timed_ones_last_under_the_lock(self):
        run = self.run_tests()
        self.assertFalse(run.timed_out)
        self.assertEqual(sorted(run.results), sorted(STARTER))
        self.assertEqual(self.ran(), sorted(STARTER))
        untimed = sorted(set(STARTER) - set(TIMED))
        self.assertEqual(self.lock.seen, [("shared", []), ("released", untimed),
                                          ("exclusive", untimed), ("released", sorted(STARTER))],
                         "the perf and profile tests last, holding the lock alone")

    def add_squeezed_test(self, name, marker, noted=True, printed=""):
        """A test that fails the first time, passes the second: the first
        time its harness met CUDA's out-of-memory error (another
        submission's code held the GPU's memory) and, when `noted`, wrote
        the .contention note the harness writes (wbcore/gtest_verdict.py);
        it prints `printed`."""
        note = (f"    json.dump({{'test': {name!r}, 'seen': ['cudaErrorMemoryAllocation']}}, "
                "open(os.path.join(os.environ['WB_TEST_RECORDS'], "
                f"{name.replace('/', '%2F') + '.contention'!r}), 'w'))\n") if noted else ""
        code = (f"import json, os, sys, pathlib; m = pathlib.Path({str(marker)!r})\n"
                "if not m.exists():\n"
                f"    m.write_text('x'); print({printed!r})\n" + note + "    sys.exit(1)\n")
        testfile = self.slot.build / "CTestTestfile.cmake"
        testfile.write_text(testfile.read_text() + (
            f"add_test([==[{name}]==] [==[{sys.executable}]==] -c [==[{code}]==])\n"
            f"set_tests_properties([==[{name}]==] PROPERTIES LABELS "
            "[==[layout;starter;gpu;exercise=setRowReadCol]==])\n"))

    SQUEEZED = "starter.layout.Layout/GpuLayout.Squeezed/setRowReadCol_square"

    def test_a_test_that_ran_out_of_gpu_memory_beside_others_runs_again_alone(self):
        self.add_squeezed_test(self.SQUEEZED, self.slot.root / "squeezed.once")
        run = self.run_tests()
        self.assertEqual(run.results[self.SQUEEZED].result, "passed", run.output)
        self.assertNotIn(self.SQUEEZED, run.unsure,
                         "the run alone showed no sign: its verdict may be stored")
        holds = [how for how, _ in self.lock.seen if how != "released"]
        self.assertEqual(holds, ["shared", "exclusive", "exclusive"],
                         "the shared run, the test again alone, then the timed tests")

    def test_each_phase_is_handed_on_once_its_verdicts_stand(self):
        # The shared run that is made again alone is not handed on; the run
        # made again and the timed run are, each with its own results.
        self.add_squeezed_test(self.SQUEEZED, self.slot.root / "squeezed.once")
        done, said = [], []
        run = gb.run_tests(self.slot, gb.Commands(), True, 2, 120, gpu_lock=self.lock,
                           confined=False, phase_done=done.append, say=said.append)
        self.assertEqual(len(done), 2, "again alone, then the timed tests")
        self.assertEqual([line.split(":")[0] for line in said],
                         ["the shared run", "the shared run again, alone",
                          "the timed tests (alone on the GPU)"], said)
        self.assertEqual(done[0].results[self.SQUEEZED].result, "passed")
        self.assertNotIn(self.SQUEEZED, done[1].results)
        self.assertEqual(set(done[0].results) | set(done[1].results), set(run.results))

    def test_a_run_made_again_that_reports_nothing_leaves_nothing_to_store(self):
        # The contended run's verdicts stand only until the run made alone
        # replaces them: if that one reports nothing (CTest could not write
        # its report), none of them may go into the result cache.
        self.add_squeezed_test(self.SQUEEZED, self.slot.root / "squeezed.once")
        read = gb._read_junit
        reports = []

        def second_reports_nothing(path):
            reports.append(path)
            return {} if len(reports) == 2 else read(path)
        with mock.patch.object(gb, "_read_junit", second_reports_nothing):
            run = self.run_tests()
        # Every test of the shared run, those that passed in it included.
        shared = {n for n in run.results if ".Perf" not in n and ".profile." not in n}
        self.assertIn("starter.reduction.HostEffectiveBandwidth.OneGigabyteInOneSecond", shared)
        self.assertEqual(run.results["starter.reduction.HostEffectiveBandwidth."
                                     "OneGigabyteInOneSecond"].result, "passed")
        self.assertLessEqual(shared, run.unsure)

    def test_the_shared_run_made_again_reads_no_counters(self):
        # Only the perf and profile run keeps what Nsight Compute needs of
        # the sandbox (CAP_SYS_ADMIN where the driver asks it); the shared
        # run made again alone, host exercises and all, gets no more than
        # the first time.
        self.add_squeezed_test(self.SQUEEZED, self.slot.root / "squeezed.once")
        profiling = []

        def unconfined(slot, cmd, run_folder, gpu_present, env, profiling_run=False, **kw):
            profiling.append(kw.get("profiling", profiling_run))
            return cmd
        with mock.patch.object(gb, "confined_test_command", unconfined):
            gb.run_tests(self.slot, gb.Commands(), True, 2, 120, gpu_lock=self.lock)
        self.assertEqual(profiling, [False, False, True], "shared, again alone, timed")

    def test_graded_alone_a_failure_is_the_submissions_own(self):
        # No other submission's run held the GPU beside this one: the
        # failure stands, and is not stored in the cache (run.unsure).
        # A failure beside it that no note names (a tool that crashed when
        # the memory was gone) is not stored either.
        self.lock.overlapped = False
        self.add_squeezed_test(self.SQUEEZED, self.slot.root / "squeezed.once")
        crashed = self.SQUEEZED.replace("square", "rect")
        self.add_squeezed_test(crashed, self.slot.root / "crashed.once", noted=False)
        run = self.run_tests()
        self.assertEqual(run.results[self.SQUEEZED].result, "failed", run.output)
        self.assertLessEqual({self.SQUEEZED, crashed}, run.unsure)
        holds = [how for how, _ in self.lock.seen if how != "released"]
        self.assertEqual(holds, ["shared", "exclusive"], "nothing ran again")

    def test_out_of_memory_printed_by_the_test_buys_no_second_try(self):
        # Forgery reduceSmemUnroll__prints_out_of_memory_for_a_second_try: a
        # kernel's printf lands in the test's output; only the harness's note
        # counts.
        self.add_squeezed_test(self.SQUEEZED, self.slot.root / "squeezed.once", noted=False,
                               printed="cudaErrorMemoryAllocation (out of memory) "
                                       "cudaErrorDevicesUnavailable did not finish within 9 s")
        run = self.run_tests()
        self.assertEqual(run.results[self.SQUEEZED].result, "failed", run.output)
        self.assertEqual(run.unsure, set())
        holds = [how for how, _ in self.lock.seen if how != "released"]
        self.assertEqual(holds, ["shared", "exclusive"], "nothing ran again")

    def test_the_whole_shared_run_runs_again_alone_with_its_jobs(self):
        # Two casualties of a GPU whose memory was taken (the device reported
        # unavailable, as a new context gets it on an H100): the whole shared
        # run is made again with the lock held alone, as graded alone, since a
        # test of the submission's own may be what takes the memory (it then
        # fails its siblings again, as it does graded alone).
        names = ["starter.layout.Layout/GpuLayout.Squeezed/setRowReadCol_square",
                 "starter.layout.Layout/GpuLayout.Squeezed/setRowReadCol_rect"]
        for i, name in enumerate(names):
            self.add_squeezed_test(name, self.slot.root / f"squeezed.{i}")

        class Recording(gb.Commands):
            seen = []

            def run(self, cmd, *args, **kwargs):
                self.seen.append([str(c) for c in cmd])
                return super().run(cmd, *args, **kwargs)

        commands = Recording()
        run = gb.run_tests(self.slot, commands, True, 2, 120, gpu_lock=self.lock, confined=False)
        self.assertEqual([run.results[n].result for n in names], ["passed", "passed"], run.output)
        runs = [cmd for cmd in commands.seen if "--output-junit" in cmd]
        self.assertEqual(len(runs), 3, "the shared run, again, then the timed tests")
        self.assertEqual([a.replace("-0.xml", "-1.xml") for a in runs[0]], runs[1],
                         "the same tests with the same jobs")
        holds = [how for how, _ in self.lock.seen if how != "released"]
        self.assertEqual(holds, ["shared", "exclusive", "exclusive"])

    def test_only_failures_the_harness_or_ctest_marked_run_again(self):
        def result(name, outcome, output=""):
            return name, TestResult(name, outcome, 1.0, output)
        results = dict([
            result("a", "failed", "element 3 is 7, expected 8"),
            result("b", "failed"),
            result("c", "passed"),
            result("d", "failed"),
            result("e", "failed", "cudaErrorMemoryAllocation (out of memory) did not finish "
                                  "within 9 s ***Timeout"),
        ])
        output = ("1/5 Test #4: d ...........***Timeout 60.01 sec\n"
                  "2/5 Test #1: a ...........***Failed  0.01 sec\n")
        self.assertEqual(gb.shared_gpu_casualties(results, output, {"b", "c"}), ["b", "d"],
                         "b noted by its harness, d timed out under CTest; c passed; e only "
                         "printed the words")

    def test_the_notes_are_read_from_the_records_folder(self):
        folder = pathlib.Path(self._tmp.name) / "records"
        folder.mkdir()
        gtest_verdict.write_gpu_contention(str(folder), "starter.a/b", ["cudaErrorDevicesUnavailable"])
        (folder / "broken.contention").write_text("{")
        (folder / "starter.c.json").write_text('{"test": "starter.c", "modules": []}')
        self.assertEqual(gb.read_gpu_contention(folder), {"starter.a/b"})

    def test_the_records_of_the_run_are_read(self):
        run = self.run_tests(gpu_present=False)
        self.assertEqual(sorted(run.records), sorted(HOST))
        self.assertEqual(run.records[HOST[0]]["modules"], ["layout/x"])
        again = self.run_tests(gpu_present=False, only=[HOST[1]])
        self.assertEqual(sorted(again.records), [HOST[1]], "a fresh folder for every run")

    def test_only_the_tests_asked_for_run(self):
        only = [STARTER[0], STARTER[3], STARTER[6], STARTER[7]]   # perf, host, sanitize x2
        run = self.run_tests(only=only)
        self.assertEqual(self.ran(), sorted(only))
        self.assertEqual(sorted(run.results), sorted(only))
        self.assertEqual(run.warnings, [])
        self.assertEqual(self.lock.seen[2], ("exclusive", sorted(only[1:])),
                         "the perf test ran last")

    def test_the_numbers_count_among_the_filtered_tests(self):
        listed = gb._ctest_listing(self.slot, gb.Commands(), gb.test_phases(True)[0][0])
        wanted = [STARTER[2], STARTER[4]]   # gpu rect, host B
        spec = gb.selection_spec(listed, wanted)
        self.assertEqual(spec, "0,0,0,2,4", "positions among the tests the labels let through")
        self.assertEqual(gb.select_tests(self.slot, gb.Commands(), gb.test_phases(True)[0][0],
                                         wanted), spec)

    def test_a_batch_run_takes_a_number_but_no_place_in_the_listing(self):
        # An exercise's batch run (cmake/WorkbookDiscoverTests.cmake): a CTest
        # fixture its GPU tests require, listed by CTest before them, left out
        # of every listing the grader reads. -I still counts it.
        testfile = self.slot.build / "CTestTestfile.cmake"
        batch = "starter.layout.setRowReadCol.batch"
        # First in CTest's order, so that every number after it moves by one.
        lines = (
            f"add_test([==[{batch}]==] [==[{sys.executable}]==] -c [==[{LOGGER}]==] "
            f"[==[{self.log}]==] [==[{batch}]==])\n"
            f"set_tests_properties([==[{batch}]==] PROPERTIES LABELS "
            "[==[layout;starter;batch;exercise=setRowReadCol]==] FIXTURES_SETUP [==[b]==])\n"
            + testfile.read_text())
        for name in STARTER[2:4]:
            lines += f"set_tests_properties([==[{name}]==] PROPERTIES FIXTURES_REQUIRED b)\n"
        testfile.write_text(lines)
        label_args = gb.test_phases(True)[0][0]
        listed = gb._ctest_listing(self.slot, gb.Commands(), label_args)
        self.assertNotIn(batch, [name for name, _ in listed])
        wanted = [STARTER[3], STARTER[4]]   # gpu rect (needs the batch), host B
        spec = gb.select_tests(self.slot, gb.Commands(), label_args, wanted)
        self.assertIsNotNone(spec, "the selection was honoured")
        run = self.run_tests(only=wanted)
        self.assertEqual(run.warnings, [])
        self.assertEqual(self.ran(), sorted([batch, *wanted]))
        self.assertEqual(sorted(run.results), sorted(wanted), "the batch is no result")

    def test_without_a_gpu_only_host_tests_and_no_lock(self):
        run = self.run_tests(gpu_present=False, only=[STARTER[1], HOST[1], STARTER[7]])
        self.assertEqual(self.ran(), [HOST[1]])
        self.assertEqual(sorted(run.results), [HOST[1]])
        self.assertEqual(self.lock.seen, [])
        self.run_tests(gpu_present=False)
        self.assertEqual(self.ran(), sorted([HOST[1]] + HOST))

    def test_nothing_to_run_starts_no_test(self):
        run = self.run_tests(gpu_present=False, only=[STARTER[1], STARTER[6]])
        self.assertEqual((self.ran(), run.results, run.timed_out), ([], {}, False))
        self.assertFalse(list(self.slot.root.rglob("ctest-junit-*.xml")))

    def test_a_selection_ctest_would_not_honour_runs_the_whole_phase(self):
        with mock.patch.object(gb, "selection_spec", return_value="0,0,0,1"):
            run = self.run_tests(gpu_present=False, only=[HOST[1]])
        self.assertEqual(self.ran(), sorted(HOST))
        self.assertIn("ctest -I did not select exactly the tests asked for", run.warnings[0])

    def test_the_suite_timeout_bounds_both_runs(self):
        lines = (self.slot.build / "CTestTestfile.cmake").read_text()
        (self.slot.build / "CTestTestfile.cmake").write_text(lines + (
            f"add_test(starter.layout.Slow [==[{sys.executable}]==] -c "
            "[==[import time; time.sleep(30)]==])\n"
            "set_tests_properties(starter.layout.Slow PROPERTIES LABELS [==[starter;gpu]==])\n"))
        started = time.monotonic()
        run = self.run_tests(timeout=3)
        self.assertTrue(run.timed_out)
        self.assertLess(time.monotonic() - started, 25)
        self.assertEqual([how for how, _ in self.lock.seen], ["shared", "released"],
                         "the timed tests never started")


if __name__ == "__main__":
    unittest.main()
