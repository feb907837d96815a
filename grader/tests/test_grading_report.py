"""What grading writes: results.json (schema), JUnit, summary.txt,
gradebook.csv, and atomic writes."""
import csv
import io
import json
import os
import pathlib
import tempfile
import unittest
import xml.etree.ElementTree as ET
from unittest import mock

from gradingtest import EXERCISES, ctest_labels, outcome, points
from grader import points as gp
from grader import report as gr
from grader import score as gs

GPU = ctest_labels("layout", "gpu", "setRowReadCol")
GPU_PAD = ctest_labels("layout", "gpu", "setRowReadColPad")


def sample_grade(gpu_missing=""):
    outcomes = [
        outcome("starter.layout.Layout/GpuLayout.SingleBlock/square_setRowReadCol", GPU, gs.PASSED),
        outcome("starter.layout.Layout/GpuLayout.DeclaresItsSharedTile/square_setRowReadCol", GPU,
                gs.FAILED, output="layout_test.cu:45: Failure\nExpected equality of these values:\n"
                "  attr.sharedSizeBytes\n    Which is: 0\n"
                "square_setRowReadCol must declare a tile"),
        outcome("starter.layout.Layout/GpuLayout.SingleBlock/square_setRowReadColPad", GPU_PAD,
                gs.FAILED, reason="timed out after 120 s: the kernel may never return"),
        outcome("starter.layout.PerfLayout.A", ctest_labels("layout", "perf"), gs.NOT_RUN,
                reason="no GPU here: none"),
        outcome("starter.reduction.HostEffectiveBandwidth.TimeIsInMilliseconds",
                ctest_labels("reduction", "host", "effectiveBandwidth"), gs.PASSED),
    ]
    problems = {"reduction/reduceSmem": gs.Problem(
        "compile error", "COMPILE ERROR: starter/reduction/reduceSmem.cu does not compile\n"
        "starter/reduction/reduceSmem.cu(3): error: identifier \"x\" is undefined")}
    results, ungraded, warnings = gs.score(points(), outcomes, problems, all_exercises=EXERCISES)
    return gs.Grade("alice", "compile-errors", "1 exercise(s) did not compile or link: "
                    "reduction/reduceSmem", results, ["ignored ../x: a path outside"],
                    gpu_missing, 12.5, ungraded, warnings)


class ResultsJsonTest(unittest.TestCase):
    def test_document_is_valid_and_adds_up(self):
        doc = gr.results_document(sample_grade(), "proportional")
        self.assertEqual(gr.validate_results(doc), [])
        self.assertEqual(doc["score"], 4 + 5)
        self.assertEqual(doc["extra_data"]["max_score"], points().max_score)
        self.assertEqual(doc["extra_data"]["status"], "compile-errors")
        json.dumps(doc)  # serialisable
        names = [t["name"] for t in doc["tests"]]
        self.assertIn("layout/setRowReadCol: correctness", names)
        self.assertIn("layout: performance", names)
        hidden = {t["name"]: t["visibility"] for t in doc["tests"]}
        self.assertEqual(hidden["layout: performance"], "after_due_date")
        self.assertEqual(hidden["layout/setRowReadCol: correctness"], "visible")
        compile_error = next(t for t in doc["tests"]
                             if t["name"].startswith("reduction/reduceSmem"))
        self.assertIn("error: identifier", compile_error["output"])

    def test_schema_violations_are_found(self):
        good = gr.results_document(sample_grade(), "proportional")
        cases = {
            "score must be a number": lambda d: d.update(score="9"),
            "visibility": lambda d: d["tests"][0].update(visibility="secret"),
            "exceeds max_score": lambda d: d["tests"][0].update(score=99),
            "not unique": lambda d: d["tests"][1].update(name=d["tests"][0]["name"]),
            "non-empty string": lambda d: d["tests"][0].update(name=""),
            "output must be a string": lambda d: d["tests"][0].update(output=None),
            "not the sum": lambda d: d.update(score=d["score"] + 1),
            "tests must be a list": lambda d: d.update(tests={}),
            ".max_score must be a number": lambda d: d["tests"][0].update(max_score=True),
            "extra_data.status": lambda d: d["extra_data"].update(status="fine"),
        }
        for expected, spoil in cases.items():
            with self.subTest(expected=expected):
                doc = json.loads(json.dumps(good))
                spoil(doc)
                problems = gr.validate_results(doc)
                self.assertTrue(any(expected in p for p in problems), problems)


