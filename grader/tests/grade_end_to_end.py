#!/usr/bin/env python3
"""End-to-end test of ./workbook grade: grades a small class in batch mode,
on any machine (without a GPU the GPU checks are NOT RUN):

  starter.zip  the pristine starter, as an archive of starter/<section>/...
  solutions/   the reference solutions, copied in as starter/ files
  broken/      the starter with one exercise that does not compile
  empty/       no exercise file at all

and checks that every results.json is valid for Gradescope, that the
solutions never score below the starter, that the broken exercise (and only
it) lost its points with the compiler's errors shown, that the empty one is
scored 0 with its reason, that points.toml matches the suite (no check
without tests), that the starter (graded after the broken one, whose files
as compiled are the starter's) reuses that run's outcomes from the result
cache, that the starter's TODO exercises are not attempted (none of their
tests runs), and that grading again resumes without regrading.

The GPU checks are left out (--no-gpu) unless --gpu is given: with them,
the class takes tens of minutes on a GPU (the sanitizer and profiler runs),
and the solutions must then earn every point but the performance ones.
The build folders live in --work and are reused from run to run; the result
cache in --work is emptied first, so every run starts from the same state.
Exit 0 pass, 1 fail, 77 skipped (Python older than 3.11).
"""
import argparse
import csv
import json
import pathlib
import shutil
import sys
import tempfile
import zipfile

if sys.version_info < (3, 11):
    print(f"skipped: the grader needs Python 3.11 or newer (tomllib); this is "
          f"{sys.version.split()[0]}")
    sys.exit(77)

from wbcore import course as wbex  # noqa: E402
from grader import report as gr  # noqa: E402
from classgrading import Checker, grade  # noqa: E402

BROKEN = wbex.Exercise("layout", "setRowReadCol")


def make_class(folder):
    all_ex = wbex.exercises()
    with zipfile.ZipFile(folder / "starter.zip", "w") as archive:
        for e in all_ex:
            archive.write(e.starter_file(), f"starter/{e.key}.cu")
    for name, source in (("solutions", wbex.Exercise.solution_file),
                         ("broken", wbex.Exercise.starter_file)):
        for e in all_ex:
            target = folder / name / "starter" / f"{e.key}.cu"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source(e), target)
    broken = folder / "broken" / "starter" / f"{BROKEN.key}.cu"
    broken.write_text(broken.read_text() + "\nthis line is not CUDA;\n")
    (folder / "empty").mkdir()
    (folder / "empty" / "README.txt").write_text("nothing done\n")


def check_results(out, check):
    docs = {}
    for name in ("starter", "solutions", "broken", "empty"):
        path = out / name / gr.RESULTS
        try:
            doc = json.loads(path.read_text())
        except (OSError, ValueError) as err:
            check.expect(False, f"{path} is missing or not JSON: {err}")
            continue
        problems = gr.validate_results(doc)
        check.expect(not problems, f"{path} is not valid: {problems}")
        for other in (gr.JUNIT, gr.SUMMARY):
            check.expect((out / name / other).is_file(), f"{out / name / other} is missing")
        docs[name] = doc
    return docs


