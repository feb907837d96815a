#!/usr/bin/env python3
"""Checks that the shipped starter is what a student should receive: every
worked example (worked_example = true in workbook.toml) passes its tests,
and every other exercise fails at least one of its tests as shipped. The
workbook's own suite runs this (CTest: workbook.starter_is_unsolved), so an
exercise that was accidentally solved in starter/, or a test that cannot
fail, is caught. Performance tests are left out (they need correct kernels).

Without a GPU the GPU tests are skipped, so only exercises with host tests
or method checks can be judged; the rest are reported as not checked. A
method check (tests/checks/method_check.py, no GPU needed) that fails
counts like a failing test; one that passes says nothing about whether the
exercise is solved (a TODO kernel of a global-memory baseline already uses
no shared memory), so a passing method check alone never makes an
exercise "solved as shipped". The worked examples must pass theirs. When starter/ differs
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

from wbcore import course as wbex
from wbcore import ctest_listing
from student import pristine

SKIP = 77
# Performance tests need correct kernels, and the runner's checks are for
# the GPU suite's own stages: none of them judge whether an exercise is solved.
LEFT_OUT_KINDS = "^(perf|profile|sanitize)$"


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


def run_tests(tests, per, modules):
    """Adds the outcomes of `tests` (ListedTests of one section) to per:
    {exercise key: Counter(passed/failed/skipped)}. Each test executable
    runs once, with a filter naming its tests, and each GoogleTest result is
    matched to its CTest test, whose labels say which exercise it tests."""
    by_executable = collections.defaultdict(list)
    for t in tests:
        if t.exercise is not None and t.gtest_executable:
            by_executable[t.gtest_executable].append(t)
    for exe, exe_tests in by_executable.items():
        by_gtest = {t.gtest_name: t for t in exe_tests}
        with tempfile.TemporaryDirectory() as tmp:
            report = pathlib.Path(tmp) / "report.xml"
            env = dict(os.environ, WB_MODULES=str(modules))
            subprocess.run([exe, f"--gtest_output=xml:{report}",
                            f"--gtest_filter={ctest_listing.gtest_filter(exe_tests)}"],
                           capture_output=True, timeout=1800, env=env)
            root = ET.parse(report).getroot()
        for case in root.iter("testcase"):
            t = by_gtest.get(f"{case.get('classname')}.{case.get('name')}")
            if t is None:
                continue
            if case.find("failure") is not None:
                per[t.exercise.key]["failed"] += 1
            elif case.get("result") == "skipped" or case.find("skipped") is not None:
                per[t.exercise.key]["skipped"] += 1
            else:
                per[t.exercise.key]["passed"] += 1


def run_method_checks(tests, per):
    """Adds the outcomes of the method checks among `tests` to per, as
    "method_passed", "failed" and "skipped" (each runs its command, as
    CTest would: exit 0 passed, 77 skipped, else failed)."""
    for t in tests:
        if t.kind != "method" or t.exercise is None or not t.command:
            continue
        done = subprocess.run(list(t.command), capture_output=True, timeout=300)
        outcome = {0: "method_passed", SKIP: "skipped"}.get(done.returncode, "failed")
        per[t.exercise.key][outcome] += 1


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
    shipped, why = (True, "") if args.assume_pristine else starter_is_pristine(wbex.ROOT)
    if not shipped:
        print(f"skipped: {why}")
        return SKIP
    build = pathlib.Path(args.build)
    try:
        listed = ctest_listing.list_tests(build, ["-L", "^starter$", "-LE", LEFT_OUT_KINDS])
    except ctest_listing.ListingError as err:
        print(f"PROBLEM {err}")
        return 1
    problems, unchecked, checked = [], [], 0
    for section in wbex.section_names():
        # The section's kernel tests, on the starter's modules, and the host
        # exercises' tests linked with the starter's objects.
        tests = [t for t in listed if t.section == section]
        missing = [t.name for t in tests if t.placeholder]
        if missing or not tests:
            problems.append(f"{section}: " + (f"{missing[0]} (a test executable was not built "
                                              "or could not list its tests)" if missing
                                              else "CTest lists no starter test"))
            continue
        per = collections.defaultdict(collections.Counter)
        run_tests(tests, per, build / "modules" / "starter")
        run_method_checks(tests, per)
        for e in (x for x in wbex.exercises() if x.section == section):
            c = per.get(e.key, collections.Counter())
            given = e.worked_example
            if given:
                if c["failed"]:
                    problems.append(f"{e.key} is the worked example but {c['failed']} of its "
                                    "tests fail as shipped")
                elif c["passed"] or c["method_passed"]:
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
