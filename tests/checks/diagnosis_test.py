#!/usr/bin/env python3
"""Diagnosis by known mistakes (wbcore/diagnosis.py) on synthetic data:
the matching rule, the student's check names read from CTest results, the
mutant check's record (tests/checks/mutant_check.py) and the lines
./workbook check prints. Runs on the host."""
import argparse
import json
import pathlib
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]

from wbcore import course as wbex  # noqa: E402
from wbcore import ctest_listing  # noqa: E402
from wbcore import diagnosis  # noqa: E402
from wbcore import results as wbres  # noqa: E402
import mutant_check  # noqa: E402

SMEM = wbex.find_exercise("reduceSmem")
T1, T2, T3 = "test:Reduce/Kernel.MatchesModel/reduceSmem", "test:Size/Kernel.Odd/reduceSmem_129", \
    "test:Size/Kernel.Odd/reduceSmem_4096"
RACE = "sanitize:reduceSmem:racecheck"
MEM = "sanitize:reduceSmem:memcheck"


class Matching(unittest.TestCase):
    def test_same_failures(self):
        self.assertTrue(diagnosis.matches({T1, T2, T3}, {T2}, {T1, T2, T3}, {T2}))

    def test_one_more_failure_on_a_shared_check(self):
        self.assertFalse(diagnosis.matches({T1, T2, T3}, {T2, T3}, {T1, T2, T3}, {T2}))

    def test_one_failure_fewer(self):
        self.assertFalse(diagnosis.matches({T1, T2, T3}, {T2}, {T1, T2, T3}, {T2, T3}))

    def test_checks_the_mutant_never_reached_do_not_count(self):
        # the mutant was caught by the tests, so its run never reached the
        # sanitizer; the student's racecheck failure says nothing against it
        self.assertTrue(diagnosis.matches({T1, T2, RACE}, {T2, RACE}, {T1, T2}, {T2}))

    def test_a_check_the_student_did_not_run(self):
        # no GPU: the student's GPU tests were skipped
        self.assertFalse(diagnosis.matches(set(), set(), {T1, T2}, {T2}))
        self.assertFalse(diagnosis.matches({T1}, {T1}, {T1, T2}, {T1, T2}))

    def test_a_mutant_without_failures_never_matches(self):
        self.assertFalse(diagnosis.matches({T1}, set(), {T1}, set()))

    def test_caught_by_the_sanitizer(self):
        mutant_checked = {T1, T2, T3, MEM, RACE}
        self.assertTrue(diagnosis.matches({T1, T2, T3, MEM, RACE}, {RACE}, mutant_checked, {RACE}))
        self.assertFalse(diagnosis.matches({T1, T2, T3, MEM, RACE}, {RACE, T1}, mutant_checked,
                                           {RACE}))


def listed_test(name, kind, gtest=None, exercise=SMEM):
    command = ("python3", "gtest_verdict.py", "--test", gtest, "--", "wb_reduction_tests") \
        if gtest else ("python3", "sanitize_check.py")
    return ctest_listing.ListedTest(name, ("starter", "reduction", kind), "reduction", exercise,
                                    kind, command)


def student_run(failing_t2=True, race=True):
    results = [
        wbres.TestResult("starter.reduction.Reduce/Kernel.MatchesModel/reduceSmem", "passed", 1, ""),
        wbres.TestResult("starter.reduction.Size/Kernel.Odd/reduceSmem_129",
                         "failed" if failing_t2 else "passed", 1, "a.cu:1: Failure"),
        wbres.TestResult("starter.reduction.Size/Kernel.Odd/reduceSmem_4096", "skipped", 0, ""),
        wbres.TestResult("starter.reduction.sanitize.reduceSmem", "failed" if race else "passed", 1,
                         "reduction/reduceSmem: memcheck clean\n"
                         + ("FAILED reduction/reduceSmem: racecheck reports 40 hazards:\n"
                            "  starter/reduction/reduceSmem.cu:41 writes, :42 reads: ...\n"
                            if race else "reduction/reduceSmem: racecheck clean\n")
                         + "reduction/reduceSmem: synccheck clean\n"
                         + "reduction/reduceSmem: initcheck clean\n"),
        wbres.TestResult("starter.reduction.perf.reduceSmem", "failed", 1, ""),
    ]
    listed = {
        results[0].name: listed_test(results[0].name, "gpu", T1[5:]),
        results[1].name: listed_test(results[1].name, "gpu", T2[5:]),
        results[2].name: listed_test(results[2].name, "gpu", T3[5:]),
        results[3].name: listed_test(results[3].name, "sanitize"),
        results[4].name: listed_test(results[4].name, "perf", "Perf.X/reduceSmem"),
    }
    return results, listed


