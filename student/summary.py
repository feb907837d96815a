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
from student.i18n import t

FAILURE_LINES = 4
MAX_FAILURES_SHOWN = 8


def failure_lines(result, lines=FAILURE_LINES):
    """The first lines of a failure's message that say something: GoogleTest's
    failure lines where there are some, else the first non-empty lines."""
    # Lines are picked by their English words, then shown in the language in
    # use (i18n.output_line).
    shown = i18n.output_line
    text = [l.strip() for l in result.output.splitlines() if l.strip()]
    # A check script's message (sanitize, profile) starts with "FAILED" and
    # goes on with indented lines that say where and why: keep them, with
    # their indentation.
    raw = [l.rstrip() for l in result.output.splitlines() if l.strip()]
    starts = [i for i, l in enumerate(raw) if l.startswith("FAILED ")]
    if starts:
        return [shown(l)[:200] for l in raw[starts[0]:starts[0] + lines + 1]]
    keep = [l for l in text if "Failure" in l or "xpected" in l or "differ" in l
            or "Which is" in l or "failed" in l or "wrote" in l]
    return [shown(l)[:160] for l in (keep or text)[:lines]]


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
    groups = collections.OrderedDict()
    failures = []
    for r in results:
        groups.setdefault(group_key(r, listed), collections.Counter())[r.result] += 1
        if r.result == "failed":
            failures.append(r)
    lines = []
    for (where, kind), counter in groups.items():
        parts = [t(f"summary.{k}", n=counter[k]) for k in ("passed", "failed", "skipped")
                 if counter[k]]
        lines.append(t("summary.group", where=where, kind=kind,
                       counts=("，" if i18n.is_zh() else ", ").join(parts)))
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
