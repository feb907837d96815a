#!/usr/bin/env python3
"""Summarise a CTest JUnit report (ctest --output-junit FILE).

Prints passed / failed / skipped counts, then the failing tests, grouped
the way a reader of the GPU suite wants them. With --by-exercise it groups
starter results per exercise (section/exercise) using the names the tests
carry, so "the starter's exercises fail, the worked examples pass" can be
read at a glance.
"""
import argparse
import collections
import re
import sys
import xml.etree.ElementTree as ET


def load(path):
    root = ET.parse(path).getroot()
    cases = []
    for case in root.iter("testcase"):
        name = case.get("name", "")
        status = case.get("status", "")
        if status in ("run", "passed", "") and case.find("failure") is None \
                and case.find("error") is None and case.find("skipped") is None:
            result = "passed"
        elif case.find("skipped") is not None or status in ("notrun", "disabled"):
            result = "skipped"
        else:
            result = "failed"
        cases.append((name, result, float(case.get("time", 0) or 0)))
    return cases


def exercise_of(name):
    """'starter.layout.Layout/GpuLayout.SingleBlock/rect_setRowReadCol' ->
    'layout/setRowReadCol'; None when the name carries no exercise."""
    m = re.match(r"^[a-z]+\.([a-z]+)\..*/(?:square_|rect_)?([A-Za-z0-9]+)(?:_[A-Za-z0-9x]+)?$", name)
    if m:
        return f"{m.group(1)}/{m.group(2)}"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("junit")
    ap.add_argument("--title", default="tests")
    ap.add_argument("--by-exercise", action="store_true")
    ap.add_argument("--show-failures", type=int, default=15)
    args = ap.parse_args()
    try:
        cases = load(args.junit)
    except (OSError, ET.ParseError) as err:
        print(f"{args.title}: no readable JUnit report at {args.junit}: {err}")
        return 1
    counts = collections.Counter(r for _, r, _ in cases)
    print(f"{args.title}: {counts['passed']} passed, {counts['failed']} failed, "
          f"{counts['skipped']} skipped, {len(cases)} total")
    if args.by_exercise:
        per = collections.defaultdict(collections.Counter)
        for name, result, _ in cases:
            ex = exercise_of(name)
            if ex:
                per[ex][result] += 1
        for ex in sorted(per):
            c = per[ex]
            state = "PASS" if c["failed"] == 0 and c["passed"] else ("SKIP" if not c["failed"] and not c["passed"] else "FAIL")
            print(f"  {state:4} {ex:40} {c['passed']} passed, {c['failed']} failed, {c['skipped']} skipped")
    elif counts["failed"]:
        failed = [n for n, r, _ in cases if r == "failed"]
        for n in failed[: args.show_failures]:
            print(f"  FAILED {n}")
        if len(failed) > args.show_failures:
            print(f"  ... and {len(failed) - args.show_failures} more")
    return 0


if __name__ == "__main__":
    sys.exit(main())
