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
import pathlib
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))
from wbcore import course as wbex  # noqa: E402
from wbcore import results as wbres  # noqa: E402


def main():
    ap = argparse.ArgumentParser(
        # The summary, then the options; the details follow them.
        description=__doc__.split("\n\n", 1)[0], epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("junit")
    ap.add_argument("--title", default="tests")
    ap.add_argument("--by-exercise", action="store_true")
    ap.add_argument("--show-failures", type=int, default=15)
    args = ap.parse_args()
    try:
        cases = wbres.load_junit(args.junit)
    except (OSError, ET.ParseError) as err:
        print(f"{args.title}: no readable JUnit report at {args.junit}: {err}")
        return 1
    c = wbres.counts(cases)
    print(f"{args.title}: {c['passed']} passed, {c['failed']} failed, "
          f"{c['skipped']} skipped, {len(cases)} total")
    if args.by_exercise:
        all_ex = wbex.exercises()
        per = collections.defaultdict(collections.Counter)
        for case in cases:
            ex = wbex.exercise_of_test(case.name, all_ex)
            per[ex.key if ex else "(section-wide)"][case.result] += 1
        for key in sorted(per):
            k = per[key]
            state = "FAIL" if k["failed"] else ("PASS" if k["passed"] else "SKIP")
            print(f"  {state:4} {key:40} {k['passed']} passed, {k['failed']} failed, "
                  f"{k['skipped']} skipped")
    elif c["failed"]:
        failed = [r.name for r in cases if r.result == "failed"]
        for n in failed[: args.show_failures]:
            print(f"  FAILED {n}")
        if len(failed) > args.show_failures:
            print(f"  ... and {len(failed) - args.show_failures} more")
    return 0


if __name__ == "__main__":
    sys.exit(main())
