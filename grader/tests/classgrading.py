"""Shared by the scripts that grade a made-up class end to end
(grade_end_to_end.py, grade_forgeries.py, grade_class_report.py): running
grader/grade.py on a folder of submissions, collecting the checks that
failed, and reading the tables of a report page."""
import html.parser
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

    def exit_status(self, passed):
        """The script's exit status, after printing the count of failed
        checks, or `passed` when there were none."""
        if self.failures:
            print(f"{len(self.failures)} check(s) failed")
            return 1
        print(passed)
        return 0


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


class Tables(html.parser.HTMLParser):
    """{caption: [rows of cell texts]} of a page's tables."""

    def __init__(self):
        super().__init__()
        self.tables, self._caption, self._row, self._cell = {}, None, None, None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self._caption = ""
        elif tag == "caption":
            self._cell = []
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "caption" and self._cell is not None:
            self._caption = "".join(self._cell)
            self.tables[self._caption] = []
            self._cell = None
        elif tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None and self._caption is not None:
            self.tables.setdefault(self._caption, []).append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
