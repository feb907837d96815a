#!/usr/bin/env python3
"""Host test of `./workbook hint`: the first call shows step 1 of an
exercise, each further call the next step, and once all are shown it says so
and repeats the last; `--step N` shows step N; each exercise keeps its own
place. The state goes to a temporary file (WB_HINT_STATE), never to the
checkout's own .workbook-hints.json. Also runs todo_hint_check.py, so a
starter TODO that grows back or an exercise left with one hint fails here
too.
"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

# The student loop in English, whatever language a run of ./workbook --lang
# remembered in this checkout.
os.environ["WB_LANG"] = "en"

ROOT = pathlib.Path(__file__).resolve().parents[2]
from student import hints as wbhints  # noqa: E402
from wbcore import course  # noqa: E402

WORKBOOK = ROOT / "workbook"


class HintStepping(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.state = pathlib.Path(self.tmp.name) / "hints.json"
        self.env = dict(os.environ, WB_HINT_STATE=str(self.state))

    def tearDown(self):
        self.tmp.cleanup()

    def hint(self, *args, rc=0):
        run = subprocess.run([sys.executable, str(WORKBOOK), "hint", *args], cwd=ROOT,
                             env=self.env, capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, rc, run.stdout + run.stderr)
        return run.stdout + run.stderr

    def exercise(self, name):
        return course.find_exercise(name)

    def test_steps_forward_then_repeats_the_last(self):
        e = self.exercise("reduceSmem")
        n = len(e.hints)
        self.assertGreaterEqual(n, 2)
        for k in range(1, n + 1):
            out = self.hint("reduceSmem")
            self.assertIn(f"hint {k} of {n}", out)
            self.assertIn(e.hints[k - 1], out)
        again = self.hint("reduceSmem")
        self.assertIn(f"hint {n} of {n}", again)
        self.assertIn(e.hints[-1], again)
        self.assertIn(f"All {n} hints", again)
        self.assertEqual(json.loads(self.state.read_text()), {e.key: n})

    def test_step_option_and_its_limits(self):
        e = self.exercise("transposeSmem")
        out = self.hint("transposeSmem", "--step", "2")
        self.assertIn(f"hint 2 of {len(e.hints)}", out)
        self.assertIn(e.hints[1], out)
        # Having seen step 2, the next plain call goes on with step 3.
        self.assertIn(f"hint 3 of {len(e.hints)}", self.hint("transposeSmem"))
        # Looking back does not move the place backwards.
        self.assertIn(e.hints[0], self.hint("transposeSmem", "--step", "1"))
        self.assertEqual(json.loads(self.state.read_text())[e.key], 3)
        err = self.hint("transposeSmem", "--step", str(len(e.hints) + 1), rc=2)
        self.assertIn("--step takes 1 to", err)
        self.hint("transposeSmem", "--step", "0", rc=2)

    def test_each_exercise_keeps_its_own_place(self):
        self.hint("setColReadCol")
        self.hint("setColReadCol")
        self.assertIn("hint 1 of", self.hint("layout/setRowReadCol"))
        self.assertIn("hint 3 of", self.hint("setColReadCol"))

    def test_default_is_the_next_exercise_with_a_todo(self):
        pending = [e for e in course.exercises() if course.first_todo(e.starter_file())]
        if not pending:
            self.skipTest("no TODO is left in starter/")
        out = self.hint()
        self.assertIn(f"{pending[0].key} (", out)
        self.assertIn("hint 1 of", out)
        self.assertIn("hint 2 of", self.hint())

    def test_worked_example_has_one_hint(self):
        e = self.exercise("setRowReadRow")
        self.assertIn("hint 1 of 1", self.hint("setRowReadRow"))
        out = self.hint("setRowReadRow")
        self.assertIn("hint 1 of 1 (the only one)", out)
        self.assertIn(e.hints[0], out)

    def test_unknown_exercise(self):
        self.assertIn("no exercise called", self.hint("noSuchKernel", rc=2))
        self.assertFalse(self.state.exists())

    def test_damaged_state_starts_over(self):
        self.state.write_text("{not json")
        self.assertIn("hint 1 of", self.hint("reduceSmem"))
        self.assertEqual(wbhints.load_state(self.state), {"reduction/reduceSmem": 1})

    def test_choose_step(self):
        self.assertEqual(wbhints.choose_step(0, 3), (1, 1, False))
        self.assertEqual(wbhints.choose_step(2, 3), (3, 3, False))
        self.assertEqual(wbhints.choose_step(3, 3), (3, 3, True))
        self.assertEqual(wbhints.choose_step(5, 3), (3, 3, True))
        self.assertEqual(wbhints.choose_step(3, 3, step=1), (1, 3, False))
        self.assertEqual(wbhints.choose_step(0, 3, step=2), (2, 2, False))


class TodosAndHints(unittest.TestCase):
    def test_todo_hint_check_passes(self):
        run = subprocess.run([sys.executable, str(ROOT / "tests" / "checks" / "todo_hint_check.py")],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)

    def test_todo_hint_check_catches_a_long_todo(self):
        import todo_hint_check
        long_todo = "  // TODO(book 5.3.1): x\n" + "  // step\n" * 8 + "  (void)n;\n"
        blocks = todo_hint_check.todo_blocks(long_todo)
        self.assertEqual(len(blocks), 1)
        self.assertEqual(len(blocks[0][1]), 9)
        self.assertTrue(todo_hint_check.close_enough(20, 21))
        self.assertFalse(todo_hint_check.close_enough(9, 20))
        self.assertEqual(todo_hint_check.strip_comments('a = "//x"; // c\n/* b */ b;\n'),
                         'a = "//x";\n  b;')


if __name__ == "__main__":
    unittest.main(verbosity=2)
