"""The class report (grader/classreport.py) over fabricated results folders:
failure messages grouped by shape, shares, the page's numbers equal to the
gradebook's, hostile messages escaped, odd input, the missing-packages
message; and what grading now records for it (perf ratios, failures, files
equal to the reference, the batch's time)."""
import contextlib
import csv
import io
import json
import pathlib
import re
import tempfile
import unittest
from unittest import mock

from classgrading import Tables
from gradingtest import EXERCISES, ROOT, ctest_labels, outcome, points
from wbcore import course as wbex
from grader import classreport as gcr
from grader import points as gp
from grader import report as gr
from grader import run as grun
from grader import score as gs

GPU = ctest_labels("layout", "gpu", "setRowReadCol")
GPU_PAD = ctest_labels("layout", "gpu", "setRowReadColPad")
PERF = ctest_labels("layout", "perf")
HOST = ctest_labels("reduction", "host", "effectiveBandwidth")
PERF_TEST = "starter.layout.PerfLayout.PadIsFasterThanConflicts"
HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)> & "quoted"'
HAVE_PACKAGES = not gcr.missing_packages()


def wrong_value(size, seed):
    return (f"layout_test.cu:45: Failure\nValue of: out[{size - 1}]\n  Actual: {size * 3}\n"
            f"Expected: {size}\nsetRowReadCol at size {size} (seed {seed}) address 0x{seed:x}")


def perf_output(ratio, limit=1.5):
    return (f"setRowReadCol {ratio * 0.1:.4f} ms / setRowReadColPad 0.1000 ms = {ratio:.2f}x "
            f"(need >= {limit:.2f}x)\n")


def make_grade(name, correct=True, size=64, seed=1, ratio=2.0, host=True, message=None,
               reference=(), status="ok", reason="", untouched=()):
    outcomes = [
        outcome("starter.layout.Layout/GpuLayout.SingleBlock/square_setRowReadCol", GPU,
                gs.PASSED if correct else gs.FAILED,
                output="" if correct else (message or wrong_value(size, seed))),
        outcome("starter.layout.Layout/GpuLayout.DeclaresItsSharedTile/square_setRowReadCol",
                GPU, gs.PASSED),
        outcome("starter.layout.Layout/GpuLayout.SingleBlock/square_setRowReadColPad", GPU_PAD,
                gs.PASSED),
        outcome(PERF_TEST, PERF, gs.PASSED if ratio >= 1.5 else gs.FAILED,
                output=perf_output(ratio)),
        outcome("starter.reduction.HostEffectiveBandwidth.TimeIsInMilliseconds", HOST,
                gs.PASSED if host else gs.FAILED,
                output="" if host else "bandwidth_test.cpp:9: Failure\nexpected 12.5 GB/s, got 25"),
    ]
    results, ungraded, warnings = gs.score(points(), outcomes, all_exercises=EXERCISES)
    return gs.Grade(name, status, reason, results, seconds=3.5, tests_total=len(outcomes),
                    tests_reused=1, reference_files=list(reference),
                    untouched_files=list(untouched))


def write_class(out, grades, ungraded_names=()):
    """Each grade's outputs and the gradebook, as a batch writes them."""
    for grade in grades:
        gr.write_outputs(grade, out / grade.submission, "proportional")
    for name in ungraded_names:
        (out / name).mkdir(parents=True)
    entries = [(g.submission, None) for g in grades] + [(n, None) for n in ungraded_names]
    grun.write_gradebook(out, entries)
    return [name for name, _ in entries]


