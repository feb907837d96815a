"""The grading build's pure parts: reading CTest's results (timeouts,
crashes, skips), placeholders of tests that could not be listed, blaming
link errors, compiler messages; and stopping commands."""
import pathlib
import sys
import threading
import time
import unittest

from gradingtest import EXERCISES
from wbtools import grading_build as gb
from wbtools import grading_score as gs
from wbtools.results import TestResult

GPU = ("layout", "starter", "gpu")
HOST = ("reduction", "starter", "host")
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
                      ("layout", "starter", "profile")),
                     ("starter.layout.sanitize.square_setRowReadCol",
                      ("layout", "starter", "sanitize"))]
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

    def test_a_stopped_run_says_so(self):
        outcomes = gb.test_outcomes([("starter.layout.X", GPU)], {}, "", "no GPU", True, 600)
        self.assertEqual(outcomes[0].reason, "the test run was stopped after 600 s")

    def test_placeholders_make_their_tests_unknown(self):
        unavailable = gb.unavailable_tests([("starter.layout.NOT_BUILT", ("layout", "starter")),
                                            ("starter.runner.LIST_FAILED", ())], EXERCISES)
        self.assertIn(("layout", "gpu"), unavailable)
        self.assertIn(("reduction", "sanitize"), unavailable)
        self.assertNotIn(("reduction", "gpu"), unavailable)


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
        self.assertEqual(gb.failing_sections("FAILED: tools/runner/wb_run_starter\n", EXERCISES),
                         {"layout", "reduction"})
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


if __name__ == "__main__":
    unittest.main()
