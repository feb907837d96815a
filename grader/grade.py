#!/usr/bin/env python3
"""Grade students' submissions of the workbook (for instructors).

  ./workbook grade SUBMISSION [--out DIR]
  ./workbook grade --batch FOLDER --out OUTDIR [--jobs N] [--regrade]
  ./workbook grade --check-points

A submission is a folder or an archive (.zip, .tar, .tar.gz, .tgz, .tar.bz2,
.tar.xz) holding a student's exercise files as starter/<section>/<exercise>.cu,
as <section>/<exercise>.cu, or either inside one wrapping folder. Only the
exercise files named by this repository's solutions/ are taken; anything else
in a submission is ignored, so it cannot replace a test, the harness, a
contract or a reference answer. Archives are read without extracting: no
path leaves the submission, links are not followed, sizes are capped.

Each submission is compiled against this repository's contracts, harness and
tests in a lean build (the starter's exercises, the tests and the kernel
runner) under --work: one build folder per submission graded at once,
configured once and reused, so the next submission recompiles only the
exercise files that differ. An exercise file missing from a submission scores
0 (or is graded as the pristine starter: see missing_exercise in the points
file).

No student host code runs in a test process. A kernel exercise is compiled as
device code only, into a module of its own that the tests, the runner and the
profile and sanitizer checks load at run time (chapters/common/
exercise_kernel.h): a constructor, an exit handler or a definition of a
harness function in it is never compiled. The host exercise
(reduction/effectiveBandwidth) is compiled into an object that is checked
before it is linked (wbcore/object_check.py: it may define only its
exercise's functions and call only what a pure function needs); one that
reaches outside is REFUSED, scoring 0 with the symbol named. Its function is
called in a child process. Every test passes only when GoogleTest's own
report, written where tests/checks/gtest_verdict.py chose, says so, and the list of
tests comes from builds without student code: a test missing from a run
fails.

Each exercise is compiled on its own, under limits on memory, CPU and wall
time (the CMake cache variables WB_COMPILE_MEMORY_MB, WB_COMPILE_CPU_SECONDS
and WB_COMPILE_WALL_SECONDS; --cmake-arg changes them): one that does not
compile, or hits a limit, scores 0 with the compiler's errors or the limit
named, and the pristine starter takes its place, so the others are still
graded; one that breaks linking is treated alike. Then the starter tests run
under CTest with their per-test timeouts (a hang fails that test only),
including the Nsight Compute (profile) and compute-sanitizer (sanitize) checks
when a GPU is present. Without a GPU (or with --no-gpu) the build and the host
tests still run; GPU checks are reported NOT RUN (0 points, not failed) with
the reason.

Result cache: most submissions share most exercise files (an untouched
exercise is the pristine starter), so a test's outcome is reused when the
same test already ran the same code: the same exercise files (every module it
loaded and every object it linked, as recorded for each test run), on the
same repository, toolchain, GPU, --cmake-arg options and WB_* environment
variables (such as WB_SEED). So one submission never changes another's grade:
a batch grades every submission exactly as it grades it alone. Only the tests
that miss run, so a class costs about one run per distinct exercise file
instead of a full suite per submission. The cache lives in --work/cache
(delete the folder to empty it); performance (perf) tests are always measured
afresh, and tests that were not run, timed out, crashed or did not report are
never stored, nor anything of a run stopped at --suite-timeout. summary.txt
and the batch log say how many tests were reused. --no-cache runs every test
of every submission.

Outputs per submission, in OUT (default build-grade/results/<name>), each
written atomically:
  results.json   Gradescope's format: score, and per check (an exercise's
                 tests of one kind, or a section's tests that name no
                 exercise) name, score, max_score, output, visibility
  junit.xml      the same checks as a JUnit report
  summary.txt    for the student: points per section, exercise and check;
                 what failed, with the first lines of each failure (hidden
                 checks are only counted, not shown)

Points: grader/points.toml (or --points FILE) holds the points of every
exercise for every kind of check (correctness, random sizes, use of shared
memory, bank conflicts, sanitizer, host tests; section-wide performance
tests per section), whether points are proportional to the tests passed or
all-or-nothing, and which checks are hidden (visibility after_due_date). Its
comments explain the format; --check-points validates it and prints the
points table. It needs Python 3.11 or newer (tomllib).

Batch mode grades each entry of FOLDER (a folder or an archive) into
OUTDIR/<name>/ and writes OUTDIR/gradebook.csv (submission, total, max, one
column per section, status, reason). Status is the first that applies of:
error (the submission could not be read, or the grading build failed),
empty (no exercise file), refused (an exercise file includes or reaches
outside its exercise), compile-errors, timeout (a test hung), ok. --jobs N
grades N submissions at once (N build folders): the correctness and
sanitizer checks of different submissions may run on the GPU at the same
time, while the timing-sensitive performance (perf) and Nsight Compute
(profile) checks run one submission at a time, so timings stay fair. Ctrl-C
stops at once; run the same command again to resume: submissions whose
results.json exists are not graded again (except those with status error)
unless --regrade. The gradebook is rewritten after every submission.

Gradescope: in run_autograder, `./workbook grade /autograder/submission
--out /autograder/results` writes results.json where Gradescope reads it.

Exit status: 0 graded (in batch mode: every submission, whatever its
status), 1 the one submission could not be graded (status error), 2 bad
arguments, points file or missing tools, 130 interrupted.

The student's code is compiled and run: grade in a container or a VM you
can throw away.
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
    ap = argparse.ArgumentParser(prog="workbook grade", description=__doc__,
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
    sys.exit(main(sys.argv[1:]))
