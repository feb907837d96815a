"""`workbook grade`'s subcommands (grader/grade.py from_subcommand): each
stands for the flags of its job, says its own usage with --help, and names
its missing argument; words that name no subcommand are left as they are
(the flags the Slurm jobs and older scripts use)."""
import contextlib
import io
import unittest

from test_grading_slurm import grade_cli


def translate(*argv):
    """(flags, exit status or None, what was printed)."""
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            return grade_cli.from_subcommand(list(argv)), None, out.getvalue()
    except SystemExit as stop:
        return None, stop.code, out.getvalue()


class SubcommandTest(unittest.TestCase):
    def test_each_stands_for_the_flags_of_its_job(self):
        cases = [
            (["one", "alice.zip", "--out", "r"], ["alice.zip", "--out", "r"]),
            (["batch", "class", "--out", "r", "--jobs", "2"],
             ["--batch", "class", "--out", "r", "--jobs", "2"]),
            (["slurm", "class", "--out", "r", "--", "--partition=gpu"],
             ["--batch", "class", "--slurm", "--out", "r", "--", "--partition=gpu"]),
            (["status", "r"], ["--slurm-status", "r"]),
            (["report", "r", "--batch", "class"], ["--report", "r", "--batch", "class"]),
            (["points"], ["--check-points"]),
        ]
        for argv, flags in cases:
            got, status, _ = translate(*argv)
            self.assertEqual((got, status), (flags, None), argv)

    def test_the_flags_themselves_are_left_alone(self):
        for argv in (["alice.zip"], ["--batch", "class", "--out", "r"], []):
            self.assertEqual(translate(*argv)[0], argv)

    def test_help_is_the_subcommands_own(self):
        _, status, said = translate("batch", "--help")
        self.assertEqual(status, 0)
        self.assertTrue(said.startswith("usage: workbook grade batch FOLDER --out OUTDIR"), said)
        self.assertLess(len(said.splitlines()), 6)
        # After `--` the words are sbatch's, not a request for help.
        flags, status, _ = translate("slurm", "class", "--out", "r", "--", "--help")
        self.assertEqual(status, None)
        self.assertEqual(flags[-1], "--help")

    def test_a_missing_argument_is_named(self):
        _, status, said = translate("batch", "--out", "r")
        self.assertEqual(status, 2)
        self.assertIn("workbook grade batch: the first argument is missing", said)

    def test_the_parser_takes_what_they_stand_for(self):
        args = grade_cli.parse_args(grade_cli.from_subcommand(
            ["batch", "class", "--out", "r", "--jobs", "3"]))
        self.assertEqual((str(args.batch), str(args.out), args.jobs), ("class", "r", 3))
        self.assertTrue(grade_cli.parse_args(grade_cli.from_subcommand(["points"])).check_points)


if __name__ == "__main__":
    unittest.main()
