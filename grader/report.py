"""What grading writes: results.json (Gradescope's format), a JUnit XML
report, summary.txt for the student, and the class's gradebook.csv.

Every file is written atomically (a temporary file in the same folder, then
a rename), so an interrupted grader leaves either the old file or the new
one, never half of one. results.json is written last: its presence marks a
submission as graded.
"""
import csv
import io
import json
import math
import pathlib
import re
import xml.etree.ElementTree as ET

from wbcore import course as wbex
from wbcore import results as wbres
from wbcore.files import atomic_write  # noqa: F401 (the grader writes through gr.atomic_write)
from . import score as gs
from .points import HIDDEN_VISIBILITY, VISIBILITIES

RESULTS = "results.json"
JUNIT = "junit.xml"
SUMMARY = "summary.txt"
GRADEBOOK = "gradebook.csv"
BATCH_RECORD = "batch.json"    # the batch's folder and each run's wall-clock time
OUTPUT_FORMATS = ("text", "html", "simple_format", "md", "ansi")
MAX_OUTPUT_CHARS = 8000        # per check in results.json and the JUnit report
FAILURES_SHOWN = 3             # failing tests detailed per check in summary.txt
# GoogleTest's lines that say nothing about a failure.
FAILURE_LINES_RECORDED = 4     # lines of each failing test kept in extra_data["failures"]
# The one line every performance test prints (tests/harness/include/wb/perf_ratio.h):
# "slow 0.1230 ms / fast 0.0870 ms = 1.41x (need >= 1.15x)". Read for the
# class report's distribution of ratios only, never for points: the student's
# kernels share the test's output (device printf), so the line could be forged.
PERF_LINE_RE = re.compile(r"^(?P<slow>\S+) (?P<slow_ms>[0-9.eE+-]+) ms / (?P<fast>\S+) "
                          r"(?P<fast_ms>[0-9.eE+-]+) ms = (?P<ratio>[0-9.eE+-]+)x "
                          r"\(need (?P<need>>=|<=) (?P<limit>[0-9.eE+-]+)x\)", re.M)


def _clip(text, limit=MAX_OUTPUT_CHARS):
    return text if len(text) <= limit else text[:limit] + "\n... (cut)"


def _points(value):
    return round(value, 4)


def failure_lines(output, count):
    """The first `count` lines of a test's first failure
    (wbcore/results.py first_failure), and a line saying how many more
    failures the test had, if any."""
    lines, more = wbres.first_failure(output, count)
    if more:
        lines = lines + [f"(and {more} more failure(s) in this test)"]
    return lines


def _excerpt(t, count, spaces):
    return [" " * spaces + line for line in failure_lines(t.output, count)]


def _test_line(t, with_reason=True):
    mark = {gs.PASSED: "passed ", gs.FAILED: "FAILED ", gs.NOT_RUN: "NOT RUN"}[t.result]
    line = f"{mark} {t.short_name}"
    return line + (f": {t.reason}" if t.reason and with_reason else "")


def check_output(result, split):
    """The text shown for one check: why it has its score, then its tests."""
    lines = []
    if result.message:
        lines.append(result.message)
    # Tests of an exercise not graded (a compile error) ran the pristine
    # starter instead: they say nothing about the student's file.
    tests = result.tests if result.state != gs.STATE_NOT_GRADED else []
    if tests:
        passed = sum(1 for t in tests if t.result == gs.PASSED)
        rule = ("points in proportion to the tests passed" if split == "proportional"
                else "all of the points only when every test passes")
        lines.append(f"{passed} of {len(tests)} tests passed ({rule}).")
        if result.state == gs.STATE_FAILED and result.failure_note:
            lines.append(result.failure_note)
        # A check that did not run says why once, in its message.
        reasons = result.state != gs.STATE_NOT_RUN
        for t in sorted(tests, key=lambda t: (t.result == gs.PASSED, t.name)):
            lines.append(_test_line(t, reasons or t.result != gs.NOT_RUN))
            if t.result == gs.FAILED:
                lines += _excerpt(t, 12, 4)
    return "\n".join(lines)


def visibility(result):
    return HIDDEN_VISIBILITY if result.check.hidden else "visible"


