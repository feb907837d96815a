#!/usr/bin/env python3
"""Checks the pristine starter record (student/pristine_starter.json), the
files ./workbook reset restores.

Always, for anyone: it holds exactly workbook.toml's exercises, each text
matches its SHA-256, and each exercise that is not a worked example still
has its TODO (a solved file was never recorded as pristine).

Whether the record is current (equal to starter/) can only be judged where
starter/ is the shipped one: a student's edits make it differ, and so would
a developer's change to starter/ without `python3 -m student.pristine
--update`, and nothing in the tree tells the two apart (a student's commits
look like a developer's). So a difference is reported and passes, except
with --shipped (CI, .ci/run, on a clean clone, where starter/ is by
definition the shipped starter), where it fails.
"""
import argparse
import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
from wbcore import course as wbex  # noqa: E402
from student import pristine  # noqa: E402


def record_problems(root):
    """What is wrong with the record itself, whatever starter/ holds."""
    try:
        contents = pristine.load_record(root)
    except pristine.PristineError as err:
        return [str(err)]
    problems = []
    listed = {pristine.relative_name(e): e for e in wbex.exercises(root)}
    for name in sorted(set(listed) - set(contents)):
        problems.append(f"the record lacks starter/{name}")
    for name in sorted(set(contents) - set(listed)):
        problems.append(f"the record holds starter/{name}, which workbook.toml does not list")
    for name, e in listed.items():
        if name in contents and not e.worked_example and \
                not any(wbex.TODO_RE.search(line) for line in
                        contents[name].decode("utf-8").splitlines()):
            problems.append(f"the record's starter/{name} has no TODO: a solved file was "
                            "recorded as pristine")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="CTest: workbook.pristine_starter_record")
    ap.add_argument("--shipped", action="store_true",
                    help="starter/ is the shipped starter (CI): fail when the record differs "
                         "from it (also set by WB_SHIPPED_STARTER=1)")
    args = ap.parse_args()
    shipped = args.shipped or os.environ.get("WB_SHIPPED_STARTER") == "1"
    problems = record_problems(ROOT)
    if not problems:
        changed = pristine.differences(ROOT)
        if changed and shipped:
            problems.append("starter/ differs from the pristine record in " + ", ".join(changed)
                            + ": after changing starter/, run python3 -m student.pristine "
                              "--update and commit student/pristine_starter.json")
        elif changed:
            print(f"note: starter/ differs from the pristine record in {len(changed)} file(s) "
                  "(a student's work; CI fails if it is a developer's unrecorded change)")
    for problem in problems:
        print(f"PROBLEM {problem}")
    print(f"pristine starter record: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
