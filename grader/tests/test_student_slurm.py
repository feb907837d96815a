"""`./workbook COMMAND --slurm [-- SBATCH OPTIONS]` (student/cluster.py)
without Slurm: the arguments split, the job script, and a run through a
fake `sbatch --wait` that writes the job's output and exits with its status.
grade_slurm.py runs it on a real Slurm."""
import io
import os
import pathlib
import stat
import tempfile
import unittest

from student import cluster

FAKE_SBATCH = """#!/bin/sh
# sbatch --wait --parsable --output=LOG [options] SCRIPT: records its
# arguments, writes the job's output to LOG and exits 3.
echo "$@" > "{calls}"
for a in "$@"; do case "$a" in --output=*) log="${{a#--output=}}";; esac; done
echo "42"
printf 'report line 1\\nreport line 2\\n' > "$log"
exit 3
"""


class StudentSlurmTest(unittest.TestCase):
    def test_split_argv(self):
        self.assertEqual(cluster.split_argv(["check", "reduceSmem"]), (["check", "reduceSmem"],
                                                                       None))
        self.assertEqual(cluster.split_argv(["check", "reduceSmem", "--perf", "--slurm", "--",
                                             "-p", "gpu", "--gres=gpu:h200:1"]),
                         (["check", "reduceSmem", "--perf"], ["-p", "gpu", "--gres=gpu:h200:1"]))
        self.assertEqual(cluster.split_argv(["--slurm"]), ([], []))

    def test_job_script(self):
        text = cluster.job_script(pathlib.Path("/home/s/wb"), "/usr/bin/python3",
                                  ["check", "layout/setRowReadCol"])
        self.assertEqual(text, "\n".join([
            "#!/bin/bash", "#SBATCH --job-name=workbook", "#SBATCH --ntasks=1",
            "#SBATCH --gres=gpu:1", "# Written by ./workbook --slurm (student/cluster.py).",
            "cd /home/s/wb",
            "exec /usr/bin/python3 /home/s/wb/workbook check layout/setRowReadCol", ""]))
        self.assertNotIn("--gres", cluster.job_script("/r", "python3", [], gpu=False))
        self.assertTrue(cluster.asks_for_gpus(["--gres=gpu:a100:1"]))
        self.assertTrue(cluster.asks_for_gpus(["-G", "1"]))
        self.assertFalse(cluster.asks_for_gpus(["-p", "gpu"]))

    def test_run_shows_the_output_and_returns_the_jobs_status(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            calls = tmp / "calls"
            bin_dir = tmp / "bin"
            bin_dir.mkdir()
            fake = bin_dir / "sbatch"
            fake.write_text(FAKE_SBATCH.format(calls=calls))
            fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
            path = os.environ["PATH"]
            os.environ["PATH"] = f"{bin_dir}{os.pathsep}{path}"
            shown = io.StringIO()
            try:
                status = cluster.run(tmp, ["check", "reduceSmem"], ["-p", "gpu"], python="py",
                                     out=shown, poll=0.05)
            finally:
                os.environ["PATH"] = path
            self.assertEqual(status, 3)
            self.assertEqual(shown.getvalue(), "report line 1\nreport line 2\n")
            args = calls.read_text().split()
            self.assertEqual(args[:2], ["--wait", "--parsable"])
            self.assertEqual(args[3:5], ["-p", "gpu"])
            script = pathlib.Path(args[-1]).read_text()
            self.assertIn("#SBATCH --gres=gpu:1\n", script)
            self.assertIn(f"exec py {tmp}/workbook check reduceSmem\n", script)


if __name__ == "__main__":
    unittest.main()