def perf_measurement(t):
    """What a performance test measured, from the line it prints: {test,
    section, result, reused, ratio, need ('>=' or '<='), limit, slow, fast,
    slow_ms, fast_ms}; ratio and the rest are None when the test printed no
    such line (not run, or it failed before timing)."""
    found = PERF_LINE_RE.search(t.output or "")
    record = {"test": t.short_name, "result": t.result, "reused": t.reused,
              "ratio": None, "need": None, "limit": None,
              "slow": None, "fast": None, "slow_ms": None, "fast_ms": None}
    if found:
        try:
            numbers = {k: float(found.group(k)) for k in ("ratio", "limit", "slow_ms", "fast_ms")}
        except ValueError:
            return record
        if all(math.isfinite(v) for v in numbers.values()):
            record.update(numbers, need=found.group("need"), slow=found.group("slow"),
                          fast=found.group("fast"))
    return record


def failure_record(result):
    """The failing tests of one check as the class report groups them:
    [{test, reason, lines}], lines the first lines of its failure; a check
    not graded from the student's file (a compile error) is one entry with
    the first lines of why."""
    if result.state == gs.STATE_NOT_GRADED:
        lines = [line for line in result.message.splitlines() if line.strip()]
        return [{"test": "", "reason": "", "lines": lines[:FAILURE_LINES_RECORDED]}]
    return [{"test": t.short_name, "reason": t.reason,
             "lines": failure_lines(t.output, FAILURE_LINES_RECORDED)}
            for t in result.tests if t.result == gs.FAILED]


def _book_exercises_record(grade):
    """results.json's extra_data.book_exercises: the book's end-of-chapter
    exercises as one set (Grade.book_exercises)."""
    score, worth, numbers = grade.book_exercises()
    return {"score": _points(score), "max_score": _points(worth),
            "numbers": [wbex.book_ref(n) for n in numbers]}


def book_exercises_line(grade):
    """summary.txt's line on the book's end-of-chapter exercises, or ""."""
    score, worth, numbers = grade.book_exercises()
    if worth <= 0:
        return ""
    listed = ", ".join(wbex.book_ref(n) for n in numbers)
    return (f"The book's end-of-chapter exercises ({listed}): {_points(score):g} of "
            f"{_points(worth):g}, counted in their sections below.")


def results_document(grade, split):
    """The Gradescope results.json of a grade, as a dict."""
    tests = []
    for r in grade.results:
        tests.append({
            "name": r.name,
            "score": _points(r.score),
            "max_score": _points(r.max_score),
            "status": "passed" if r.score >= r.max_score else "failed",
            "output": _clip(check_output(r, split)),
            "output_format": "text",
            "visibility": visibility(r),
            "execution_time": round(r.seconds, 3),
            "tags": [r.check.section, r.check.kind],
        })
    return {
        "score": _points(sum(t["score"] for t in tests)),
        "execution_time": round(grade.seconds, 1),
        "output": overview(grade),
        "output_format": "text",
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
        "extra_data": {
            "submission": grade.submission,
            "status": grade.status,
            "reason": grade.reason,
            "max_score": _points(grade.max_score),
            "sections": {s: {"score": _points(v[0]), "max_score": _points(v[1])}
                         for s, v in grade.sections().items()},
            "book_exercises": _book_exercises_record(grade),
            "gpu_missing": grade.gpu_missing,
            "ungraded_tests": grade.ungraded,
            "points_warnings": grade.warnings,
            "tests_total": grade.tests_total,
            "tests_reused": grade.tests_reused,
            # For the class report (grader/classreport.py): what the
            # performance tests measured, the failures in a form to group,
            # the exercise files equal to the reference solutions and the
            # exercises left as the starter gives them.
            "perf": [dict(perf_measurement(t), section=r.check.section)
                     for r in grade.results for t in r.tests if "perf" in t.labels],
            "failures": {r.name: failure_record(r) for r in grade.results
                         if r.score < r.max_score and r.state in (gs.STATE_FAILED,
                                                                  gs.STATE_NOT_GRADED)},
            "reference_files": sorted(grade.reference_files),
            "untouched_files": sorted(grade.untouched_files),
            # The random inputs' seed: WB_SEED=<seed> replays this grading's tests.
            "seed": None if grade.seed is None else str(grade.seed),
            # False where grading ran with --unconfined: no sandbox around
            # the student's compiles and tests (docs/grading.md).
            "confined": grade.confined,
        },
    }