class JunitAndSummaryTest(unittest.TestCase):
    def test_junit_parses_and_counts(self):
        root = ET.fromstring(gr.junit_document(sample_grade("none"), "proportional"))
        cases = list(root.iter("testcase"))
        self.assertEqual(len(cases), len(points().checks))
        self.assertTrue(any(c.find("skipped") is not None for c in cases))
        self.assertTrue(any(c.find("failure") is not None for c in cases))

    def test_summary_explains_failures(self):
        text = gr.summary_text(sample_grade("nvidia-smi is not installed"))
        self.assertIn("Submission alice: ", text)
        self.assertIn("The exercise must use shared memory.", text)
        self.assertIn("must declare a tile", text)
        self.assertIn("timed out after 120 s", text)
        self.assertIn("error: identifier", text)
        self.assertIn("NOT RUN", text)
        self.assertIn("nvidia-smi is not installed", text)
        self.assertIn("ignored ../x", text)
        self.assertIn("hidden checks", text)
        self.assertNotIn("performance", text, "hidden checks stay out of summary.txt")

    def test_summary_and_results_say_how_many_tests_were_reused(self):
        grade = sample_grade()
        self.assertNotIn("reused", gr.summary_text(grade))
        grade.tests_total, grade.tests_reused = 5, 3
        self.assertIn("3 of 5 tests reused from earlier identical runs", gr.summary_text(grade))
        doc = gr.results_document(grade, "proportional")
        self.assertEqual(gr.validate_results(doc), [])
        self.assertEqual((doc["extra_data"]["tests_total"], doc["extra_data"]["tests_reused"]),
                         (5, 3))


class FilesTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = pathlib.Path(self._tmp.name)

    def tearDown(self):
        self._tmp.cleanup()

    def test_atomic_write_replaces_and_leaves_no_temp(self):
        path = self.tmp / "out" / "results.json"
        gr.atomic_write(path, "old")
        gr.atomic_write(path, "new")
        self.assertEqual(path.read_text(), "new")
        self.assertEqual(os.listdir(path.parent), ["results.json"])

    def test_atomic_write_keeps_bytes_as_they_are(self):
        # A student's exercise file is staged byte for byte (CRLF, not UTF-8).
        path = self.tmp / "staged" / "setRowReadCol.cu"
        data = b"int x;\r\n// \xff\xfe\n"
        gr.atomic_write(path, data)
        self.assertEqual(path.read_bytes(), data)
        self.assertEqual(os.listdir(path.parent), ["setRowReadCol.cu"])

    def test_failed_write_keeps_the_old_file(self):
        path = self.tmp / "results.json"
        gr.atomic_write(path, "old")
        with mock.patch("os.replace", side_effect=OSError("disk full")):
            with self.assertRaises(OSError):
                gr.atomic_write(path, "new")
        self.assertEqual(path.read_text(), "old")
        self.assertEqual(os.listdir(self.tmp), ["results.json"])

    def test_write_outputs_and_load_results(self):
        gr.write_outputs(sample_grade(), self.tmp / "alice", "proportional")
        self.assertEqual(sorted(os.listdir(self.tmp / "alice")),
                         ["junit.xml", "results.json", "summary.txt"])
        doc = gr.load_results(self.tmp / "alice" / "results.json")
        self.assertEqual(doc["extra_data"]["submission"], "alice")
        (self.tmp / "alice" / "results.json").write_text('{"score": ')
        self.assertIsNone(gr.load_results(self.tmp / "alice" / "results.json"))

    def test_gradebook(self):
        doc = gr.results_document(sample_grade(), "proportional")
        rows = list(csv.reader(io.StringIO(gr.gradebook_text([("alice, the 1st", doc)],
                                                             ["layout", "reduction"]))))
        self.assertEqual(rows[0], ["submission", "total", "max", "layout", "reduction", "status",
                                   "reason"])
        self.assertEqual(rows[1][:5], ["alice, the 1st", "9", f"{points().max_score:g}", "4", "5"])
        self.assertEqual(rows[1][5], "compile-errors")

    def test_gradebook_cells_are_never_formulas(self):
        # A spreadsheet runs a cell that starts with = + - @ as a formula;
        # a submission's name is the student's text.
        doc = gr.results_document(sample_grade(), "proportional")
        doc["extra_data"]["reason"] = "=cmd|' /C calc'!A0"
        for name in ('=HYPERLINK("http://x","alice 100")', "+1+2", "-1", "@SUM(A1)", "\tx"):
            rows = list(csv.reader(io.StringIO(gr.gradebook_text([(name, doc)], ["layout"]))))
            self.assertEqual(rows[1][0], "'" + name)
            self.assertEqual(rows[1][-1], "'=cmd|' /C calc'!A0")
        rows = list(csv.reader(io.StringIO(gr.gradebook_text([("alice", doc)], ["layout"]))))
        self.assertEqual(rows[1][0], "alice")



