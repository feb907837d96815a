#!/usr/bin/env python3
"""Grade students' submissions of the workbook (for instructors).

Compiles each submission's exercise files against this repository's tests
and writes results.json (Gradescope), junit.xml and summary.txt per
submission, and gradebook.csv for a batch. The manual, docs/grading.md
(Doxygen page "Grading a class"), says what is graded and how.
"""
import argparse
import os
import pathlib
import sys

if sys.version_info < (3, 11):
    sys.exit("workbook grade needs Python 3.11 or newer (it reads grader/points.toml with "
             f"tomllib); this is Python {sys.version.split()[0]}")

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wbcore import build as wbbuild  # noqa: E402
from grader import build as gb  # noqa: E402
from grader import points as gp  # noqa: E402
from grader import report as gr  # noqa: E402
from grader import run as grun  # noqa: E402
from grader import submission as gsub  # noqa: E402

DEFAULT_WORK = ROOT / "build-grade" / "work"
DEFAULT_RESULTS = ROOT / "build-grade" / "results"


def parse_args(argv):
    # The usage names the three ways to call it; the manual is docs/grading.md,
    # so --help opens with a few lines and then the options.
    ap = argparse.ArgumentParser(
        prog="workbook grade", description=__doc__.split("\n\n", 1)[1],
        usage="%(prog)s SUBMISSION [--out DIR] [options]\n"
              "       %(prog)s --batch FOLDER --out OUTDIR [--jobs N] [--regrade] [options]\n"
              "       %(prog)s --check-points",
        epilog="The student's code is compiled and run: grade in a container or a VM you\n"
               "can throw away.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("submission", nargs="?", help="a folder or an archive to grade")
    ap.add_argument("--out", type=pathlib.Path,
                    help="output folder (default: build-grade/results/<name>; in batch mode "
                         "required: one folder per submission and gradebook.csv)")
    ap.add_argument("--batch", type=pathlib.Path, metavar="FOLDER",
                    help="grade every submission in FOLDER")
    ap.add_argument("--jobs", type=int, default=1,
                    help="batch: submissions graded at once (default 1)")
    ap.add_argument("--regrade", action="store_true",
                    help="batch: grade again submissions that already have a results.json")
    ap.add_argument("--points", type=pathlib.Path, default=gp.POINTS_FILE,
                    help="the points file (default grader/points.toml)")
    ap.add_argument("--check-points", action="store_true",
                    help="validate the points file, print its checks and exit")
    ap.add_argument("--work", type=pathlib.Path, default=DEFAULT_WORK,
                    help="where build folders live and are reused (default build-grade/work)")
    ap.add_argument("--no-cache", action="store_true",
                    help="run every test of every submission: reuse no outcome from the "
                         "result cache (--work/cache) and store none")
    ap.add_argument("--no-gpu", action="store_true",
                    help="do not run GPU checks even if a GPU is present (they are NOT RUN)")
    ap.add_argument("--test-jobs", type=int, default=4,
                    help="tests run at once by CTest (default 4; performance and profile "
                         "tests always run alone, one submission at a time)")
    ap.add_argument("--build-timeout", type=float, default=3600,
                    help="seconds one build step may take (default 3600)")
    ap.add_argument("--suite-timeout", type=float, default=3 * 3600,
                    help="seconds the test runs of one submission may take together, "
                         "not counting the wait for another submission's perf and profile "
                         "checks (default 10800); "
                         "each test also has its CTest timeout, e.g. "
                         "--cmake-arg=-DWB_TIMEOUT_gpu=30 shortens the GPU tests'")
    ap.add_argument("--cmake-arg", action="append", default=[], metavar="ARG",
                    help="extra argument for configuring the grading build, e.g. "
                         "--cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=90 (repeatable)")
    args = ap.parse_args(argv)
    if args.check_points:
        return args
    if (args.submission is None) == (args.batch is None):
        ap.error("give one SUBMISSION, or --batch FOLDER (see --help)")
    if args.batch is not None and args.out is None:
        ap.error("--batch needs --out OUTDIR")
    if args.jobs < 1 or args.test_jobs < 1:
        ap.error("--jobs and --test-jobs must be at least 1")
    return args


def print_points(points):
    print(f"{points.path}: {len(points.checks)} checks, {points.max_score:g} points, "
          f"split {points.split}, missing exercises score {points.missing_exercise}")
    for check in points.checks:
        hidden = "  (hidden)" if check.hidden else ""
        print(f"  {check.owner:40} {check.kind:16} {check.points:6g}{hidden}")


def main(argv):
    args = parse_args(argv)
    try:
        points = gp.load(args.points)
    except gp.PointsError as err:
        print(f"workbook grade: {err}", file=sys.stderr)
        return 2
    if args.check_points:
        print_points(points)
        return 0
    source = args.batch if args.batch is not None else pathlib.Path(args.submission)
    if not source.exists():
        print(f"workbook grade: no such {'folder' if args.batch else 'submission'}: {source}",
              file=sys.stderr)
        return 2
    if args.batch is not None and not source.is_dir():
        print(f"workbook grade: --batch needs a folder of submissions; {source} is not one",
              file=sys.stderr)
        return 2
    if args.batch is None and not source.is_dir() and gsub.archive_kind(source) is None:
        print(f"workbook grade: {source.name}: unknown archive type (a submission is "
              f"{gsub.ACCEPTED})", file=sys.stderr)
        return 2
    try:
        wbbuild.require_tools()
    except wbbuild.ToolMissing as err:
        print(f"workbook grade: {err}", file=sys.stderr)
        return 2
    gpu_present, gpu_note = (False, "--no-gpu was given") if args.no_gpu else wbbuild.gpu_present()
    print(f"GPU: {gpu_note}" if gpu_present else
          f"No GPU ({gpu_note}): compiling and running the host tests only; GPU checks are NOT RUN")
    options = grun.Options(points=points, work_dir=args.work.resolve(), gpu_present=gpu_present,
                           gpu_note=gpu_note,
                           build_jobs=max(1, (os.cpu_count() or 2) // args.jobs),
                           test_jobs=args.test_jobs, build_timeout=args.build_timeout,
                           suite_timeout=args.suite_timeout, cmake_args=tuple(args.cmake_arg),
                           cache=not args.no_cache)
    grader = grun.Grader(options)
    try:
        if args.batch is not None:
            out = args.out.resolve()
            graded = grun.grade_batch(grader, source, out, args.jobs, args.regrade)
            print(f"graded {graded} submission(s); gradebook: {out / 'gradebook.csv'}")
            return 0
        name = gsub.submission_name(source)
        out = (args.out or DEFAULT_RESULTS / name).resolve()
        print(f"grading {source} ...", flush=True)
        grade = grun.grade_one(grader, source, out)
    except (KeyboardInterrupt, gb.Interrupted):
        grader.commands.stop_all()
        print("workbook grade: interrupted; nothing half-written was kept. Run the same command "
              "again to resume.", file=sys.stderr)
        return 130
    print(f"{grade.submission}: {grade.score:g} of {grade.max_score:g} points, status "
          f"{grade.status}{': ' + grade.reason if grade.reason else ''}"
          + (f"; {gr.reused_line(grade)}" if grade.tests_reused else ""))
    for warning in grade.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(f"results: {out}/results.json, {out}/junit.xml, {out}/summary.txt")
    return 1 if grade.status == "error" else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:
        # The reader went away (`... --check-points | head`): nothing to report.
        sys.stderr.close()
        sys.exit(0)