def _number(value):
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


def validate_results(doc):
    """Problems with a results.json document (an empty list when valid)."""
    problems = []
    if not isinstance(doc, dict):
        return ["the document is not a JSON object"]
    if not _number(doc.get("score")) or doc["score"] < 0:
        problems.append("score must be a number >= 0")
    if "visibility" in doc and doc["visibility"] not in VISIBILITIES:
        problems.append(f"visibility {doc['visibility']!r} is not one of {VISIBILITIES}")
    if "execution_time" in doc and (not _number(doc["execution_time"])
                                    or doc["execution_time"] < 0):
        problems.append("execution_time must be a number >= 0")
    tests = doc.get("tests")
    if not isinstance(tests, list):
        return problems + ["tests must be a list"]
    names = set()
    total = 0.0
    for i, test in enumerate(tests):
        where = f"tests[{i}]"
        if not isinstance(test, dict):
            problems.append(f"{where} is not an object")
            continue
        name = test.get("name")
        if not isinstance(name, str) or not name.strip():
            problems.append(f"{where}.name must be a non-empty string")
        elif name in names:
            problems.append(f"{where}.name {name!r} is not unique")
        names.add(name)
        score, max_score = test.get("score"), test.get("max_score")
        if not _number(score) or score < 0:
            problems.append(f"{where}.score must be a number >= 0")
        if not _number(max_score) or max_score < 0:
            problems.append(f"{where}.max_score must be a number >= 0")
        if _number(score) and _number(max_score) and score > max_score + 1e-9:
            problems.append(f"{where}.score {score} exceeds max_score {max_score}")
        if _number(score):
            total += score
        if not isinstance(test.get("output"), str):
            problems.append(f"{where}.output must be a string")
        if test.get("visibility") not in VISIBILITIES:
            problems.append(f"{where}.visibility {test.get('visibility')!r} is not one of "
                            f"{VISIBILITIES}")
        if "execution_time" in test and (not _number(test["execution_time"])
                                         or test["execution_time"] < 0):
            problems.append(f"{where}.execution_time must be a number >= 0")
        if "output_format" in test and test["output_format"] not in OUTPUT_FORMATS:
            problems.append(f"{where}.output_format {test['output_format']!r} is not one of "
                            f"{OUTPUT_FORMATS}")
    extra = doc.get("extra_data", {})
    if isinstance(extra, dict) and "status" in extra and extra["status"] not in gs.STATUSES:
        problems.append(f"extra_data.status {extra['status']!r} is not one of {gs.STATUSES}")
    if _number(doc.get("score")) and abs(total - doc["score"]) > 1e-6 * max(1.0, total):
        problems.append(f"score {doc['score']} is not the sum of the tests' scores {total}")
    return problems


def load_results(path):
    """A results.json document when it exists and is valid, else None."""
    try:
        doc = json.loads(pathlib.Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc if not validate_results(doc) and isinstance(doc.get("extra_data"), dict) else None


def junit_document(grade, split):
    """A JUnit XML report: one test suite per section, one test case per check."""
    suites = ET.Element("testsuites", name=f"workbook grade {grade.submission}")
    by_section = {}
    for r in grade.results:
        by_section.setdefault(r.check.section, []).append(r)
    for section, results in by_section.items():
        suite = ET.SubElement(suites, "testsuite", name=f"{grade.submission}.{section}",
                              tests=str(len(results)))
        failures = skipped = 0
        for r in results:
            owner = r.check.exercise or "section"
            case = ET.SubElement(suite, "testcase", name=r.title,
                                 classname=f"{grade.submission}.{section}.{owner}",
                                 time=f"{r.seconds:.3f}")
            props = ET.SubElement(case, "properties")
            for key, value in (("score", r.score), ("max_score", r.max_score),
                               ("visibility", visibility(r))):
                ET.SubElement(props, "property", name=key, value=str(value))
            text = _clip(check_output(r, split))
            if r.state == gs.STATE_NOT_RUN:
                skipped += 1
                ET.SubElement(case, "skipped", message=r.message[:200])
            elif r.score < r.max_score:
                failures += 1
                failure = ET.SubElement(case, "failure", message=f"{r.state}: "
                                        f"{_points(r.score)} of {_points(r.max_score)} points")
                failure.text = text
            ET.SubElement(case, "system-out").text = text
        suite.set("failures", str(failures))
        suite.set("skipped", str(skipped))
    ET.indent(suites)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            + ET.tostring(suites, encoding="unicode") + "\n")


