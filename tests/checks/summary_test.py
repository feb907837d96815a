#!/usr/bin/env python3
"""The short account ./workbook check prints (student/summary.py), on a
JUnit file as CTest writes it (tests/checks/data/ctest_junit_sample.xml):
counts per exercise and kind, and the first lines of each failure; and a
test that failed three times on one line is shown by its first mismatch,
values included, once, with the count of the others."""
import os
import pathlib
import sys

# The student loop in English, whatever language a run of ./workbook --lang
# remembered in this checkout.
os.environ["WB_LANG"] = "en"

ROOT = pathlib.Path(__file__).resolve().parents[2]

from wbcore import course as wbex  # noqa: E402
from wbcore import ctest_listing  # noqa: E402
from wbcore import results as wbres  # noqa: E402
from student import summary  # noqa: E402


def main():
    results = wbres.load_junit(ROOT / "tests" / "checks" / "data" / "ctest_junit_sample.xml")
    smem = wbex.find_exercise("reduceSmem")
    gmem = wbex.find_exercise("reduceGmem")
    band = wbex.find_exercise("effectiveBandwidth")

    def listed(name, exercise, kind):
        return ctest_listing.ListedTest(name, ("starter", "reduction", kind), "reduction",
                                        exercise, kind)

    names = [r.name for r in results]
    listing = {names[0]: listed(names[0], smem, "gpu"), names[1]: listed(names[1], gmem, "gpu"),
               names[2]: listed(names[2], band, "host"), names[3]: listed(names[3], smem, "perf")}
    text = "\n".join(summary.summary_lines(results, listing))
    print(text)
    expected = [f"{smem.key} [gpu]: 1 failed", f"{gmem.key} [gpu]: 1 passed",
                f"{band.key} [host]: 1 passed", f"{smem.key} [perf]: 1 skipped",
                "total: 2 passed, 1 failed, 1 skipped", f"FAILED {names[0]}",
                "reduce_test.cu:88: Failure", "Which is: 8388608"]
    missing = [e for e in expected if e not in text]
    if missing:
        print("missing from the summary: " + "; ".join(missing), file=sys.stderr)
        return 1
    if "Running main()" in text or "OK ]" in text:
        print("the summary repeats CTest's raw output", file=sys.stderr)
        return 1
    return repeated_failure()


def repeated_failure():
    """Three failures of one EXPECT_EQ: the first shown with its values, once."""
    block = ("tests/config/prefer_shared_carveout_test.cu:36: Failure\n"
             "Expected equality of these values:\n  got\n    Which is: {}\n"
             "  want\n    Which is: 50\n")
    output = ("[ RUN      ] HostPreferSharedCarveout.SetsThePreferredCarveoutToThePercent\n"
              + "".join(block.format(v) for v in (3, 4, 5))
              + "[  FAILED  ] HostPreferSharedCarveout.SetsThePreferredCarveoutToThePercent\n")
    shown = summary.failure_lines(wbres.TestResult("t", "failed", 0.0, output))
    print("\n".join(shown))
    wanted = ["tests/config/prefer_shared_carveout_test.cu:36: Failure",
              "Expected equality of these values:", "  got", "    Which is: 3", "  want",
              "    Which is: 50", "(and 2 more failure(s) in this test)"]
    if shown != wanted:
        print(f"a repeated failure is shown as {shown}, expected {wanted}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
