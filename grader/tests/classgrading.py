"""Shared by the scripts that grade a made-up class end to end
(grade_end_to_end.py, grade_forgeries.py): running grader/grade.py on a folder
of submissions, and collecting the checks that failed."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


class Checker:
    """Collects failed expectations, printing each as it fails."""

    def __init__(self):
        self.failures = []

    def expect(self, condition, message):
        if not condition:
            self.failures.append(message)
            print(f"FAIL: {message}")
        return condition


def grade(submissions, out, args, *extra):
    """./workbook grade --batch SUBMISSIONS --out OUT with the script's
    --work, --cmake-arg and --gpu (else --no-gpu) and any `extra` options.
    Its output is shown line by line as it comes (a long GPU run leaves a
    partial log) and kept: returns (exit status, output)."""
    cmd = [sys.executable, str(ROOT / "grader" / "grade.py"), "--batch", str(submissions),
           "--out", str(out), "--work", str(args.work), *extra]
    cmd += [f"--cmake-arg={a}" for a in args.cmake_arg] + ([] if args.gpu else ["--no-gpu"])
    print("+ " + " ".join(cmd), flush=True)
    lines = []
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          errors="replace") as proc:
        for line in proc.stdout:
            print(line, end="", flush=True)
            lines.append(line)
    return proc.returncode, "".join(lines)