def overview(grade):
    """The few lines at the top of summary.txt and of results.json's output."""
    visible = [r for r in grade.results if not r.check.hidden]
    hidden = [r for r in grade.results if r.check.hidden]
    lines = [f"Submission {grade.submission}: "
             f"{_points(sum(r.score for r in visible)):g} of "
             f"{_points(sum(r.max_score for r in visible)):g} points"
             + (" in the visible checks" if hidden else ""),
             f"Status: {grade.status}" + (f" ({grade.reason})" if grade.reason else "")]
    if hidden:
        worth = _points(sum(r.max_score for r in hidden))
        lines.append(f"{len(hidden)} hidden checks worth {worth:g} "
                     "more points are graded too; they are shown after the due date.")
    if grade.gpu_missing:
        lines.append(f"No GPU was used ({grade.gpu_missing}): the GPU checks were NOT RUN "
                     "(0 points here, not failed). Grade again on a "
                     "machine with a GPU for those points.")
    lines += grade.notes
    return "\n".join(lines)


def reused_line(grade):
    """How much of the test run the result cache saved (grading_cache)."""
    return (f"{grade.tests_reused} of {grade.tests_total} tests reused from earlier identical "
            "runs")


def _indent(text, spaces):
    return "\n".join(" " * spaces + line if line.strip() else line for line in text.splitlines())


def _summary_check(r, gpu_missing):
    """Lines for one check in summary.txt: its points, and what went wrong."""
    head = f"    {r.title}: {_points(r.score):g} of {_points(r.max_score):g}"
    if r.state == gs.STATE_PASSED:
        return [head]
    lines = [head + f"  {r.state.upper()}"]
    said_at_the_top = r.state == gs.STATE_NOT_RUN and gpu_missing and gpu_missing in r.message
    if r.message and not said_at_the_top:
        lines.append(_indent("\n".join(r.message.splitlines()[:12]), 6))
    failed = [t for t in r.tests if t.result == gs.FAILED]
    if failed and r.failure_note:
        lines.append(_indent(r.failure_note, 6))
    for t in failed[:FAILURES_SHOWN]:
        lines.append(f"      {_test_line(t)}")
        lines += _excerpt(t, 8, 8)
    if len(failed) > FAILURES_SHOWN:
        lines.append(f"      ... and {len(failed) - FAILURES_SHOWN} more failing tests")
    return lines


