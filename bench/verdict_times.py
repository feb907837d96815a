#!/usr/bin/env python3
"""Where a CTest run's time went: per kind of check (host, gpu, perf,
profile, sanitize, method), the tests run and the seconds they took, summed
over the tests (CTest runs several at once, so the sum exceeds the wall
clock), from CTest's JUnit report and the build's listing.

  python3 -m bench.verdict_times BUILD JUNIT.xml... [--title TEXT]

(several reports: one command's CTest runs, e.g. ./workbook check's two)

bench/time_student_loop.sh prints it after each command it times.
"""
import argparse
import collections
import pathlib
import sys

from wbcore import ctest_listing
from wbcore import results as wbres


def breakdown(results, listed):
    """{kind: (tests, seconds, failed)} of the results, kinds from the listing
    ("other" for a test it does not list)."""
    tests, seconds, failed = (collections.Counter() for _ in range(3))
    for r in results:
        t = listed.get(r.name)
        kind = (t.kind if t and t.kind else "other")
        tests[kind] += 1
        seconds[kind] += r.seconds
        failed[kind] += r.result == "failed"
    return {k: (tests[k], seconds[k], failed[k]) for k in tests}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    ap.add_argument("build", type=pathlib.Path)
    ap.add_argument("junit", type=pathlib.Path, nargs="+")
    ap.add_argument("--title", default="")
    args = ap.parse_args()
    try:
        results = [r for junit in args.junit if junit.exists()
                   for r in wbres.load_junit(junit)]
        listed = ctest_listing.by_name(ctest_listing.list_tests(args.build))
    except (OSError, ctest_listing.ListingError) as err:
        print(f"verdict_times: {err}", file=sys.stderr)
        return 1
    except Exception as err:  # a JUnit file CTest did not finish writing
        print(f"verdict_times: {' '.join(map(str, args.junit))} could not be read: {err}",
              file=sys.stderr)
        return 1
    rows = breakdown(results, listed)
    if args.title:
        print(args.title)
    print("| kind | tests | seconds (summed) | failed |")
    print("|---|---|---|---|")
    for kind in sorted(rows, key=lambda k: -rows[k][1]):
        n, s, f = rows[kind]
        print(f"| {kind} | {n} | {s:.1f} | {f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
