"""Batch mode: every entry graded once, resume after an interruption,
--regrade, a gradebook that always matches the results written, a folder of
its own for every submission whatever its name, and archives that cannot be
read scored 0 while the batch goes on."""
import csv
import json
import os
import pathlib
import stat
import tarfile
import tempfile
import threading
import time
import types
import unittest
from unittest import mock

from gradingtest import EXERCISES, ctest_labels, make_tar, make_zip, outcome, points
from grader import build as gb
from grader import classreport as gcr
from grader import report as gr
from grader import run as grun
from grader import score as gs
from grader import similarity as gsim
from grader import slurm as gslurm
from grader import submission as gsub


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
        self.slow = {}         # name -> how long grade() takes for that one

    def grade(self, path, name, slot):
        if name == self.interrupt_on:
            raise gb.Interrupted()
        self.spans.append((name, "start", time.monotonic()))
        time.sleep(self.slow.get(name, self.seconds))
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

    def test_one_submission_graded_alone_says_what_it_is_doing(self):
        class Saying(FakeGrader):
            def grade(self, path, name, slot):
                self.progress(name, "compiling its exercise files and building the tests")
                return super().grade(path, name, slot)
        lines = []
        grun.grade_one(Saying(self.tmp / "work"), self.folder / "alice", self.out / "alice",
                       log=lines.append)
        self.assertEqual(len(lines), 1)
        self.assertRegex(lines[0], r"^  \[ +\d+ s\] alice: compiling its exercise files")

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

    def test_a_first_submission_that_takes_too_long_does_not_hold_the_others(self):
        grader = FakeGrader(self.tmp / "work")
        grader.options.cache = True
        grader.slow = {"alice": 1.5}
        with mock.patch.object(grun, "FIRST_ALONE_SECONDS", 0.3):
            self.assertEqual(self.batch(grader, jobs=2), 4)
        first_end = next(t for n, e, t in grader.spans if n == "alice" and e == "end")
        started = [t for n, e, t in grader.spans if n != "alice" and e == "start"]
        self.assertTrue(any(t < first_end for t in started), grader.spans)


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


class FolderNameTest(unittest.TestCase):
    def test_plain_names_are_their_own_folders(self):
        for name in ("alice", "Bob_Smith-2", "a.b", "josé", "x+y@z"):
            self.assertEqual(grun.output_folder(name), name)

    def test_what_the_batch_writes_in_out_is_never_a_submissions_folder(self):
        written = (gr.GRADEBOOK, gr.BATCH_RECORD, gcr.REPORT_HTML, gcr.REPORT_JSON,
                   gsim.SIMILARITY_HTML, gsim.SIMILARITY_JSON, gslurm.STATE_DIR, gslurm.RECORD)
        for name in written + ("GRADEBOOK.CSV", "Slurm"):
            with self.subTest(name=name):
                folder = grun.output_folder(name)
                self.assertNotEqual(folder.lower(), name.lower())
                self.assertNotIn(folder.lower(), grun.batch_outputs())
                self.assertRegex(folder, r"~[0-9a-f]{16}$")

    def test_unsafe_names_map_to_distinct_safe_folders(self):
        names = ["a b", "a_b", "a?b", "a~b", "a_b~" + "0" * 16, "-rf", "x\udcff", "tab\there",
                 "n" * 250]
        folders = [grun.output_folder(n) for n in names]
        self.assertEqual(folders[1], "a_b")
        self.assertEqual(len(set(folders)), len(names), folders)
        for folder in folders:
            self.assertRegex(folder, r"^[\w][\w.+@~-]*$")
            self.assertLessEqual(len(folder.encode()), 255)
        self.assertEqual(folders, [grun.output_folder(n) for n in names], "the same every run")