def summary_text(grade):
    """summary.txt: per section and exercise, the points and what failed."""
    lines = [overview(grade)]
    if grade.tests_reused:
        # Outcomes of the same tests on the same exercise files, taken from
        # an earlier submission's run rather than measured again.
        lines.append(reused_line(grade) + " (the same test on the same exercise files).")
    if grade.seed is not None:
        lines.append(f"Random inputs from seed {grade.seed}: WB_SEED={grade.seed} ./workbook "
                     "check EXERCISE replays them.")
    if not grade.confined:
        lines.append("UNCONFINED: graded with --unconfined, without the sandbox around the "
                     "compiles and the tests.")
    if grade.status not in ("empty", "error") and book_exercises_line(grade):
        lines.append(book_exercises_line(grade))
    lines.append("")
    totals = grade.sections()
    if grade.status in ("empty", "error"):
        # Nothing was graded, for the one reason the overview gives.
        for section, (_, worth) in totals.items():
            lines.append(f"{section} (book {wbex.book_of(section)}): 0 of {worth:g}")
        return "\n".join(lines) + "\n"
    for section in totals:
        visible = [r for r in grade.results if r.check.section == section and not r.check.hidden]
        if not visible:
            continue
        score = sum(r.score for r in visible)
        worth = sum(r.max_score for r in visible)
        lines.append(f"{section} (book {wbex.book_of(section)}): "
                     f"{_points(score):g} of {_points(worth):g}")
        owners = []
        for r in visible:
            if r.check.owner not in owners:
                owners.append(r.check.owner)
        for owner in owners:
            mine = [r for r in visible if r.check.owner == owner]
            label = owner.split("/", 1)[1] if "/" in owner else "section-wide tests"
            lines.append(f"  {label}: {_points(sum(r.score for r in mine)):g} of "
                         f"{_points(sum(r.max_score for r in mine)):g}")
            if all(r.state == gs.STATE_NOT_GRADED for r in mine) and mine[0].message:
                # One reason for all of them (a compile error): say it once.
                lines.append(_indent("\n".join(mine[0].message.splitlines()[:15]), 6))
                continue
            for r in mine:
                lines += _summary_check(r, grade.gpu_missing)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def write_outputs(grade, out_dir, split):
    """summary.txt, the JUnit report, then results.json (last: its presence
    means the submission is graded)."""
    out_dir = pathlib.Path(out_dir)
    atomic_write(out_dir / SUMMARY, summary_text(grade))
    atomic_write(out_dir / JUNIT, junit_document(grade, split))
    atomic_write(out_dir / RESULTS, json.dumps(results_document(grade, split), indent=2) + "\n")


# A spreadsheet reads a cell that starts with one of these as a formula;
# a submission's name (and the reason, which quotes it) is the student's
# text, so such a cell is written as text: a leading apostrophe.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(value):
    """value as a cell a spreadsheet shows as text, never runs as a formula."""
    value = str(value)
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def gradebook_text(rows, sections):
    """gradebook.csv from (submission name, results.json document) rows. The
    name and the reason are written as text for spreadsheets
    (spreadsheet_text): a submission named =HYPERLINK(...) is not a formula.
    Where the book's end-of-chapter exercises were graded, a column
    book_exercises after the sections holds their score as one set (counted
    in the sections too)."""
    def book(extra):
        record = extra.get("book_exercises")
        return record if isinstance(record, dict) and record.get("max_score", 0) > 0 else None

    with_book = any(book(doc.get("extra_data", {})) for _, doc in rows)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["submission", "total", "max"] + list(sections)
                    + (["book_exercises"] if with_book else []) + ["status", "reason"])
    for name, doc in rows:
        extra = doc.get("extra_data", {})
        per = extra.get("sections", {})
        record = book(extra)
        writer.writerow([spreadsheet_text(name), f"{doc['score']:g}",
                         f"{extra.get('max_score', 0):g}"]
                        + [f"{per[s]['score']:g}" if s in per else "" for s in sections]
                        + ([f"{record['score']:g}" if record else ""] if with_book else [])
                        + [extra.get("status", "?"), spreadsheet_text(extra.get("reason", ""))])
    return buffer.getvalue()


def record_batch_run(out_dir, folder, started, seconds, graded, jobs, interrupted=False):
    """Add one run of `workbook grade --batch` to OUT/batch.json: the
    submissions' folder (where the similarity report reads the exercise
    files) and the run's start, wall-clock seconds and submissions graded
    (the class report's "time the batch took")."""
    record = load_batch_record(out_dir)
    record["folder"] = str(pathlib.Path(folder).resolve())
    record["runs"].append({"started": started, "seconds": round(seconds, 1), "graded": graded,
                           "jobs": jobs, "interrupted": interrupted})
    atomic_write(pathlib.Path(out_dir) / BATCH_RECORD, json.dumps(record, indent=2) + "\n")


def load_batch_record(out_dir):
    """OUT/batch.json as {folder, runs}; empty when absent or unreadable."""
    try:
        record = json.loads((pathlib.Path(out_dir) / BATCH_RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        record = None
    if not isinstance(record, dict):
        record = {}
    runs = record.get("runs")
    record["runs"] = [r for r in runs if isinstance(r, dict)] if isinstance(runs, list) else []
    if not isinstance(record.get("folder"), str):
        record["folder"] = None
    return record
