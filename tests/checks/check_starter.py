#!/usr/bin/env python3
"""Checks that the shipped starter is what a student should receive: every
worked example (worked_example = true in workbook.toml) passes its tests,
and every other exercise fails at least one of its tests as shipped. The
workbook's own suite runs this (CTest: workbook.starter_is_unsolved), so an
exercise that was accidentally solved in starter/, or a test that cannot
fail, is caught. Performance tests are left out (they need correct kernels).

Without a GPU the GPU tests are skipped, so only exercises with host tests
can be judged; the rest are reported as not checked. When starter/ differs
from the pristine record (student/pristine_starter.json: a student's work)
the check does not apply and reports itself skipped (exit 77).

  check_starter.py --build BUILD_DIR
"""
import argparse
import collections
import os
import pathlib
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
from wbcore import course as wbex  # noqa: E402
from student import pristine  # noqa: E402

SKIP = 77


def starter_is_pristine(root):
    """(True, "") when starter/ is the shipped starter: every exercise file
    equals the pristine record (student/pristine.py), which no student
    commit changes and which needs no git (a copy on a GPU machine)."""
    try:
        changed = pristine.differences(root)
    except pristine.PristineError as err:
        return False, str(err)
    if not changed:
        return True, ""
    return False, (f"starter/ differs from the pristine starter ({', '.join(changed[:3])}"
                   f"{', ...' if len(changed) > 3 else ''}): a student's work; this check "
                   "guards the shipped starter")


def run_section(exe, section, per, modules):
    """Adds the outcomes of one test executable's tests of `section` to
    per: {exercise key: Counter(passed/failed/skipped)}."""
    with tempfile.TemporaryDirectory() as tmp:
        report = pathlib.Path(tmp) / "report.xml"
        env = dict(os.environ, WB_MODULES=str(modules))
        subprocess.run([str(exe), f"--gtest_output=xml:{report}", "--gtest_filter=-Perf*:*/Perf*"],
                       capture_output=True, timeout=1800, env=env)
        root = ET.parse(report).getroot()
    all_ex = wbex.exercises()
    for case in root.iter("testcase"):
        name = f"starter.{section}.{case.get('classname')}.{case.get('name')}"
        e = wbex.exercise_of_test(name, all_ex)
        if e is None:
            continue
        if case.find("failure") is not None:
            per[e.key]["failed"] += 1
        elif case.get("result") == "skipped" or case.find("skipped") is not None:
            per[e.key]["skipped"] += 1
        else:
            per[e.key]["passed"] += 1


def main():
    ap = argparse.ArgumentParser(
        # The summary, then the options; the details follow them.
        description=__doc__.split("\n\n", 1)[0], epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True, help="the CMake build folder")
    ap.add_argument("--assume-pristine", action="store_true",
                    help="judge starter/ as shipped even where it differs from the pristine "
                         "record")
    args = ap.parse_args()
    pristine, why = (True, "") if args.assume_pristine else starter_is_pristine(wbex.ROOT)
    if not pristine:
        print(f"skipped: {why}")
        return SKIP
    build = pathlib.Path(args.build)
    problems, unchecked, checked = [], [], 0
    for section in wbex.section_names():
        # The section's kernel tests, on the starter's modules, and the host
        # exercises' tests linked with the starter's objects.
        exes = [build / "tests" / section / f"wb_{section}_tests"]
        exes += sorted((build / "tests" / section).glob(f"wb_starter_{section}_*_tests"))
        missing = [exe for exe in exes if not exe.exists()]
        if missing:
            problems.append(f"{section}: {missing[0]} was not built")
            continue
        per = collections.defaultdict(collections.Counter)
        for exe in exes:
            run_section(exe, section, per, build / "modules" / "starter")
        for e in (x for x in wbex.exercises() if x.section == section):
            c = per.get(e.key, collections.Counter())
            given = e.worked_example
            if given:
                if c["failed"]:
                    problems.append(f"{e.key} is the worked example but {c['failed']} of its "
                                    "tests fail as shipped")
                elif c["passed"]:
                    checked += 1
                else:
                    unchecked.append(e.key)
            elif c["failed"]:
                checked += 1
            elif c["passed"]:
                problems.append(f"{e.key} passes every test that ran ({c['passed']}) as shipped: "
                                "the exercise is solved in starter/ or its tests cannot fail")
            else:
                unchecked.append(e.key)
    for p in problems:
        print(f"PROBLEM {p}")
    print(f"starter as shipped: {checked} exercise(s) as expected (worked examples pass, "
          f"exercises fail), {len(unchecked)} not checked here (their tests were skipped: "
          f"no GPU), {len(problems)} problem(s)")
    if unchecked:
        print("  not checked: " + ", ".join(unchecked))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
