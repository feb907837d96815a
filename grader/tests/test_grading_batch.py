"""Batch mode: every entry graded once, resume after an interruption,
--regrade, and a gradebook that always matches the results written."""
import csv
import pathlib
import tempfile
import threading
import time
import types
import unittest

from gradingtest import EXERCISES, ctest_labels, outcome, points
from grader import build as gb
from grader import report as gr
from grader import run as grun
from grader import score as gs


class FakeGrader:
    """Stands in for grading_run.Grader: no build, a made-up score per name."""

    def __init__(self, work_dir, statuses=None, interrupt_on=None):
        self.options = types.SimpleNamespace(work_dir=work_dir, points=points())
        self.commands = types.SimpleNamespace(stop_all=lambda: None)
        self.statuses = statuses or {}
        self.interrupt_on = interrupt_on
        self.graded = []
        self.spans = []        # (name, "start" or "end", time)
        self.seconds = 0.0     # how long grade() takes

    def grade(self, path, name, slot):
        if name == self.interrupt_on:
            raise gb.Interrupted()
        self.spans.append((name, "start", time.monotonic()))
        time.sleep(self.seconds)
        self.spans.append((name, "end", time.monotonic()))
        self.graded.append(name)
        passed = outcome("starter.reduction.HostEffectiveBandwidth.A",
                         ctest_labels("reduction", "host", "effectiveBandwidth"), gs.PASSED)
        results, _, _ = gs.score(self.options.points, [passed], all_exercises=EXERCISES)
        reused = 1 if self.graded[:-1] else 0   # all but the first reuse the host test
        return gs.Grade(name, self.statuses.get(name, "ok"), "", results, tests_total=1,
                        tests_reused=reused)


class BatchTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = pathlib.Path(self._tmp.name)
        self.folder = self.tmp / "class"
        for name in ("alice", "bob", "carol"):
            (self.folder / name).mkdir(parents=True)
        (self.folder / "dave.zip").write_bytes(b"")
        (self.folder / ".DS_Store").write_bytes(b"")
        self.out = self.tmp / "graded"

    def tearDown(self):
        self._tmp.cleanup()

    def batch(self, grader, **kwargs):
        return grun.grade_batch(grader, self.folder, self.out, log=lambda *_: None, **kwargs)

    def gradebook(self):
        with open(self.out / gr.GRADEBOOK, newline="") as handle:
            return {row["submission"]: row for row in csv.DictReader(handle)}

    def test_every_entry_once_and_the_gradebook(self):
        grader = FakeGrader(self.tmp / "work")
        self.assertEqual(self.batch(grader, jobs=2), 4)
        self.assertEqual(sorted(grader.graded), ["alice", "bob", "carol", "dave"])
        book = self.gradebook()
        self.assertEqual(sorted(book), ["alice", "bob", "carol", "dave"])
        self.assertEqual(book["alice"]["total"], "5")
        self.assertEqual(book["alice"]["status"], "ok")
        for name in book:
            self.assertIsNotNone(gr.load_results(self.out / name / gr.RESULTS))

    def test_the_log_says_how_many_tests_were_reused(self):
        lines = []
        grun.grade_batch(FakeGrader(self.tmp / "work"), self.folder, self.out, log=lines.append)
        graded = [line for line in lines if line.startswith("[")]
        self.assertEqual(graded[0], "[1/4] alice: 5 of 24 (ok)")
        self.assertEqual(graded[1], "[2/4] bob: 5 of 24 (ok); 1 of 1 tests reused from earlier "
                                    "identical runs")
        # Progress before each result: which submission started, and when.
        self.assertRegex(lines[0], r"^  \[ +\d+ s\] alice: started$")
        self.assertLess(lines.index(lines[0]), lines.index(graded[0]))

    def test_with_the_cache_the_first_is_graded_alone_then_the_rest_at_once(self):
        grader = FakeGrader(self.tmp / "work")
        grader.options.cache = True
        grader.seconds = 0.2
        self.assertEqual(self.batch(grader, jobs=3), 4)
        first_end = next(t for n, e, t in grader.spans if n == "alice" and e == "end")
        others = [(n, t) for n, e, t in grader.spans if n != "alice" and e == "start"]
        self.assertEqual(len(others), 3)
        self.assertTrue(all(t >= first_end for _, t in others), grader.spans)
        # The others overlap: all three start before any of them ends.
        last_start = max(t for _, t in others)
        self.assertLess(last_start, min(t for n, e, t in grader.spans
                                        if n != "alice" and e == "end"))

    def test_resume_skips_finished_and_regrade_does_not(self):
        self.batch(FakeGrader(self.tmp / "work"))
        stamp = (self.out / "alice" / gr.RESULTS).stat().st_mtime_ns
        again = FakeGrader(self.tmp / "work")
        self.assertEqual(self.batch(again), 0)
        self.assertEqual(again.graded, [])
        self.assertEqual((self.out / "alice" / gr.RESULTS).stat().st_mtime_ns, stamp)
        regrade = FakeGrader(self.tmp / "work")
        self.assertEqual(self.batch(regrade, regrade=True), 4)

    def test_submissions_with_status_error_are_graded_again(self):
        self.batch(FakeGrader(self.tmp / "work", statuses={"bob": "error"}))
        again = FakeGrader(self.tmp / "work")
        self.batch(again)
        self.assertEqual(again.graded, ["bob"])
        self.assertEqual(self.gradebook()["bob"]["status"], "ok")

    def test_interrupt_keeps_what_was_written_and_resumes(self):
        with self.assertRaises(gb.Interrupted):
            self.batch(FakeGrader(self.tmp / "work", interrupt_on="bob"))
        self.assertTrue((self.out / "alice" / gr.RESULTS).exists())
        self.assertFalse((self.out / "bob").exists(), "nothing is written for an interrupted one")
        self.assertEqual(list(self.gradebook()), ["alice"])
        resumed = FakeGrader(self.tmp / "work")
        self.batch(resumed)
        self.assertEqual(resumed.graded, ["bob", "carol", "dave"])
        self.assertEqual(sorted(self.gradebook()), ["alice", "bob", "carol", "dave"])

    def test_entries(self):
        (self.folder / "alice.tar.gz").write_bytes(b"")
        (self.folder / "graded").mkdir()
        entries = grun.batch_entries(self.folder, self.folder / "graded")
        self.assertEqual([name for name, _ in entries],
                         ["alice", "alice.tar.gz", "bob", "carol", "dave"])

    def test_slots_are_exclusive(self):
        first = gb.acquire_slots(self.tmp / "work", 2)
        second = gb.acquire_slots(self.tmp / "work", 1)
        self.assertEqual([s.root.name for s in first], ["slot-0", "slot-1"])
        self.assertEqual([s.root.name for s in second], ["slot-2"])
        for slot in first + second:
            slot.release()
        again = gb.acquire_slots(self.tmp / "work", 1)
        self.assertEqual([s.root.name for s in again], ["slot-0"])
        again[0].release()