class BookExercisesTest(unittest.TestCase):
    """The book's end-of-chapter exercises as one set: the exercises that
    list them in workbook.toml (setColReadRow answers 2 and 6,
    setColReadRowPad 4 and 7), not the others, in results.json, the
    gradebook and summary.txt."""

    @staticmethod
    def grade():
        def result(exercise, kind, points, score):
            check = gp.Check("layout", exercise, kind, points, False)
            return gs.CheckResult(check, kind, score, gs.STATE_PASSED if score == points
                                  else gs.STATE_FAILED, [])
        results = [result("setColReadRow", "correctness", 4, 4),
                   result("setColReadRow", "method", 1, 0),
                   result("setColReadRowPad", "correctness", 4, 2),
                   result("setRowReadCol", "correctness", 4, 4),
                   result(None, "performance", 3, 3)]
        return gs.Grade("bob", "ok", "", results)

    def test_the_set_counts_only_the_exercises_that_answer_the_book(self):
        self.assertEqual(self.grade().book_exercises(), (6.0, 9.0, [2, 4, 6, 7]))
        doc = gr.results_document(self.grade(), "proportional")
        self.assertEqual(doc["extra_data"]["book_exercises"],
                         {"score": 6, "max_score": 9, "numbers": ["5.2", "5.4", "5.6", "5.7"]})
        self.assertEqual(doc["score"], 13)  # the set's points are not added to the total
        self.assertEqual(gr.validate_results(doc), [])

    def test_gradebook_and_summary_show_the_set(self):
        doc = gr.results_document(self.grade(), "proportional")
        rows = list(csv.reader(io.StringIO(gr.gradebook_text([("bob", doc)], ["layout"]))))
        self.assertEqual(rows[0], ["submission", "total", "max", "layout", "book_exercises",
                                   "status", "reason"])
        self.assertEqual(rows[1][3:5], ["13", "6"])
        self.assertIn("The book's end-of-chapter exercises (5.2, 5.4, 5.6, 5.7): 6 of 9",
                      gr.summary_text(self.grade()))

    def test_no_column_where_no_book_exercise_was_graded(self):
        doc = gr.results_document(sample_grade(), "proportional")
        self.assertEqual(doc["extra_data"]["book_exercises"]["max_score"], 0)
        rows = list(csv.reader(io.StringIO(gr.gradebook_text([("alice", doc)], ["layout"]))))
        self.assertNotIn("book_exercises", rows[0])
        self.assertNotIn("end-of-chapter", gr.summary_text(sample_grade()))


if __name__ == "__main__":
    unittest.main()