class ReservedNamesTest(unittest.TestCase):
    """Submissions named like what the batch writes in OUT, beside a plain one."""
    NAMES = ["alice", "batch.json", "gradebook.csv", "slurm"]

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = pathlib.Path(self._tmp.name)
        self.folder = self.tmp / "class"
        for name in ("alice", "batch.json", "slurm"):
            (self.folder / name).mkdir(parents=True)
        (self.folder / "gradebook.csv.zip").write_bytes(b"")
        self.out = self.tmp / "graded"

    def tearDown(self):
        self._tmp.cleanup()

    def gradebook(self):
        with open(self.out / gr.GRADEBOOK, newline="") as handle:
            return {row["submission"]: row for row in csv.DictReader(handle)}

    def test_each_is_graded_into_its_own_folder_and_the_batch_resumes(self):
        grader = FakeGrader(self.tmp / "work")
        self.assertEqual(grun.grade_batch(grader, self.folder, self.out, log=lambda *_: None), 4)
        self.assertEqual(sorted(grader.graded), self.NAMES)
        self.assertEqual(sorted(self.gradebook()), self.NAMES, "the gradebook names submissions")
        self.assertTrue((self.out / gr.GRADEBOOK).is_file())
        self.assertEqual(len(gr.load_batch_record(self.out)["runs"]), 1)
        folders = {e.name: e[0] for e in grun.batch_entries(self.folder, self.out)}
        for name, folder in folders.items():
            doc = gr.load_results(self.out / folder / gr.RESULTS)
            self.assertEqual(doc["extra_data"]["submission"], name)
        again = FakeGrader(self.tmp / "work")
        self.assertEqual(grun.grade_batch(again, self.folder, self.out, log=lambda *_: None), 0)
        self.assertEqual(again.graded, [])
        self.assertEqual(len(gr.load_batch_record(self.out)["runs"]), 2)

    def test_slurm_grades_them_into_the_same_folders(self):
        bin_dir = self.tmp / "bin"
        bin_dir.mkdir()
        (bin_dir / "sbatch").write_text("#!/bin/sh\necho \"$$;cluster\"\n")
        for name in ("sbatch", "squeue", "scontrol", "sacct"):
            tool = bin_dir / name
            if not tool.exists():
                tool.write_text("#!/bin/sh\nexit 0\n")
            tool.chmod(tool.stat().st_mode | stat.S_IEXEC)
        path = os.environ["PATH"]
        os.environ["PATH"] = f"{bin_dir}{os.pathsep}{path}"
        try:
            entry = gslurm.submit(self.folder, self.out, ["--no-gpu"], [], group=2,
                                  log=lambda *_: None)
        finally:
            os.environ["PATH"] = path
        plan = gslurm.load_plan(entry["plan"])
        expected = {e[0] for e in grun.batch_entries(self.folder, self.out)}
        self.assertEqual({n for g in plan["tasks"] for n, _ in g}, expected)
        grader = FakeGrader(self.tmp / "work")
        for index in range(len(plan["tasks"])):
            gslurm.run_task(grader, plan, index, log=lambda *_: None)
        self.assertEqual(sorted(grader.graded), self.NAMES)
        self.assertEqual(gslurm.merge(self.out), 4)
        self.assertEqual(sorted(self.gradebook()), self.NAMES)
        self.assertIsNotNone(gslurm.load_record(self.out), "slurm.json is still the record")
        self.assertTrue((gslurm.state_dir(self.out) / "lock").exists())