class MessageShapeTest(unittest.TestCase):
    def test_numbers_hex_and_seeds_become_placeholders(self):
        one = gcr.message_shape("out[63] Actual: 192 Expected: 64 (seed 17) at 0x11, 2.5e-3 ms")
        two = gcr.message_shape("out[1023] Actual: 3072 Expected: 1024 (seed=99) at 0xff, 7 ms")
        self.assertEqual(one, two)
        self.assertEqual(one, "out[<n>] Actual: <n> Expected: <n> (seed <seed>) at <hex>, "
                              "<n> ms")

    def test_a_full_stop_after_a_number_stays(self):
        self.assertEqual(gcr.message_shape("its checks score 0. The compiler said: x.cu(25): "
                                           "error"),
                         "its checks score <n>. The compiler said: x.cu(<n>): error")

    def test_digits_inside_names_stay(self):
        self.assertEqual(gcr.message_shape("sm_90 int2 reduceSmem2 v1.2: 3 wrong"),
                         "sm_90 int2 reduceSmem2 v1.2: <n> wrong")

    def test_long_messages_are_cut_and_whitespace_folded(self):
        shape = gcr.message_shape("a  b\n\tc " + "x" * 1000)
        self.assertTrue(shape.startswith("a b c "))
        self.assertLessEqual(len(shape), gcr.MESSAGE_CHARS)


