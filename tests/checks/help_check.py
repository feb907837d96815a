#!/usr/bin/env python3
"""Checks that every command's --help opens with at most ten lines and then
its options.

A help text that opens with a manual buries the options a reader came for
(workbook grade's once printed 112 lines before its first option); manuals
belong in docs/. Each command below is run with --help; the lines before the
first option line (an argparse heading such as "options:", or a line that
starts with -x or --name) are counted, and there must be at most ten and an
option line at all.

The commands: ./workbook, ./workbook grade, ./workbook bench (wb_bench's own
help, from --bench when given, else the default build's), tests/gpu-suite.sh,
every script in tests/checks/ that takes --help and wbcore/gtest_verdict.py.
"""
import argparse
import os
import pathlib
import re
import subprocess
import sys

# The student loop in English, whatever language a run of ./workbook --lang
# remembered in this checkout.
os.environ["WB_LANG"] = "en"

ROOT = pathlib.Path(__file__).resolve().parents[2]
MAX_OPENING_LINES = 10
OPTION_LINE_RE = re.compile(
    r"^\s*-{1,2}[A-Za-z]|^(positional arguments|options|optional arguments|commands):\s*$")


def opening_lines(text):
    """The number of lines before the first option line, or None when no
    line is one."""
    for number, line in enumerate(text.splitlines()):
        if OPTION_LINE_RE.match(line):
            return number
    return None


def commands(bench):
    """[(name, argv, extra environment)] of every command whose help is checked."""
    found = [("./workbook --help", [sys.executable, str(ROOT / "workbook"), "--help"], {}),
             ("./workbook grade --help",
              [sys.executable, str(ROOT / "workbook"), "grade", "--help"], {}),
             ("tests/gpu-suite.sh --help", ["bash", str(ROOT / "tests/gpu-suite.sh"), "--help"],
              {})]
    if bench:
        found.append(("./workbook bench --help",
                      [sys.executable, str(ROOT / "workbook"), "bench", "--help"],
                      {"WB_BENCH": str(bench)}))
    for script in sorted((ROOT / "tests" / "checks").glob("*.py")):
        if "--help" in script.read_text() or "argparse" in script.read_text():
            found.append((f"tests/checks/{script.name} --help",
                          [sys.executable, str(script), "--help"], {}))
    verdict = ROOT / "wbcore" / "gtest_verdict.py"   # CTest runs it by path
    found.append(("wbcore/gtest_verdict.py --help", [sys.executable, str(verdict), "--help"], {}))
    return found


def check(name, argv, env):
    """A problem with the command's help, or None."""
    result = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=ROOT,
                            env=dict(os.environ, **env), stdin=subprocess.DEVNULL)
    if result.returncode != 0:
        return f"{name} exits {result.returncode}:\n{(result.stdout + result.stderr)[-800:]}"
    opening = opening_lines(result.stdout)
    if opening is None:
        return f"{name} lists no option"
    if opening > MAX_OPENING_LINES:
        return (f"{name} opens with {opening} lines before its first option (at most "
                f"{MAX_OPENING_LINES}); move the prose into docs/ or after the options")
    print(f"ok   {name}: {opening} line(s) before the options")
    return None


def self_test():
    assert opening_lines("usage: x [-h]\n\nWhat x does.\n\noptions:\n  -h, --help\n") == 4
    assert opening_lines("usage: x\n\n  --stages LIST  stages\n") == 2
    assert opening_lines("usage: x\n\nprose only\n") is None
    print("self-test: option lines are found where argparse and the scripts put them")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bench", type=pathlib.Path,
                    help="the wb_bench whose help ./workbook bench --help shows (default: "
                         "build/bin/wb_bench when it exists; else that command is not checked)")
    ap.add_argument("--self-test", action="store_true", help="check the line counting only")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    bench = args.bench or ROOT / "build" / "bin" / "wb_bench"
    problems = [p for p in (check(*c) for c in commands(bench if bench.exists() else None)) if p]
    for problem in problems:
        print(f"PROBLEM {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