class StudentChecks(unittest.TestCase):
    def test_names(self):
        results, listed = student_run()
        checked, failed = diagnosis.student_checks(results, listed, SMEM)
        self.assertEqual(checked, {T1, T2, MEM, RACE, "sanitize:reduceSmem:synccheck",
                                   "sanitize:reduceSmem:initcheck"})  # skipped and perf: out
        self.assertEqual(failed, {T2, RACE})

    def test_other_exercise_ignored(self):
        results, listed = student_run()
        self.assertEqual(diagnosis.student_checks(results, listed,
                                                  wbex.find_exercise("reduceGmem")),
                         (set(), set()))


class Records(unittest.TestCase):
    def write(self, build, name, checked, failed):
        args = argparse.Namespace(name=f"reduction_reduceSmem__{name}", section="reduction",
                                  exercise="reduceSmem", build=str(build))
        checks = {c: c in failed for c in checked}
        mutant_check.record(args, checks, "tests: 1 failed" if failed else None)

    def test_record_and_diagnose(self):
        with tempfile.TemporaryDirectory() as build:
            build = pathlib.Path(build)
            self.write(build, "volatile_tail_without_syncwarp",
                       {T1, T2, T3, MEM, RACE}, {RACE})
            self.write(build, "in_place_in_global_memory", {T1, T2, T3}, {T2})
            records = diagnosis.load_records(build, shipped=build / "none.json")
            self.assertEqual(sorted(records), ["reduction_reduceSmem__in_place_in_global_memory",
                                               "reduction_reduceSmem__volatile_tail_without_syncwarp"])
            rec = records["reduction_reduceSmem__volatile_tail_without_syncwarp"]
            self.assertEqual(rec["file"],
                             "tests/mutants/reduction/reduceSmem__volatile_tail_without_syncwarp.cu")
            self.assertEqual(rec["failed"], [RACE])

            # fails a size test and racecheck: like the in-place mutant,
            # whose run stopped at the tests (its racecheck never ran), not
            # like the warp tail (whose size tests pass)
            results, listed = student_run(failing_t2=True, race=True)
            lines = diagnosis.diagnose(results, listed, SMEM, records)
            self.assertEqual(len(lines), 2, lines)
            self.assertIn("reduceSmem__in_place_in_global_memory.cu", lines[0])
            self.assertTrue(lines[1].startswith("    errata: \"`reduceGmem` destroys its input"),
                            lines)

            # racecheck alone: the volatile warp tail, with its errata entry
            results, listed = student_run(failing_t2=False, race=True)
            lines = diagnosis.diagnose(results, listed, SMEM, records)
            self.assertEqual(lines[0], "  reduction/reduceSmem fails like a known mistake, "
                             "tests/mutants/reduction/reduceSmem__volatile_tail_without_syncwarp.cu: "
                             + diagnosis.bug_line(ROOT / rec["file"]))
            self.assertIn("the book's warp tail", lines[0])
            self.assertTrue(lines[1].startswith("    errata: \"The `volatile` warp tail"), lines)

            # nothing failing: nothing to say
            results, listed = student_run(failing_t2=False, race=False)
            results = [r for r in results if "perf" not in r.name]
            self.assertEqual(diagnosis.diagnose(results, listed, SMEM, records), [])

            collected = json.loads(diagnosis.collect(build))
            self.assertEqual([r["mutant"] for r in collected], sorted(records))

    def test_hang_records_nothing(self):
        with tempfile.TemporaryDirectory() as build:
            args = argparse.Namespace(name="reduction_reduceSmem__x", section="reduction",
                                      exercise="reduceSmem", build=build)
            mutant_check.record(args, {T1: True}, "hang: the correctness tests did not finish")
            rec = diagnosis.load_records(build, shipped="/nonexistent")["reduction_reduceSmem__x"]
            self.assertEqual((rec["checked"], rec["failed"]), ([], []))

    def test_shipped_records_overridden_by_the_build(self):
        with tempfile.TemporaryDirectory() as build:
            build = pathlib.Path(build)
            shipped = build / "shipped.json"
            shipped.write_text(json.dumps([{"mutant": "a", "failed": ["x"]},
                                           {"mutant": "b", "failed": ["y"]}]))
            diagnosis.write_record(build, {"mutant": "a", "failed": ["z"]})
            records = diagnosis.load_records(build, shipped)
            self.assertEqual(records["a"]["failed"], ["z"])
            self.assertEqual(records["b"]["failed"], ["y"])

    def test_every_book_mutant_has_an_errata_entry(self):
        # <exercise>__book_<assumption>.cu reproduces an assumption of the
        # book's code; docs/errata.md describes it and names the mutant.
        books = sorted((ROOT / "tests" / "mutants").glob("*/*__book_*.cu"))
        self.assertTrue(books)
        for path in books:
            ref = f"{path.parent.name}/{path.stem}"
            self.assertIsNotNone(diagnosis.errata_entry(ref), ref)
            self.assertIn("the book", diagnosis.bug_line(path), path)

    def test_every_mutant_has_a_bug_line(self):
        for path in sorted((ROOT / "tests" / "mutants").glob("*/*.cu")):
            self.assertTrue(diagnosis.bug_line(path), path)


if __name__ == "__main__":
    unittest.main()