class RecordedForTheReportTest(unittest.TestCase):
    def test_results_json_records_perf_failures_and_reference_files(self):
        doc = gr.results_document(make_grade("a", correct=False, ratio=1.2,
                                             reference=["layout/setRowReadCol"]), "proportional")
        self.assertEqual(gr.validate_results(doc), [])
        perf = doc["extra_data"]["perf"]
        self.assertEqual(len(perf), 1)
        self.assertEqual(perf[0]["test"], "PerfLayout.PadIsFasterThanConflicts")
        self.assertEqual((perf[0]["ratio"], perf[0]["need"], perf[0]["limit"]), (1.2, ">=", 1.5))
        self.assertEqual((perf[0]["section"], perf[0]["result"]), ("layout", gs.FAILED))
        failures = doc["extra_data"]["failures"]
        self.assertIn("layout/setRowReadCol: correctness", failures)
        self.assertIn("Actual: 192", "\n".join(failures["layout/setRowReadCol: correctness"][0]
                                               ["lines"]))
        self.assertEqual(doc["extra_data"]["reference_files"], ["layout/setRowReadCol"])

    def test_perf_test_without_its_line_records_no_ratio(self):
        t = outcome(PERF_TEST, PERF, gs.NOT_RUN, reason="no GPU here")
        record = gr.perf_measurement(t)
        self.assertIsNone(record["ratio"])
        self.assertEqual(record["result"], gs.NOT_RUN)
        for junk in ("a nan ms / b 1 ms = nanx (need >= 1x)",
                     "a 1 ms / b 0 ms = infx (need >= 1x)",
                     "a 1 ms / b 1 ms = 1e999x (need >= 1x)"):
            t.output = junk
            self.assertIsNone(gr.perf_measurement(t)["ratio"], junk)

    def test_reference_files_compares_bytes_with_the_solutions(self):
        e = EXERCISES[0]
        sub = type("S", (), {})()
        sub.contents = {e.key: e.solution_file().read_bytes(),
                        EXERCISES[1].key: b"// mine\n"}
        self.assertEqual(grun.reference_files(sub, EXERCISES), [e.key])

    def test_untouched_files_are_the_to_do_exercises_left_as_given(self):
        given, changed, absent = EXERCISES[0], EXERCISES[1], EXERCISES[2]
        worked = wbex.Exercise("layout", "setRowReadRow", worked_example=True)
        exercises = EXERCISES + [worked]
        sub = type("S", (), {})()
        sub.contents = {e.key: e.starter_file().read_bytes() for e in exercises
                        if e.key != absent.key}
        sub.contents[changed.key] += b"// my attempt\n"
        found = grun.untouched_files(sub, exercises)
        self.assertIn(given.key, found)
        self.assertIn(absent.key, found)
        self.assertNotIn(changed.key, found)
        self.assertNotIn(worked.key, found)   # complete as given: nothing to attempt
        doc = gr.results_document(make_grade("a", untouched=[given.key]), "proportional")
        self.assertEqual(doc["extra_data"]["untouched_files"], [given.key])

    def test_batch_record_appends_runs_and_survives_garbage(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = pathlib.Path(tmp)
            (out / gr.BATCH_RECORD).write_text("[not an object")
            self.assertEqual(gr.load_batch_record(out), {"runs": [], "folder": None})
            gr.record_batch_run(out, out, "2026-01-01T00:00:00", 12.34, 3, 2)
            gr.record_batch_run(out, out, "2026-01-01T01:00:00", 1.0, 0, 2, interrupted=True)
            record = gr.load_batch_record(out)
            self.assertEqual(record["folder"], str(out.resolve()))
            self.assertEqual([r["seconds"] for r in record["runs"]], [12.3, 1.0])
            self.assertTrue(record["runs"][1]["interrupted"])


class ClassDataTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.out = pathlib.Path(self._tmp.name)

    def tearDown(self):
        self._tmp.cleanup()

    def sample_class(self):
        # ann hands in the reference solutions of layout: her ratio is the
        # references'.
        layout = [e.key for e in wbex.exercises() if e.section == "layout"]
        grades = [make_grade("ann", reference=layout, ratio=3.0),
                  make_grade("ben", correct=False, size=64, seed=3, ratio=1.2),
                  make_grade("cat", correct=False, size=1000, seed=77, ratio=1.8, host=False),
                  make_grade("dan", correct=False, message="kernel crashed: " + HOSTILE,
                             status="timeout", reason="1 test(s) timed out, first X")]
        return write_class(self.out, grades, ungraded_names=["eve"])

    def test_numbers_equal_the_gradebook(self):
        names = self.sample_class()
        data = gcr.class_data(self.out, names)
        with open(self.out / gr.GRADEBOOK, newline="") as handle:
            book = {row["submission"]: row for row in csv.DictReader(handle)}
        self.assertEqual({r["submission"] for r in data["submissions"]}, set(book))
        for row in data["submissions"]:
            line = book[row["submission"]]
            self.assertEqual(f"{row['total']:g}", line["total"])
            self.assertEqual(f"{row['max']:g}", line["max"])
            self.assertEqual(row["status"], line["status"])
            for section, score in row["sections"].items():
                self.assertEqual(f"{score:g}", line[section])
        totals = sorted(float(line["total"]) for line in book.values())
        self.assertEqual(data["totals"]["min"], totals[0])
        self.assertEqual(data["totals"]["max"], totals[-1])
        self.assertEqual(data["not_graded"], ["eve"])
        self.assertEqual(data["tests"], {"total": 20, "reused": 4, "run": 16})
        self.assertEqual(data["time"]["grading_seconds"], 14.0)

    def test_the_page_shows_the_gradebook(self):
        names = self.sample_class()
        parser = Tables()
        parser.feed(gcr.class_html(gcr.class_data(self.out, names), {}))
        with open(self.out / gr.GRADEBOOK, newline="") as handle:
            book = list(csv.reader(handle))
        self.assertEqual(parser.tables["Every submission, as in the gradebook"], book)

    def test_the_page_shows_the_gradebooks_book_exercises_column(self):
        # setColReadRow answers the book's exercises 2 and 6; cy graded
        # none of them, so cy's cell is empty in both.
        def graded(name, score):
            check = gp.Check("layout", "setColReadRow", "correctness", 4, False)
            state = gs.STATE_PASSED if score == 4 else gs.STATE_FAILED
            return gs.Grade(name, "ok", "", [gs.CheckResult(check, "correctness", score, state, [])])
        names = write_class(self.out, [graded("amy", 4), graded("bo", 1), make_grade("cy")])
        data = gcr.class_data(self.out, names)
        parser = Tables()
        parser.feed(gcr.class_html(data, {}))
        with open(self.out / gr.GRADEBOOK, newline="") as handle:
            book = list(csv.reader(handle))
        self.assertIn("book_exercises", book[0])
        self.assertEqual(parser.tables["Every submission, as in the gradebook"], book)
        self.assertEqual({r["submission"]: r["book_exercises"] for r in data["submissions"]},
                         {"amy": 4, "bo": 1, "cy": None})

    def test_shares_and_failure_shapes(self):
        data = gcr.class_data(self.out, self.sample_class())
        checks = {c["name"]: c for ex in data["exercises"] for c in ex["checks"]}
        correctness = checks["layout/setRowReadCol: correctness"]
        self.assertEqual((correctness["earned"], correctness["missed"]), (1, 3))
        self.assertEqual(correctness["share"], 0.25)
        # ben and cat failed at other sizes and seeds: one shape, two
        # submissions; dan's crash is another.
        self.assertEqual(correctness["failure_shapes"], 2)
        top = correctness["failures"][0]
        self.assertEqual((top["submissions"], top["count"]), (2, 2))
        self.assertIn("Actual: <n>", top["shape"])
        self.assertNotIn("Failure", top["shape"])   # GoogleTest's "file:line: Failure" is dropped
        self.assertEqual(checks["reduction/effectiveBandwidth: host"]["earned"], 3)
        # shared_memory needs correctness: only ann earns it.
        self.assertEqual(checks["layout/setRowReadCol: uses shared memory"]["earned"], 1)
        exercise = next(e for e in data["exercises"] if e["owner"] == "layout/setRowReadCol")
        self.assertEqual((exercise["full_marks"], exercise["share"]), (1, 0.25))

    def test_a_submission_not_graded_as_a_whole_adds_no_message(self):
        # An empty submission's one reason is in every check's output; it is
        # listed among the problems, not as a failure shape of every check.
        empty = gs.Grade("fay", "empty", "the submission holds no exercise file",
                         gs.zero_results(points(), gs.STATE_NOT_GRADED,
                                         "NOT GRADED: the submission holds no exercise file"))
        names = write_class(self.out, [make_grade("ben", correct=False), empty])
        data = gcr.class_data(self.out, names)
        checks = {c["name"]: c for ex in data["exercises"] for c in ex["checks"]}
        correctness = checks["layout/setRowReadCol: correctness"]
        self.assertEqual(correctness["missed"], 2)
        self.assertEqual(correctness["missed_as_a_whole"], 1)
        self.assertEqual([f["submissions"] for f in correctness["failures"]], [1])
        self.assertNotIn("NOT GRADED", json.dumps([c["failures"] for c in checks.values()]))
        self.assertEqual([p["submission"] for p in data["problems"]], ["fay"])

    def test_failures_of_an_exercise_left_as_given_are_not_attempts(self):
        # gus left setRowReadCol as the starter gives it: its TODO fails,
        # which is no mistake to group; ben tried and got it wrong.
        names = write_class(self.out, [
            make_grade("ben", correct=False),
            make_grade("gus", correct=False, message="left 64 of 64 output element(s) "
                       "unwritten", untouched=["layout/setRowReadCol"])])
        data = gcr.class_data(self.out, names)
        checks = {c["name"]: c for ex in data["exercises"] for c in ex["checks"]}
        correctness = checks["layout/setRowReadCol: correctness"]
        self.assertEqual((correctness["missed"], correctness["not_attempted"]), (1, 1))
        self.assertEqual([f["submissions"] for f in correctness["failures"]], [1])
        self.assertNotIn("unwritten", correctness["failures"][0]["shape"])
        # A section-wide check is not attempted only where all the section's
        # TODO exercises are left as given.
        layout = [e.key for e in wbex.exercises() if e.section == "layout"
                  and not e.worked_example]
        doc = {"extra_data": {"untouched_files": layout[:-1]}}
        self.assertFalse(gcr._untouched(doc, "layout"))
        self.assertTrue(gcr._untouched({"extra_data": {"untouched_files": layout}}, "layout"))
        self.assertFalse(gcr._untouched({"extra_data": {}}, "layout/setRowReadCol"))

    def test_the_most_missed_checks_come_first_and_each_folds(self):
        names = self.sample_class()
        page = gcr.class_html(gcr.class_data(self.out, names), {})
        parser = Tables()
        parser.feed(page)
        (overview,) = [rows for caption, rows in parser.tables.items()
                       if "most often missed" in caption]
        missed = [int(row[1]) for row in overview[1:]]
        self.assertEqual(missed, sorted(missed, reverse=True))
        # ben, cat and dan missed correctness; cat alone missed the host check.
        self.assertIn(["layout/setRowReadCol: correctness", "3"], [r[:2] for r in overview])
        self.assertEqual(overview[-1][:2], ["reduction/effectiveBandwidth: host", "1"])
        failing = len(re.findall(r"<details>", page))
        self.assertEqual(failing, page.count("<summary>"))
        self.assertGreaterEqual(failing, 2)

    def test_perf_pairs_against_limit_and_reference(self):
        data = gcr.class_data(self.out, self.sample_class())
        (pair,) = data["perf"]
        self.assertEqual((pair["need"], pair["limit"]), (">=", 1.5))
        self.assertEqual(sorted(r["ratio"] for r in pair["ratios"]), [1.2, 1.8, 2.0])
        self.assertEqual(pair["reference"]["ratio"], 3.0)
        self.assertEqual(pair["reference"]["measured_on"], ["ann"])
        self.assertIn("median of 1 submission(s)", pair["reference"]["source"])

    def test_perf_without_a_gpu_is_one_sentence(self):
        grade = make_grade("ben")
        for r in grade.results:
            for t in r.tests:
                if "perf" in t.labels:
                    t.result, t.output, t.reason = gs.NOT_RUN, "", "no GPU here"
        names = write_class(self.out, [grade])
        data = gcr.class_data(self.out, names)
        self.assertEqual(data["perf"][0]["not_measured"], 1)
        page = gcr.class_html(data, {})
        self.assertIn("None of the 1 performance tests measured a ratio", page)
        self.assertNotIn("Measured ratios of the class", page)

    def test_no_reference_in_the_batch_says_so(self):
        names = write_class(self.out, [make_grade("ben", ratio=1.7)])
        (pair,) = gcr.class_data(self.out, names)["perf"]
        self.assertIsNone(pair["reference"]["ratio"])
        self.assertIn("not measured", pair["reference"]["source"])

    def test_problems_list_the_not_built_and_not_graded(self):
        data = gcr.class_data(self.out, self.sample_class())
        self.assertEqual([(p["submission"], p["status"]) for p in data["problems"]],
                         [("dan", "timeout"), ("eve", "not graded")])

    def test_hostile_messages_and_names_are_escaped(self):
        grades = [make_grade("<b>mallory</b>", correct=False, message=HOSTILE)]
        names = write_class(self.out, grades)
        page = gcr.class_html(gcr.class_data(self.out, names), {})
        self.assertNotIn("<script>", page)
        self.assertNotIn("<img", page)
        self.assertNotIn("<b>mallory", page)
        self.assertIn("&lt;script&gt;", page)
        self.assertIn("&lt;b&gt;mallory&lt;/b&gt;", page)

    def test_odd_input_gives_a_page(self):
        empty = self.out / "empty"
        empty.mkdir()
        data = gcr.class_data(empty, gcr.class_names(empty))
        self.assertEqual(data["submissions"], [])
        self.assertIn("No check failed", gcr.class_html(data, {}))
        # A folder with a results.json that is not one, and one with none.
        (self.out / "broken").mkdir()
        (self.out / "broken" / gr.RESULTS).write_text("{")
        (self.out / "nothing").mkdir()
        names = gcr.class_names(self.out)
        self.assertIn("broken", names)
        data = gcr.class_data(self.out, names)
        self.assertIn("broken", data["not_graded"])
        gcr.class_html(data, {})
        # A results.json from before the class report: no perf, failures
        # or reference files recorded.
        doc = gr.results_document(make_grade("old", correct=False), "proportional")
        for key in ("perf", "failures", "reference_files"):
            del doc["extra_data"][key]
        (self.out / "old").mkdir()
        (self.out / "old" / gr.RESULTS).write_text(json.dumps(doc))
        data = gcr.class_data(self.out, ["old"])
        checks = {c["name"]: c for ex in data["exercises"] for c in ex["checks"]}
        self.assertEqual(checks["layout/setRowReadCol: correctness"]["missed"], 1)
        self.assertEqual(data["perf"], [])


class MissingPackagesTest(unittest.TestCase):
    def test_the_message_says_what_to_install(self):
        real = gcr.importlib.util.find_spec
        with mock.patch.object(gcr.importlib.util, "find_spec",
                               lambda name: None if name == "copydetect" else real(name)):
            with self.assertRaises(gcr.MissingPackages) as caught:
                gcr.require_packages()
        self.assertIn("class report needs matplotlib and copydetect: "
                      "python3 -m pip install -r grader/requirements.txt", str(caught.exception))
        self.assertIn("copydetect not installed", str(caught.exception))
        self.assertTrue((ROOT / gcr.REQUIREMENTS).is_file())

    def test_a_batch_goes_on_without_them_and_report_alone_fails(self):
        from grader import grade as grade_cli
        with tempfile.TemporaryDirectory() as tmp, \
                mock.patch.object(gcr, "missing_packages", lambda names=None: ["matplotlib"]):
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                self.assertEqual(grade_cli.class_reports(pathlib.Path(tmp), None, None), 0)
                self.assertEqual(grade_cli.class_reports(pathlib.Path(tmp), None, None,
                                                         after_batch=False), 2)
            self.assertIn("class report skipped: class report needs matplotlib and copydetect: "
                          "python3 -m pip install -r grader/requirements.txt", err.getvalue())
            self.assertEqual(list(pathlib.Path(tmp).iterdir()), [])

    def test_a_report_bug_does_not_fail_the_batch(self):
        from grader import grade as grade_cli
        with mock.patch.object(gcr, "write_reports", side_effect=ValueError("boom")):
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                self.assertEqual(grade_cli.class_reports(pathlib.Path("/nonexistent"), None,
                                                         None), 0)
        self.assertIn("gradebook.csv and the results are complete", err.getvalue())


class CommandLineTest(unittest.TestCase):
    def test_report_options(self):
        from grader import grade as grade_cli
        args = grade_cli.parse_args(["--report", "out", "--similarity-threshold", "0.7"])
        self.assertEqual((args.report, args.similarity_threshold), (pathlib.Path("out"), 0.7))
        args = grade_cli.parse_args(["--report", "out", "--batch", "class"])
        self.assertEqual(args.batch, pathlib.Path("class"))
        for wrong in (["--report", "out", "alice"], ["--report", "out", "--slurm"],
                      ["--batch", "c", "--out", "o", "--similarity-threshold", "0"],
                      ["--batch", "c", "--out", "o", "--similarity-threshold", "1.5"]):
            with self.subTest(argv=wrong), contextlib.redirect_stderr(io.StringIO()):
                with self.assertRaises(SystemExit):
                    grade_cli.parse_args(wrong)

    def test_report_of_a_missing_folder_is_refused(self):
        from grader import grade as grade_cli
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(grade_cli.main(["--report", "/nonexistent/out"]), 2)
        self.assertIn("no such folder", err.getvalue())


@unittest.skipUnless(HAVE_PACKAGES, gcr.INSTALL_HINT)
class ChartsTest(unittest.TestCase):
    def test_svg_is_reproducible_titled_and_ids_unique(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = pathlib.Path(tmp)
            names = write_class(out, [make_grade("ann", ratio=3.0),
                                      make_grade("ben", correct=False, ratio=1.2)])
            data = gcr.class_data(out, names)
            first, second = gcr.charts(data), gcr.charts(data)
        self.assertEqual(first, second)
        self.assertEqual(set(first), {"totals", "sections", "exercises", "perf0"})
        page = gcr.class_html(data, first)
        self.assertEqual(page.count("<svg"), 4)
        for chart_id, (title, svg) in first.items():
            self.assertIn(f'<title id="{chart_id}-title">', svg)
            self.assertIn('role="img"', svg)
            self.assertNotIn("<dc:date>", svg)
        ids = re.findall(r'\bid="([^"]+)"', page)
        self.assertEqual(len(ids), len(set(ids)), "ids repeat across the page's pictures")
        for ref in re.findall(r'url\(#([^)]+)\)', page):
            self.assertIn(ref, ids)


if __name__ == "__main__":
    unittest.main()
