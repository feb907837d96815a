#!/usr/bin/env python3
"""`./workbook reset NAME` restores the pristine starter whatever the
student's git history, on temporary copies of the workbook's tools and
starter:

  pushed     a course repository whose origin holds the student's committed
             and pushed work (origin/HEAD is the student's code, not the
             pristine starter);
  no remote  a repository with the student's work committed and no remote;
  no git     a plain copy without .git.

In each the student's edited file comes back as the pristine text of
student/pristine_starter.json, and the student's version is kept as .bak.
Also: which exercises the progress run counts as not attempted (their file
as shipped), and the CTest exclusion it starts the others with.
CTest: workbook.reset_restores_pristine (label host).
"""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

# The student loop in English, whatever language a run of ./workbook --lang
# remembered in this checkout.
os.environ["WB_LANG"] = "en"

ROOT = pathlib.Path(__file__).resolve().parents[2]
from wbcore import course as wbex  # noqa: E402
from student import pristine  # noqa: E402

# What ./workbook reset reads: the front door, its Python, the list of
# exercises, the starter and the presets (which name the build folder).
COPIED = ("workbook", "wbcore", "student", "workbook.toml", "starter", "CMakePresets.json")
EXERCISE = "setRowReadCol"
STUDENT_CODE = b"// the student's own setRowReadCol, committed and pushed\n"
GIT_IDENTITY = ["-c", "user.name=Student", "-c", "user.email=student@example.com"]


def git(folder, *args):
    subprocess.run(["git", *GIT_IDENTITY, *args], cwd=folder, check=True,
                   capture_output=True)


class ResetTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = pathlib.Path(self._tmp.name)
        self.exercise = wbex.find_exercise(EXERCISE)
        self.pristine = pristine.pristine_text(self.exercise)

    def tearDown(self):
        self._tmp.cleanup()

    def copy_workbook(self, name):
        """A copy of the workbook's tools and its pristine starter."""
        copy = self.tmp / name
        copy.mkdir()
        for item in COPIED:
            source = ROOT / item
            if source.is_dir():
                shutil.copytree(source, copy / item,
                                ignore=shutil.ignore_patterns("__pycache__", "*.bak"))
            else:
                shutil.copy2(source, copy / item)
        # The starter as shipped, whatever this checkout's starter/ holds.
        for relative, data in pristine.load_record(ROOT).items():
            (copy / "starter" / relative).write_bytes(data)
        return copy

    def exercise_file(self, copy):
        return self.exercise.starter_file(copy)

    def student_commits_work(self, repo):
        self.exercise_file(repo).write_bytes(STUDENT_CODE)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "my work")

    def reset(self, copy):
        # The student then edits further and asks for the pristine file back.
        self.exercise_file(copy).write_bytes(STUDENT_CODE + b"// and more edits\n")
        result = subprocess.run([sys.executable, str(copy / "workbook"), "reset", EXERCISE,
                                 "--yes"], cwd=copy, capture_output=True, text=True,
                                stdin=subprocess.DEVNULL)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(self.exercise_file(copy).read_bytes(), self.pristine)
        backup = self.exercise_file(copy).with_suffix(".cu.bak")
        self.assertEqual(backup.read_bytes(), STUDENT_CODE + b"// and more edits\n")
        return result

    @unittest.skipUnless(shutil.which("git"), "needs git")
    def test_pushed_work_origin_holds_the_students_code(self):
        upstream = self.copy_workbook("course")
        git(upstream, "init", "-q", "-b", "main")
        git(upstream, "add", "-A")
        git(upstream, "commit", "-q", "-m", "the workbook as handed out")
        origin = self.tmp / "origin.git"
        git(self.tmp, "clone", "-q", "--bare", str(upstream), str(origin))
        student = self.tmp / "student"
        git(self.tmp, "clone", "-q", str(origin), str(student))
        self.student_commits_work(student)
        git(student, "push", "-q", "origin", "HEAD")
        shown = subprocess.run(["git", "show", f"origin/HEAD:starter/layout/{EXERCISE}.cu"],
                               cwd=student, capture_output=True, check=True).stdout
        self.assertEqual(shown, STUDENT_CODE, "origin/HEAD should hold the student's code")
        self.reset(student)

    @unittest.skipUnless(shutil.which("git"), "needs git")
    def test_no_remote_head_holds_the_students_code(self):
        repo = self.copy_workbook("repo")
        git(repo, "init", "-q", "-b", "main")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "the workbook")
        self.student_commits_work(repo)
        self.reset(repo)

    def test_no_git_at_all(self):
        copy = self.copy_workbook("plain")
        self.assertFalse((copy / ".git").exists())
        self.reset(copy)

    def test_untouched_exercises_are_the_unedited_ones(self):
        copy = self.copy_workbook("untouched")
        all_exercises = [e for e in wbex.exercises(copy) if not e.worked_example]
        self.assertEqual([e.key for e in pristine.untouched_exercises(copy)],
                         [e.key for e in all_exercises])
        self.exercise_file(copy).write_bytes(STUDENT_CODE)
        (copy / "starter" / "reduction" / "reduceSmem.cu").write_bytes(
            pristine.load_record(copy)["reduction/reduceSmem.cu"] + b"\n")
        left = {e.key for e in pristine.untouched_exercises(copy)}
        self.assertNotIn(self.exercise.key, left)
        self.assertNotIn("reduction/reduceSmem", left, "one byte added is an attempt")
        self.assertEqual(len(left), len(all_exercises) - 2)
        record = copy / pristine.RECORD
        record.write_text(record.read_text().replace("TODO(book", "DONE(book", 1))
        self.assertEqual(pristine.untouched_exercises(copy), [],
                         "an unreadable record must leave every exercise to its tests")

    def test_the_progress_run_excludes_untouched_exercises_and_perf(self):
        from student import progress
        calls = []
        real_run, real_build = progress.subprocess.run, progress.BUILD
        progress.subprocess.run = lambda cmd, **kw: calls.append(cmd)
        progress.BUILD = self.tmp   # its log goes there; nothing else is touched
        try:
            progress.run_starter_tests(None, False, self.tmp / "none.xml",
                                       skip=[wbex.find_exercise("reduceSmem"), self.exercise])
        finally:
            progress.subprocess.run, progress.BUILD = real_run, real_build
        cmd = calls[0]
        self.assertEqual(cmd.count("-LE"), 1, cmd)
        self.assertEqual(cmd[cmd.index("-LE") + 1],
                         "^(perf|exercise=reduceSmem|compares=reduceSmem|"
                         "exercise=setRowReadCol|compares=setRowReadCol)$")

    def test_a_damaged_record_is_refused(self):
        copy = self.copy_workbook("damaged")
        record = copy / pristine.RECORD
        record.write_text(record.read_text().replace("TODO(book", "DONE(book", 1))
        self.exercise_file(copy).write_bytes(STUDENT_CODE)
        result = subprocess.run([sys.executable, str(copy / "workbook"), "reset", EXERCISE,
                                 "--yes"], cwd=copy, capture_output=True, text=True,
                                stdin=subprocess.DEVNULL)
        self.assertEqual(result.returncode, 1)
        self.assertIn("SHA-256", result.stderr)
        self.assertEqual(self.exercise_file(copy).read_bytes(), STUDENT_CODE)


if __name__ == "__main__":
    unittest.main()