class GpuLockTest(unittest.TestCase):
    def holder(self, lock, how, events, name, release):
        def hold():
            with getattr(lock, how)():
                events.append(f"{name} in")
                release.wait(5)
                events.append(f"{name} out")
        thread = threading.Thread(target=hold)
        thread.start()
        return thread

    def settle(self):
        time.sleep(0.2)

    def test_shared_holders_overlap_and_an_exclusive_one_is_alone(self):
        lock = grun.GpuLock()
        events = []
        go_a, go_b, go_x, go_c = (threading.Event() for _ in range(4))
        a = self.holder(lock, "shared", events, "a", go_a)
        b = self.holder(lock, "shared", events, "b", go_b)
        self.settle()
        self.assertEqual(sorted(events), ["a in", "b in"], "two shared holders at once")
        x = self.holder(lock, "exclusive", events, "x", go_x)
        self.settle()
        c = self.holder(lock, "shared", events, "c", go_c)
        self.settle()
        self.assertEqual(len(events), 2, "x waits for a and b; c waits behind x")
        go_a.set()
        go_b.set()
        a.join()
        b.join()
        self.settle()
        self.assertEqual(events[-1], "x in")
        self.assertNotIn("c in", events, "nothing runs beside an exclusive holder")
        go_x.set()
        x.join()
        c.join(0.5)
        self.assertEqual(events[-2:], ["x out", "c in"])
        go_c.set()
        c.join()


class StatusTest(unittest.TestCase):
    def test_the_first_status_that_applies_and_every_reason(self):
        hung = outcome("starter.layout.X.A", ("gpu",), gs.FAILED, reason="timed out after 120 s")
        problems = {"layout/a": gs.Problem("compile error", ""),
                    "layout/b": gs.Problem("refused", ""), "layout/c": gs.Problem("missing", "")}
        status, reason = grun.Grader._status(problems, [hung], False)
        self.assertEqual(status, "refused", "a refused file comes before compile errors")
        for part in ("did not compile or link: layout/a", "refused", "layout/b",
                     "1 test(s) timed out", "1 exercise file(s) not submitted"):
            self.assertIn(part, reason)
        del problems["layout/b"]
        self.assertEqual(grun.Grader._status(problems, [hung], False)[0], "compile-errors")
        self.assertEqual(grun.Grader._status({}, [hung], False)[0], "timeout")
        self.assertEqual(grun.Grader._status({}, [], True)[0], "timeout")
        self.assertEqual(grun.Grader._status({}, [], False), ("ok", ""))


if __name__ == "__main__":
    unittest.main()
