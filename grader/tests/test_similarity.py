"""The similarity report (grader/similarity.py) on made-up classes: the
planted copy is the one pair named, students who hand in the reference are
flagged once each rather than paired, given code does not count, and the
page escapes the students' text. Skipped without copydetect."""
import json
import pathlib
import shutil
import tempfile
import unittest

from wbcore import course as wbex
from grader import classreport as gcr
from grader import demo_class
from grader import similarity as gsim

HAVE_PACKAGES = not gcr.missing_packages()
REDUCE_SMEM = "reduction/reduceSmem"


def exercise_of(key):
    return next(e for e in wbex.exercises() if e.key == key)


@unittest.skipUnless(HAVE_PACKAGES, gcr.INSTALL_HINT)
class SimilarityTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = pathlib.Path(self._tmp.name)

    def tearDown(self):
        self._tmp.cleanup()

    def report(self, files, threshold=gsim.DEFAULT_THRESHOLD):
        return gsim.similarity_data(files, threshold=threshold)

    def test_demo_class_names_the_planted_pair_only(self):
        folder = self.tmp / "class"
        names = demo_class.make_class(folder, 6, True, [], seed=5)
        files, skipped = gsim.read_class(folder, self.tmp / "out", names)
        self.assertEqual(skipped, [])
        data = self.report(files)
        self.assertEqual([(p["exercise"], p["a"], p["b"]) for p in data["pairs"]],
                         [(REDUCE_SMEM, "copier", "student-01")])
        planted = data["pairs"][0]
        # The margin the default threshold sits in (see DEFAULT_THRESHOLD).
        self.assertGreater(planted["similarity"], 0.8)
        closest = max((p["similarity"] for p in data["closest_below_threshold"]), default=0)
        self.assertLess(closest, 0.35)
        self.assertTrue(planted["spans_a"] and planted["spans_b"])

    def test_renamed_and_reordered_copy_still_matches(self):
        own = demo_class.PLANTED
        files = {"orig": {REDUCE_SMEM: demo_class.own_kernel(own)},
                 "copy": {REDUCE_SMEM: demo_class.planted_copy(own)}}
        self.assertNotEqual(files["orig"][REDUCE_SMEM], files["copy"][REDUCE_SMEM])
        (pair,) = self.report(files)["pairs"]
        self.assertGreaterEqual(min(pair["similarity_a"], pair["similarity_b"]), 0.8)

    def test_distinct_own_kernels_stay_below_the_threshold(self):
        files = {k["name"]: {REDUCE_SMEM: demo_class.own_kernel(k)}
                 for k in demo_class.OWN_KERNELS}
        data = self.report(files)
        self.assertEqual(data["pairs"], [])

    def test_reference_is_flagged_once_per_file_not_paired(self):
        e = exercise_of(REDUCE_SMEM)
        reference = e.solution_file().read_text()
        files = {f"s{i}": {REDUCE_SMEM: reference} for i in range(4)}
        data = self.report(files)
        self.assertEqual(data["pairs"], [])
        self.assertEqual([(f["submission"], f["matches"]) for f in data["reference_matches"]],
                         [(f"s{i}", "the reference solution") for i in range(4)])

    def test_reference_padded_with_unused_code_is_flagged(self):
        # The reference handed in with as much code again that never runs
        # (nvcc drops it): half the file is the reference, but the whole of
        # the reference is in the file.
        reference = exercise_of(REDUCE_SMEM).solution_file().read_text()
        padding = "".join(
            f"\n__device__ int unusedHelper{i}(int x, int y) {{\n"
            f"  int acc{i} = x * {i + 3} + y;\n"
            f"  for (int k = 0; k < {i + 2}; ++k) acc{i} ^= k << {i % 5};\n"
            f"  return acc{i} - y / {i + 1};\n}}\n" for i in range(12))
        data = self.report({"s": {REDUCE_SMEM: reference + padding}})
        self.assertEqual([(f["submission"], f["matches"]) for f in data["reference_matches"]],
                         [("s", "the reference solution")])

    def test_no_file_holds_the_report_up(self):
        # pygments' CUDA lexer is quadratic in a run of whitespace after a
        # function's parameters (a million newlines took hours) and in a
        # #define line of many /**/ (60 KB: 19 s): the lexer gets the code
        # without comments, runs cut; code past COMPARED_MAX_BYTES is listed.
        import time
        reference = exercise_of(REDUCE_SMEM).solution_file().read_text()
        held = reference + "void wbUnusedHelper(int x)" + "\n" * 60000 + ";\n"
        macro = reference + "#define WB_X " + "/**/" * 15000 + "\n"
        huge = reference + "int wbPad = 0" + " + 0" * gsim.COMPARED_MAX_BYTES + ";\n"
        started = time.monotonic()
        data = self.report({"held": {REDUCE_SMEM: held}, "huge": {REDUCE_SMEM: huge},
                            "macro": {REDUCE_SMEM: macro}})
        self.assertLess(time.monotonic() - started, 8)
        self.assertEqual([f["submission"] for f in data["reference_matches"]],
                         ["held", "macro"])
        self.assertEqual([s["submission"] for s in data["skipped"]], ["huge"])
        self.assertIn("read it yourself", data["skipped"][0]["reason"])

    def test_comments_cannot_push_a_copy_out_of_the_report(self):
        own = demo_class.PLANTED
        padding = "/* " + "padding " * gsim.COMPARED_MAX_BYTES + "*/\n"
        files = {"orig": {REDUCE_SMEM: demo_class.own_kernel(own)},
                 "copy": {REDUCE_SMEM: padding + "\n" * 5000 + demo_class.planted_copy(own)}}
        data = self.report(files)
        self.assertEqual(data["skipped"], [])
        (pair,) = data["pairs"]
        # The spans point into the text shown (runs of whitespace cut), at
        # the copied code, not into the padding.
        text = pair["text_a"] if pair["a"] == "copy" else pair["text_b"]
        spans = pair["spans_a"] if pair["a"] == "copy" else pair["spans_b"]
        self.assertTrue(spans)
        self.assertTrue(all(start > len(padding) for start, _ in spans))
        self.assertNotIn("\n" * (gsim.WHITESPACE_RUN_MAX + 1), text)

    def test_lexable_keeps_literals_and_maps_back(self):
        text = 'int a = 1; // one\nconst char* s = "//not"; /* two\n */ int b;'
        code, where = gsim.lexable(text)
        self.assertEqual(code, 'int a = 1;  \nconst char* s = "//not";   int b;')
        # Each character lexed is the one it maps to, or the space a
        # comment became, mapped to the comment's first character.
        self.assertTrue(all(c == text[w] or (c == " " and text[w] == "/")
                            for c, w in zip(code, where)))
        self.assertEqual(len(where), len(code))

    def test_own_kernels_are_not_flagged_as_the_reference(self):
        files = {k["name"]: {REDUCE_SMEM: demo_class.own_kernel(k)}
                 for k in demo_class.OWN_KERNELS}
        self.assertEqual(self.report(files)["reference_matches"], [])

    def test_worked_example_copied_into_an_exercise_is_flagged(self):
        worked = exercise_of("reduction/reduceGmem").starter_file().read_text()
        copied = worked.replace("reduceGmem(", "reduceSmem(")
        data = self.report({"s": {REDUCE_SMEM: copied}})
        self.assertEqual([f["matches"] for f in data["reference_matches"]],
                         ["the worked example reduction/reduceGmem"])

    def test_given_code_does_not_count(self):
        starter = exercise_of(REDUCE_SMEM).starter_file().read_text()
        # Both hand in the starter with one small line of their own each:
        # all they share is given.
        files = {"a": {REDUCE_SMEM: starter.replace("(void)n;", "(void)n; int a = 1; (void)a;")},
                 "b": {REDUCE_SMEM: starter.replace("(void)n;", "(void)n; int b = 2; (void)b;")},
                 "c": {REDUCE_SMEM: starter}}
        data = self.report(files, threshold=0.05)
        self.assertEqual(data["pairs"], [])
        compared = next(x for x in data["exercises"] if x["exercise"] == REDUCE_SMEM)
        self.assertEqual(compared["files"], 2)   # c's is the starter: nothing handed in

    def test_page_escapes_student_text_and_says_it_is_evidence(self):
        own = demo_class.OWN_KERNELS[0]
        hostile = demo_class.own_kernel(own).replace(
            "namespace wb::reduction {", "namespace wb::reduction {\n// </pre><script>x()</script>")
        files = {"<i>a</i>": {REDUCE_SMEM: hostile},
                 "b": {REDUCE_SMEM: demo_class.planted_copy(own)}}
        data = self.report(files)
        self.assertEqual(len(data["pairs"]), 1)
        page = gsim.similarity_html(data)
        self.assertNotIn("<script>", page)
        self.assertNotIn("<i>a</i>", page)
        self.assertIn("&lt;script&gt;", page)
        body = page[page.index("<body>"):]
        self.assertIn("never a score change", body[:600])
        json.dumps(data)

    def test_marked_escapes_and_marks_spans(self):
        self.assertEqual(gsim.marked("a<b>c&d", [[1, 4], [3, 5]]),
                         "a<mark>&lt;b&gt;</mark><mark>c</mark>&amp;d")

    def test_unknown_folder_and_unreadable_submission(self):
        files, skipped = gsim.read_class(None, self.tmp, ["x"])
        self.assertEqual(files, {})
        self.assertIn("--batch FOLDER", skipped[0]["reason"])
        folder = self.tmp / "class"
        folder.mkdir()
        (folder / "bad.zip").write_bytes(b"not a zip")
        (folder / "empty").mkdir()
        files, skipped = gsim.read_class(folder, self.tmp / "out", ["bad", "empty", "gone"])
        self.assertEqual(files, {"empty": {}})
        self.assertEqual([s["submission"] for s in skipped], ["bad", "gone"])
        data = gsim.similarity_data(files, skipped)
        self.assertEqual(data["pairs"], [])
        gsim.similarity_html(data)

    def test_write_reports_writes_all_four_files(self):
        folder = self.tmp / "class"
        demo_class.copy_tree("starter", folder / "only")
        out = self.tmp / "out"
        out.mkdir()
        shutil.copytree(folder / "only", out / "only-copy")   # a stray folder, not graded
        gcr.write_reports(out, folder, log=lambda *_: None)
        for name in (gcr.REPORT_HTML, gcr.REPORT_JSON, gsim.SIMILARITY_HTML,
                     gsim.SIMILARITY_JSON):
            self.assertTrue((out / name).is_file(), name)
        data = json.loads((out / gcr.REPORT_JSON).read_text())
        self.assertEqual(data["not_graded"], ["only"])


if __name__ == "__main__":
    unittest.main()
