"""Grading through Slurm (grader/slurm.py) without Slurm: the scripts and
sbatch command lines generated, the grouping, the rerun that submits only
what is missing, the merge (equal to the local batch's gradebook), the
progress report, and the command line. A fake `sbatch` on PATH records what
it was asked; grade_slurm.py runs the real thing."""
import contextlib
import io
import json
import os
import pathlib
import stat
import tempfile
import unittest

from gradingtest import ROOT
from grader import report as gr
from grader import run as grun
from grader import slurm as gslurm
from test_grading_batch import FakeGrader

import importlib.util

_spec = importlib.util.spec_from_file_location("grade_cli", ROOT / "grader" / "grade.py")
grade_cli = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(grade_cli)

FAKE_SBATCH = """#!/bin/sh
# Records its arguments, one call a line, and answers a job id.
echo "$@" >> "{log}"
n=$(wc -l < "{log}")
echo "$((100 + n));cluster"
"""


class SlurmTestCase(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = pathlib.Path(self._tmp.name)
        self.folder = self.tmp / "class"
        for name in ("alice", "bob", "carol"):
            (self.folder / name).mkdir(parents=True)
        (self.folder / "dave.zip").write_bytes(b"")
        self.out = self.tmp / "graded"
        bin_dir = self.tmp / "bin"
        bin_dir.mkdir()
        self.sbatch_log = self.tmp / "sbatch.log"
        fake = bin_dir / "sbatch"
        fake.write_text(FAKE_SBATCH.format(log=self.sbatch_log))
        fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
        # squeue, scontrol and sacct that know no job: nothing is queued.
        for name in ("squeue", "scontrol", "sacct"):
            (bin_dir / name).write_text("#!/bin/sh\nexit 0\n")
            (bin_dir / name).chmod(0o755)
        self._path = os.environ["PATH"]
        os.environ["PATH"] = f"{bin_dir}{os.pathsep}{self._path}"

    def tearDown(self):
        os.environ["PATH"] = self._path
        self._tmp.cleanup()

    def submit(self, options=(), **kwargs):
        lines = []
        kwargs.setdefault("python", "/usr/bin/python3")
        kwargs.setdefault("root", pathlib.Path("/repo"))
        entry = gslurm.submit(self.folder, self.out, ["--no-gpu"], list(options),
                              log=lines.append, **kwargs)
        return entry, "\n".join(lines)

    def sbatch_calls(self):
        return self.sbatch_log.read_text().splitlines() if self.sbatch_log.exists() else []


class ScriptTest(SlurmTestCase):
    def test_groups(self):
        self.assertEqual(gslurm.groups(list("abcde"), 2), [["a", "b"], ["c", "d"], ["e"]])
        self.assertEqual(gslurm.groups(list("ab"), 1), [["a"], ["b"]])
        self.assertEqual(gslurm.groups([], 3), [])

    def test_gpu_options_go_to_the_tasks_only(self):
        tasks, merge = gslurm.split_options(
            ["--partition=gpu", "--gres", "gpu:h200:1", "-A", "cs101", "--gpus=1", "-t", "30"])
        self.assertEqual(tasks, ["--partition=gpu", "--gres", "gpu:h200:1", "-A", "cs101",
                                 "--gpus=1", "-t", "30"])
        self.assertEqual(merge, ["--partition=gpu", "-A", "cs101", "-t", "30"])

    def test_array_script(self):
        text = gslurm.array_script(pathlib.Path("/o/slurm/plan-2.json"), 4, pathlib.Path("/o"), 2,
                                   True, "/usr/bin/python3", pathlib.Path("/repo"), array_limit=3)
        self.assertEqual(text, "\n".join([
            "#!/bin/bash",
            "#SBATCH --job-name=wbgrade",
            "#SBATCH --array=0-3%3",
            "#SBATCH --output=/o/slurm/logs/task-2-%a.log",
            "#SBATCH --ntasks=1",
            "#SBATCH --gres=gpu:1",
            "# Written by ./workbook grade --slurm (grader/slurm.py); options given on",
            "# sbatch's command line take precedence over the lines above.",
            "set -u",
            'export PYTHONPATH=/repo${PYTHONPATH:+:$PYTHONPATH}',
            "exec /usr/bin/python3 /repo/grader/grade.py --slurm-task /o/slurm/plan-2.json "
            '"$SLURM_ARRAY_TASK_ID"', ""]))
        no_gpu = gslurm.array_script(pathlib.Path("/o/p.json"), 1, pathlib.Path("/o"), 1, False,
                                     "python3", pathlib.Path("/repo"))
        self.assertIn("#SBATCH --array=0-0\n", no_gpu)
        self.assertNotIn("--gres", no_gpu)

    def test_merge_script(self):
        text = gslurm.merge_script(pathlib.Path("/o"), 1, "/usr/bin/python3", pathlib.Path("/repo"))
        self.assertTrue(text.startswith("#!/bin/bash\n#SBATCH --job-name=wbgrade-merge\n"))
        self.assertIn("#SBATCH --output=/o/slurm/logs/merge-1.log\n", text)
        self.assertIn("export PYTHONPATH=/repo${PYTHONPATH:+:$PYTHONPATH}\n"
                      "exec /usr/bin/python3 /repo/grader/grade.py --slurm-merge /o\n", text)
        self.assertNotIn("gres", text)
        # The class report's options go to the merge, which writes the reports.
        text = gslurm.merge_script(pathlib.Path("/o"), 1, "/usr/bin/python3",
                                   pathlib.Path("/repo"), ["--similarity-threshold=0.7"])
        self.assertIn("--slurm-merge /o --similarity-threshold=0.7\n", text)

    def test_dry_run_prints_and_submits_nothing(self):
        entry, said = self.submit(["--partition=gpu", "--gres=gpu:h200:1"], group=3, dry_run=True)
        self.assertEqual(self.sbatch_calls(), [])
        self.assertFalse(self.out.exists(), "a dry run writes nothing")
        self.assertEqual([[n for n, _ in g] for g in entry["plan"]["tasks"]],
                         [["alice", "bob", "carol"], ["dave"]])
        self.assertIn("#SBATCH --array=0-1\n", said)
        self.assertIn("exec /usr/bin/python3 /repo/grader/grade.py --slurm-merge", said)
        self.assertIn("sbatch --parsable --partition=gpu --gres=gpu:h200:1 ", said)
        self.assertIn("sbatch --parsable --dependency=afterany:$ARRAY_ID --partition=gpu ", said)


class SubmitTest(SlurmTestCase):
    def test_submit_writes_the_plan_and_records_the_jobs(self):
        entry, _ = self.submit(["-p", "gpu"], group=2, array_limit=1)
        calls = self.sbatch_calls()
        self.assertEqual(len(calls), 2)
        state = (self.out / "slurm").resolve()
        self.assertEqual(calls[0], f"--parsable -p gpu {state}/array-1.sh")
        self.assertEqual(calls[1],
                         f"--parsable --dependency=afterany:101 -p gpu {state}/merge-1.sh")
        self.assertEqual((entry["array"], entry["merge"]), ("101", "102"))
        self.assertIn("#SBATCH --array=0-1%1\n", (state / "array-1.sh").read_text())
        plan = gslurm.load_plan(state / "plan-1.json")
        self.assertEqual(plan["grade_argv"], ["--no-gpu"])
        self.assertEqual([[n for n, _ in g] for g in plan["tasks"]],
                         [["alice", "bob"], ["carol", "dave"]])
        record = gslurm.load_record(self.out)
        self.assertEqual(record["rounds"][0]["tasks"], {"0": ["alice", "bob"],
                                                        "1": ["carol", "dave"]})

    def test_a_rerun_submits_only_what_has_no_results(self):
        entry, _ = self.submit()
        plan = gslurm.load_plan(entry["plan"])
        grader = FakeGrader(self.tmp / "work")
        for index in (0, 2):                          # alice and carol are graded
            gslurm.run_task(grader, plan, index, log=lambda *_: None)
        again, said = self.submit()
        self.assertIn("2 of 4 submissions already graded", said)
        self.assertEqual(again["round"], 2)
        self.assertEqual(again["tasks"], {"0": ["bob"], "1": ["dave"]})
        self.assertEqual(len(self.sbatch_calls()), 4)

    def test_nothing_left_writes_the_gradebook_and_submits_nothing(self):
        grun.grade_batch(FakeGrader(self.tmp / "work"), self.folder, self.out, log=lambda *_: None)
        (self.out / gr.GRADEBOOK).unlink()
        entry, said = self.submit()
        self.assertIsNone(entry)
        self.assertIn("nothing to grade", said)
        self.assertEqual(self.sbatch_calls(), [])
        self.assertTrue((self.out / gr.GRADEBOOK).exists())

    def test_a_task_skips_what_was_graded_meanwhile(self):
        entry, _ = self.submit(group=4)
        plan = gslurm.load_plan(entry["plan"])
        first = FakeGrader(self.tmp / "work")
        gslurm.run_task(first, plan, 0, log=lambda *_: None)
        second = FakeGrader(self.tmp / "work")
        self.assertEqual(gslurm.run_task(second, plan, 0, log=lambda *_: None), 0)
        self.assertEqual(second.graded, [])


class MergeTest(SlurmTestCase):
    def test_the_merge_equals_the_local_gradebook(self):
        statuses = {"bob": "timeout", "dave": "compile-errors"}
        local = self.tmp / "local"
        grun.grade_batch(FakeGrader(self.tmp / "w1", statuses), self.folder, local,
                         log=lambda *_: None)
        entry, _ = self.submit(group=3)
        plan = gslurm.load_plan(entry["plan"])
        for index in reversed(range(len(plan["tasks"]))):   # in any order
            gslurm.run_task(FakeGrader(self.tmp / "w2", statuses), plan, index,
                            log=lambda *_: None)
        self.assertEqual(gslurm.merge(self.out), 4)
        self.assertEqual((self.out / gr.GRADEBOOK).read_text(),
                         (local / gr.GRADEBOOK).read_text())
        self.assertNotIn("slurm", (self.out / gr.GRADEBOOK).read_text())


class StatusTest(SlurmTestCase):
    def test_done_running_pending_failed(self):
        entry, _ = self.submit()
        plan = gslurm.load_plan(entry["plan"])
        gslurm.run_task(FakeGrader(self.tmp / "work"), plan, 0, log=lambda *_: None)
        record = gslurm.load_record(self.out)
        (self.out / "slurm" / "logs" / "task-1-3.log").write_text(
            "grading...\nslurmstepd: error: *** JOB 105 ON n1 CANCELLED AT 2026-01-01T00:00:00 "
            "DUE TO TIME LIMIT ***\n")
        (self.folder / "erin").mkdir()
        counts = gslurm.classify(self.out, record,
                                 {"101_1": ("RUNNING", "None"), "101_2": ("PENDING", "Priority")},
                                 {"101_3": ("TIMEOUT", "0:0, reason TimeLimit")})
        self.assertEqual({k: [n for n, _ in v] for k, v in counts.items()},
                         {"done": ["alice"], "running": ["bob"], "pending": ["carol"],
                          "failed": ["dave"], "not submitted": ["erin"]})
        note = counts["failed"][0][1]
        self.assertIn("task 101_3: TIMEOUT, exit 0:0, reason TimeLimit", note)
        self.assertIn("DUE TO TIME LIMIT", note)
        lines = []
        gslurm.status(self.out, log=lines.append)   # no squeue here: the rest failed
        self.assertEqual(lines[0], "5 submissions: 1 done, 0 running, 0 pending, 3 failed, "
                                   "1 not submitted")


class SqueueTest(SlurmTestCase):
    def test_a_purged_job_does_not_hide_the_others(self):
        fake = self.tmp / "bin" / "squeue"
        fake.write_text('#!/bin/sh\nfor a in "$@"; do last="$a"; done\n'
                        'case "$last" in *,*) echo "Invalid job id" >&2; exit 1;; '
                        '101) echo "101_1|RUNNING|None";; esac\n')
        self.assertEqual(gslurm.squeue(["99", "101"]), {"101_1": ("RUNNING", "None")})


class CommandLineTest(unittest.TestCase):
    def test_sbatch_options_after_the_double_dash(self):
        args = grade_cli.parse_args(["--batch", "c", "--out", "o", "--slurm", "--group", "2",
                                     "--sbatch-opt=--account=x", "--", "-p", "gpu", "--exclusive"])
        self.assertTrue(args.slurm)
        self.assertEqual(args.group, 2)
        self.assertEqual(args.sbatch_opt, ["--account=x", "-p", "gpu", "--exclusive"])

    def test_slurm_options_need_slurm_and_a_batch(self):
        for argv in (["--batch", "c", "--out", "o", "--dry-run"],
                     ["--batch", "c", "--out", "o", "--", "-p", "gpu"],
                     ["sub", "--slurm"]):
            with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
                grade_cli.parse_args(argv)

    def test_the_grading_options_travel_to_the_tasks(self):
        args = grade_cli.parse_args(["--batch", "c", "--out", "o", "--slurm", "--no-gpu",
                                     "--work", "/w", "--cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=90",
                                     "--test-jobs", "2"])
        argv = grade_cli.grading_argv(args)
        again = grade_cli.parse_args(argv + ["--batch", "c", "--out", "o"])
        for field in ("no_gpu", "work", "cmake_arg", "test_jobs", "no_cache", "suite_timeout",
                      "build_timeout", "points"):
            self.assertEqual(getattr(again, field), getattr(args, field), field)
        self.assertEqual(json.loads(json.dumps(argv)), argv)

    def test_tests_at_once_follow_the_cores_unless_given(self):
        self.assertEqual([grade_cli.default_test_jobs(cpus, jobs)
                          for cpus, jobs in ((2, 1), (16, 1), (64, 1), (16, 2), (16, 3))],
                         [4, 8, 8, 4, 4])
        # Not given, a Slurm task sets it from its own node's cores.
        args = grade_cli.parse_args(["--batch", "c", "--out", "o", "--slurm"])
        self.assertFalse(any(a.startswith("--test-jobs") for a in grade_cli.grading_argv(args)))


if __name__ == "__main__":
    unittest.main()