class UnreadableArchivesTest(unittest.TestCase):
    """A real Grader (no build: none of these gets that far) on a batch of
    archives that cannot be read: each scores 0 with its reason, and the
    batch grades every entry."""

    def test_each_scores_zero_with_its_reason_and_the_batch_goes_on(self):
        from test_grading_submission import pax_digits_tar
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            folder = tmp / "class"
            folder.mkdir()
            many = make_zip({f"f{i}": b"" for i in range(gsub.MAX_MEMBERS + 1)})
            cut = make_tar({"starter/reduction/reduceSmem.cu": os.urandom(64 << 10)})
            reasons = {"a-pax-digits": ("a-pax-digits.tgz", pax_digits_tar(200_000),
                                        "CVE-2024-6232"),
                       "b-many": ("b-many.zip", many, "more than 10000 entries"),
                       "c-cut": ("c-cut.tgz", cut[:len(cut) // 2], "is damaged"),
                       "d-not-a-zip": ("d-not-a-zip.zip", b"PK" * 100, "not a readable zip")}
            for file_name, data, _ in reasons.values():
                (folder / file_name).write_bytes(data)
            options = grun.Options(points=points(), work_dir=tmp / "work", gpu_present=False,
                                   gpu_note="no GPU in this test", cache=False)
            out = tmp / "graded"
            started = time.monotonic()
            graded = grun.grade_batch(grun.Grader(options), folder, out, log=lambda *_: None)
            self.assertLess(time.monotonic() - started, 30)
            self.assertEqual(graded, len(reasons))
            for name, (_, _, reason) in reasons.items():
                doc = json.loads((out / name / gr.RESULTS).read_text())
                self.assertEqual(doc["score"], 0, name)
                self.assertEqual(doc["extra_data"]["status"], "error", name)
                self.assertIn(reason, doc["extra_data"]["reason"], name)
            with open(out / gr.GRADEBOOK, newline="") as handle:
                self.assertEqual(sorted(row["submission"] for row in csv.DictReader(handle)),
                                 sorted(reasons))


class HostileNamesTest(unittest.TestCase):
    """A name that is not UTF-8 (a folder's own, or a member of a student's
    archive) and an entry that is a link: every entry gets its results, and
    the batch ends normally, also two at a time with the cache (where the
    first is graded alone before the others start)."""

    def test_every_entry_is_graded_and_the_batch_goes_on(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            folder = tmp / "class"
            folder.mkdir()
            os.mkdir(os.fsencode(folder) + b"/0-jos\x82")
            with tarfile.open(folder / "aaron.tar.gz", "w:gz", format=tarfile.GNU_FORMAT,
                              errors="surrogateescape") as archive:
                link = tarfile.TarInfo("starter/\udcff")
                link.type, link.linkname = tarfile.SYMTYPE, "reduction"
                archive.addfile(link)
            secret = tmp / "someone-elses" / "starter" / "reduction"
            secret.mkdir(parents=True)
            (secret / "reduceSmem.cu").write_text("// another student's work\n")
            (folder / "mallory").symlink_to(tmp / "someone-elses")
            options = grun.Options(points=points(), work_dir=tmp / "work", gpu_present=False,
                                   gpu_note="no GPU in this test", cache=True)
            out = tmp / "graded"
            lines = []
            graded = grun.grade_batch(grun.Grader(options), folder, out, jobs=2,
                                      log=lines.append)
            self.assertEqual(graded, 3, "\n".join(lines))
            docs = {e.name: json.loads((out / e[0] / gr.RESULTS).read_text())
                    for e in grun.batch_entries(folder, out)}
            self.assertEqual(sorted(docs), ["0-jos\\x82", "aaron", "mallory"])
            status = {name: doc["extra_data"]["status"] for name, doc in docs.items()}
            self.assertEqual(status, {"0-jos\\x82": "empty", "aaron": "empty", "mallory": "error"})
            self.assertIn("symbolic link", docs["mallory"]["extra_data"]["reason"])
            folders = {e.name: e[0] for e in grun.batch_entries(folder, out)}
            self.assertIn("starter/\\xff", (out / folders["aaron"] / gr.SUMMARY).read_text())
            with open(out / gr.GRADEBOOK, newline="", encoding="utf-8") as handle:
                self.assertEqual(len(list(csv.DictReader(handle))), 3)


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

    def test_a_shared_hold_knows_whether_another_held_the_gpu_beside_it(self):
        lock = grun.GpuLock()
        with lock.shared() as alone:
            pass
        self.assertFalse(alone.overlapped, "graded alone: no second try for its failures")
        with lock.shared() as first:
            with lock.shared() as second:
                pass
            self.assertTrue(second.overlapped)
        self.assertTrue(first.overlapped, "both holders learn of the other")
        with lock.shared() as later:
            pass
        self.assertFalse(later.overlapped, "holds that ended before it began do not count")


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
