#!/usr/bin/env python3
"""Summarise a CTest JUnit report (ctest --output-junit FILE).

Prints passed / failed / skipped counts, then the failing tests, grouped
the way a reader of the GPU suite wants them. With --by-exercise BUILD it
groups the results per exercise (section/exercise), as the labels of the
tests in that build folder's CTest listing say (wbcore/ctest_listing.py),
so "the starter's exercises fail, the worked examples pass" can be read at
a glance.
"""
import argparse
import collections
import sys
import xml.etree.ElementTree as ET

from wbcore import ctest_listing
from wbcore import results as wbres


def main():
    ap = argparse.ArgumentParser(
        # The summary, then the options; the details follow them.
        description=__doc__.split("\n\n", 1)[0], epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("junit")
    ap.add_argument("--title", default="tests")
    ap.add_argument("--by-exercise", metavar="BUILD",
                    help="group per exercise, as the tests of this build folder are labelled")
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
        try:
            listed = ctest_listing.by_name(ctest_listing.list_tests(args.by_exercise))
        except ctest_listing.ListingError as err:
            print(f"{args.title}: {err}")
            return 1
        per = collections.defaultdict(collections.Counter)
        for case in cases:
            test = listed.get(case.name)
            if test is None:
                key = "(not in the build's listing)"
            else:
                key = test.exercise.key if test.exercise else "(section-wide)"
            per[key][case.result] += 1
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
