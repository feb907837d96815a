#!/usr/bin/env python3
"""Host test of book-5.N, the name of the exercise that answers the book's
end-of-chapter exercise N (workbook.toml's book_exercises): it resolves in
wbcore and at ./workbook's commands, a number the workbook does not answer
and a malformed name are refused with the numbers it does answer (in English
and Chinese), and the progress table shows the numbers. Every one of the 15
is answered now; the refusal of an unanswered number is tested on a list
with one mapping taken out (an edition of the workbook that leaves an
exercise out).
"""
import contextlib
import io
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

# The student loop in English unless a test asks for Chinese, whatever
# language a run of ./workbook --lang remembered in this checkout.
os.environ["WB_LANG"] = "en"

ROOT = pathlib.Path(__file__).resolve().parents[2]
from student import i18n  # noqa: E402
from student import progress  # noqa: E402
from wbcore import course  # noqa: E402

WORKBOOK = ROOT / "workbook"
MAPPED = "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15"
WITHOUT_8 = "1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15"


def without_exercise_8():
    """course.book_exercise_map patched to answer every number but 8."""
    real = course.book_exercise_map

    def mapped(root=course.ROOT):
        return {n: e for n, e in real(root).items() if n != 8}
    return mock.patch.object(course, "book_exercise_map", mapped)


class Resolution(unittest.TestCase):
    def test_numbers_name_their_exercise(self):
        self.assertEqual(course.find_exercise("book-5.15").key, "shuffle/reduceShflDown")
        self.assertEqual(course.find_exercise("book-5.2").key, "layout/setColReadRow")
        self.assertEqual(course.find_exercise("book-5.6").key, "layout/setColReadRow")
        self.assertEqual(course.find_exercise("book-5.7").key, "layout/setColReadRowPad")
        self.assertEqual(course.find_exercise("book-5.13").key, "shuffle/shflXorFirstToLast")
        # Host exercises answer book exercises too.
        self.assertEqual(course.find_exercise("book-5.1").key, "layout/bankOfElement")
        self.assertEqual(course.find_exercise("book-5.5").key, "layout/columnReadWavefronts")
        self.assertEqual(course.find_exercise("book-5.10").key, "shuffle/shflUpSourceLane")
        self.assertEqual(course.find_exercise("book-5.8").key, "reduction/reduceSmemAnyBlock")

    def test_every_listed_number_resolves_to_its_exercise(self):
        for e in course.exercises():
            for n in e.book_exercises:
                self.assertEqual(course.find_exercise(f"book-5.{n}"), e)

    def test_every_number_is_answered(self):
        self.assertEqual(sorted(course.book_exercise_map()),
                         list(range(1, course.BOOK_EXERCISE_COUNT + 1)))

    def test_a_number_not_answered_yet_names_the_mapped_ones(self):
        with without_exercise_8(), self.assertRaises(course.BookExerciseError) as caught:
            course.find_exercise("book-5.8")
        self.assertEqual(caught.exception.number, 8)
        self.assertEqual(str(caught.exception),
                         f"book-5.8 is not in the workbook yet; mapped: {WITHOUT_8}")

    def test_a_malformed_name_says_how_to_write_one(self):
        for name in ("book-5.x", "book-5.", "book-5.16", "book-5.0", "book-6.2", "book-5.1.2"):
            with self.subTest(name=name):
                with self.assertRaises(course.BookExerciseError) as caught:
                    course.find_exercise(name)
                self.assertIsNone(caught.exception.number)
                self.assertEqual(str(caught.exception),
                                 f"'{name}' names no end-of-chapter exercise: write book-5.N "
                                 f"with N from 1 to 15; mapped: {MAPPED}")

    def test_exercise_names_still_resolve(self):
        self.assertEqual(course.find_exercise("reduceShflDown").key, "shuffle/reduceShflDown")
        with self.assertRaises(LookupError):
            course.find_exercise("book")


class Commands(unittest.TestCase):
    """./workbook's commands take book-5.N (hint and reset resolve the name
    before building anything; check and watch resolve it the same way)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.env = dict(os.environ, WB_HINT_STATE=str(pathlib.Path(self.tmp.name) / "hints.json"),
                        WB_LANG_STATE=str(pathlib.Path(self.tmp.name) / "lang"))

    def tearDown(self):
        self.tmp.cleanup()

    def workbook(self, *args, lang="en", rc=0):
        run = subprocess.run([sys.executable, str(WORKBOOK), *args], cwd=ROOT,
                             env=dict(self.env, WB_LANG=lang), capture_output=True, text=True,
                             timeout=60)
        self.assertEqual(run.returncode, rc, run.stdout + run.stderr)
        return run.stdout + run.stderr

    def test_hint_takes_a_book_number(self):
        out = self.workbook("hint", "book-5.15")
        self.assertIn("shuffle/reduceShflDown", out)
        self.assertIn(course.find_exercise("reduceShflDown").hints[0], out)

    def test_refusals_in_english_and_chinese(self):
        self.assertIn("write book-5.N with N from 1 to 15",
                      self.workbook("reset", "book-5.x", rc=2))
        self.assertIn("请写 book-5.N，N 为 1 到 15",
                      self.workbook("reset", "book-5.x", lang="zh", rc=2))

    def test_unanswered_number_in_english_and_chinese(self):
        for lang, said in (("en", f"book-5.8 is not in the workbook yet; mapped: {WITHOUT_8}"),
                           ("zh", f"book-5.8 还没有收入练习册；已收入的章末习题: {WITHOUT_8}")):
            i18n.set_lang(lang)
            try:
                with without_exercise_8(), self.assertRaises(LookupError) as caught:
                    progress.find_exercise("book-5.8")
            finally:
                i18n.set_lang("en")
            self.assertEqual(str(caught.exception), said)


class ProgressTable(unittest.TestCase):
    def table(self, lang):
        i18n.set_lang(lang)
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                progress.print_progress([], {}, True, "")
        finally:
            i18n.set_lang("en")
        # A row: "  [ ] NAME" and its notes; a Chinese note follows NAME
        # without a space.
        rows = (re.match(r"  \[.\] (\w+)", line) for line in out.getvalue().splitlines())
        return {m.group(1): m.string for m in rows if m}

    def test_rows_show_the_book_exercises(self):
        rows = self.table("en")
        self.assertIn("reduceShflDown (book exercise 5.15)", rows["reduceShflDown"])
        self.assertIn("setColReadRow (book exercise 5.2, 5.6)", rows["setColReadRow"])
        self.assertIn("setColReadRowPad (book exercise 5.4, 5.7)", rows["setColReadRowPad"])
        self.assertIn("shflUpSourceLane (book exercise 5.10)", rows["shflUpSourceLane"])
        self.assertIn("reduceSmemAnyBlock (book exercise 5.8)", rows["reduceSmemAnyBlock"])
        self.assertNotIn("book exercise", rows["setRowReadRow"])
        rows = self.table("zh")
        self.assertIn("reduceShflDown（书中章末习题 5.15）", rows["reduceShflDown"])


if __name__ == "__main__":
    unittest.main()
