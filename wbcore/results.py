"""Reading CTest's JUnit reports (ctest --output-junit FILE)."""
import collections
import dataclasses
import xml.etree.ElementTree as ET


@dataclasses.dataclass
class TestResult:
    name: str
    result: str  # "passed", "failed" or "skipped"
    seconds: float
    output: str


# The name's end of a batch run (an exercise's GPU tests, cmake/WorkbookDiscoverTests.cmake;
# a section's profiles, cmake/WorkbookDiscoverKernelChecks.cmake):
# a CTest fixture its tests take their verdicts from, not a check of its own.
# JUnit carries no labels, so its results are known by this suffix, which
# no other test name ends with (GoogleTest names end with a test's name).
BATCH_SUFFIX = ".batch"


def load_junit(path):
    """[TestResult] of the report's tests, the batch runs left out."""
    root = ET.parse(path).getroot()
    results = []
    for case in root.iter("testcase"):
        if case.get("name", "").endswith(BATCH_SUFFIX):
            continue
        status = case.get("status", "")
        failure = case.find("failure")
        if failure is None:
            failure = case.find("error")
        skipped = case.find("skipped")
        if failure is not None:
            result = "failed"
        elif skipped is not None or status in ("notrun", "disabled"):
            result = "skipped"
        elif status in ("run", "passed", ""):
            result = "passed"
        else:
            result = "failed"
        out = case.find("system-out")
        text = (out.text or "") if out is not None else ""
        if failure is not None and failure.get("message"):
            text = failure.get("message") + "\n" + text
        results.append(TestResult(case.get("name", ""), result,
                                  float(case.get("time", 0) or 0), text))
    return results


def counts(results):
    return collections.Counter(r.result for r in results)


# Lines of a test's output that are GoogleTest's own bookkeeping, never part
# of a failure's message.
GTEST_CHATTER = ("[", "Running main() from", "Note: Google Test filter", "Note: Randomizing")
# A check script's first line of a failure (profile, sanitize, method...).
CHECK_FAILURE_MARKERS = ("FAILED", "WRONG", "error")


def first_failure(output, count):
    """(lines, more): the first failure of a test's output, at most `count`
    lines, and how many more failures the output holds. A GoogleTest failure
    is its "file:line: Failure" line and the message after it, up to the next
    failure (so the mismatch's values are shown once, not the head of each
    failure); a check script's is from the first line marked FAILED, WRONG
    or error; else the output's last lines."""
    lines = [line.rstrip() for line in output.splitlines()
             if line.strip() and not line.startswith(GTEST_CHATTER)]
    starts = [i for i, line in enumerate(lines) if line.endswith(": Failure")]
    if starts:
        end = starts[1] if len(starts) > 1 else len(lines)
        return lines[starts[0]:end][:count], len(starts) - 1
    for marker in CHECK_FAILURE_MARKERS:
        for i, line in enumerate(lines):
            if marker in line:
                return lines[i:i + count], 0
    return lines[-count:], 0