def check_scores(docs, check, gpu_used):
    if len(docs) < 4:
        return
    status = {n: d["extra_data"]["status"] for n, d in docs.items()}
    check.expect(status == {"starter": "ok", "solutions": "ok", "broken": "compile-errors",
                            "empty": "empty"}, f"unexpected statuses {status}")
    check.expect(docs["solutions"]["score"] >= docs["starter"]["score"],
                 f"the solutions score {docs['solutions']['score']} below the starter "
                 f"{docs['starter']['score']}")
    check.expect(docs["solutions"]["score"] > 0,
                 "the solutions earn nothing (even their host tests should pass)")
    check.expect(docs["empty"]["score"] == 0, "an empty submission earned points")
    for name, doc in docs.items():
        check.expect(not doc["extra_data"]["points_warnings"],
                     f"grader/points.toml does not match the suite: "
                     f"{doc['extra_data']['points_warnings']}")
    for test in docs["broken"]["tests"]:
        if test["name"].startswith(BROKEN.key + ":"):
            check.expect(test["score"] == 0 and "COMPILE ERROR" in test["output"]
                         and "error" in test["output"],
                         f"{test['name']} of the broken submission lacks its compile error")
    starter_scores = {t["name"]: t["score"] for t in docs["starter"]["tests"]}
    for test in docs["broken"]["tests"]:
        if not test["name"].startswith(BROKEN.key + ":"):
            check.expect(test["score"] == starter_scores.get(test["name"]),
                         f"{test['name']}: the broken submission's other exercises must score "
                         "as the starter does")
    # broken/ is graded before starter.zip and compiles as the starter does
    # (its broken file replaced by the pristine one), so the starter's
    # cacheable tests all come from broken/'s run.
    reused = docs["starter"]["extra_data"].get("tests_reused", 0)
    check.expect(reused > 0, "the starter reused no test outcome of the broken submission")
    # The starter's TODO exercises are not attempted: 0 with that reason, and
    # none of their tests ran, so what it reused are the worked examples'
    # tests, which the solutions share; the solutions can reuse no more.
    to_do = {e.key for e in wbex.exercises() if not e.worked_example}
    for test in docs["starter"]["tests"]:
        if test["name"].split(":")[0] in to_do:
            check.expect(test["score"] == 0 and "NOT ATTEMPTED" in test["output"],
                         f"{test['name']} of the starter is not said to be not attempted: "
                         f"{test['output'][:200]}")
    check.expect(docs["solutions"]["extra_data"].get("tests_reused", 0) <= reused,
                 "the solutions reused more outcomes than the starter")
    if gpu_used:
        for test in docs["solutions"]["tests"]:
            check.expect(test["score"] == test["max_score"] or "performance" in test["name"],
                         f"the reference solution misses points on a GPU: {test['name']}: "
                         f"{test['output'][:400]}")


def check_gradebook(out, docs, check):
    try:
        with open(out / gr.GRADEBOOK, newline="") as handle:
            rows = {row["submission"]: row for row in csv.DictReader(handle)}
    except OSError as err:
        check.expect(False, f"no gradebook: {err}")
        return
    check.expect(sorted(rows) == sorted(docs), f"gradebook rows {sorted(rows)}")
    for name, doc in docs.items():
        if name in rows:
            check.expect(float(rows[name]["total"]) == doc["score"],
                         f"gradebook total of {name} differs from its results.json")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--work", type=pathlib.Path, required=True,
                    help="build folders for the grading builds (kept and reused)")
    ap.add_argument("--cmake-arg", action="append", default=[], metavar="ARG",
                    help="passed on to the grader (e.g. -DCMAKE_CUDA_ARCHITECTURES=90)")
    ap.add_argument("--gpu", action="store_true",
                    help="run the GPU checks too (needs a GPU; tens of minutes)")
    ap.add_argument("--keep", action="store_true", help="keep the graded outputs")
    args = ap.parse_args()
    check = Checker()
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="wb-grading-"))
    try:
        submissions, out = tmp / "submissions", tmp / "graded"
        submissions.mkdir()
        make_class(submissions)
        shutil.rmtree(args.work / "cache", ignore_errors=True)
        status, _ = grade(submissions, out, args)
        check.expect(status == 0, f"grading exited {status}")
        docs = check_results(out, check)
        gpu_used = bool(docs) and not any(d["extra_data"]["gpu_missing"] for d in docs.values())
        check_scores(docs, check, gpu_used)
        check_gradebook(out, docs, check)
        if "starter" in docs:
            summary = (out / "starter" / gr.SUMMARY).read_text()
            check.expect("tests reused from earlier identical runs" in summary,
                         "the starter's summary.txt does not say how many tests were reused")
        before = {n: (out / n / gr.RESULTS).stat().st_mtime_ns for n in docs}
        status, said = grade(submissions, out, args)
        check.expect(status == 0 and "4 of 4 submissions already graded" in said,
                     "grading again did not resume (every submission was graded already)")
        check.expect(before == {n: (out / n / gr.RESULTS).stat().st_mtime_ns for n in docs},
                     "grading again rewrote finished results")
    finally:
        if args.keep:
            print(f"outputs kept in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return check.exit_status("grading end-to-end: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
