"""A short account of a CTest run for the student: per exercise and kind of
check (host, gpu, perf, profile, sanitize), how many passed, failed and were
skipped, and the first lines of each failure's message, read from CTest's
JUnit output (wbcore/results.py) and the build's listing (which test belongs
to which exercise: wbcore/ctest_listing.py).

  python3 -m student.summary JUNIT.xml   (every test under its name's section)
"""
import collections
import sys

from student import i18n
from wbcore import results as wbres
from student.i18n import t

FAILURE_LINES = 6
MAX_FAILURES_SHOWN = 8


def failure_lines(result, lines=FAILURE_LINES):
    """The first failure of a test (wbcore/results.py first_failure: the
    mismatch's lines once, not the head of every failure), in the language
    in use, and how many more failures it had."""
    found, more = wbres.first_failure(result.output, lines)
    shown = [i18n.output_line(line.strip() if not line.startswith(" ") else line)[:200]
             for line in found]
    if more:
        shown.append(t("summary.more_failures", n=more))
    return shown


def group_key(result, listed):
    """(exercise or section name, kind) of a result, from the listing."""
    test = listed.get(result.name)
    if test is None:
        return (t("summary.not_listed"), "?")
    if test.exercise is not None:
        where = test.exercise.key
    else:
        where = test.section or t("summary.workbook")
    kind = test.kind or "?"
    if f"kind.{kind}" in i18n.MESSAGES:
        kind = t(f"kind.{kind}")
    return (where, kind)


def summary_lines(results, listed):
    """The summary as a list of lines."""
    return group_lines(results, listed) + closing_lines(results)


def group_lines(results, listed):
    """One line per exercise and kind of check: how many passed, failed and
    were skipped."""
    groups = collections.OrderedDict()
    for r in results:
        groups.setdefault(group_key(r, listed), collections.Counter())[r.result] += 1
    lines = []
    for (where, kind), counter in groups.items():
        parts = [t(f"summary.{k}", n=counter[k]) for k in ("passed", "failed", "skipped")
                 if counter[k]]
        lines.append(t("summary.group", where=where, kind=kind,
                       counts=("，" if i18n.is_zh() else ", ").join(parts)))
    return lines


def closing_lines(results):
    """The totals, then the first lines of each failure (at most
    MAX_FAILURES_SHOWN)."""
    failures = [r for r in results if r.result == "failed"]
    lines = []
    total = collections.Counter(r.result for r in results)
    lines.append(t("summary.total", passed=total["passed"], failed=total["failed"],
                   skipped=total["skipped"]))
    for r in failures[:MAX_FAILURES_SHOWN]:
        lines.append(t("summary.failed_test", name=r.name))
        lines.extend("      " + l for l in failure_lines(r))
    if len(failures) > MAX_FAILURES_SHOWN:
        lines.append(t("summary.more", n=len(failures) - MAX_FAILURES_SHOWN))
    return lines


def main(argv):
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    from wbcore import results as wbres
    print("\n".join(summary_lines(wbres.load_junit(argv[0]), {})))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
