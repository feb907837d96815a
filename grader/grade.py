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
import signal
import sys
import traceback

if sys.version_info < (3, 11):
    sys.exit("workbook grade needs Python 3.11 or newer (it reads grader/points.toml with "
             f"tomllib); this is Python {sys.version.split()[0]}")

ROOT = pathlib.Path(__file__).resolve().parents[1]

from wbcore import build as wbbuild  # noqa: E402
from wbcore import sandbox  # noqa: E402
from grader import build as gb  # noqa: E402
from grader import classreport as gcr  # noqa: E402
from grader import points as gp  # noqa: E402
from grader import report as gr  # noqa: E402
from grader import run as grun  # noqa: E402
from grader import similarity as gsim  # noqa: E402
from grader import slurm as gslurm  # noqa: E402
from grader import submission as gsub  # noqa: E402

DEFAULT_WORK = ROOT / "build-grade" / "work"
DEFAULT_RESULTS = ROOT / "build-grade" / "results"

# The subcommands, one job each: {name: (its arguments, what it does, the
# flags it stands for given its positional argument, or None when it takes
# none)}. The flags stay for the scripts written against them (the Slurm
# jobs use them); the subcommands are the way in that docs/grading.md shows.
SUBCOMMANDS = {
    "one": ("SUBMISSION [--out DIR] [options]",
            "grade one submission, a folder or an archive", lambda p: [p]),
    "batch": ("FOLDER --out OUTDIR [--jobs N] [--regrade] [options]",
              "grade every submission in FOLDER: gradebook.csv and the class reports",
              lambda p: ["--batch", p]),
    "slurm": ("FOLDER --out OUTDIR [--group N] [--dry-run] [options] [-- SBATCH OPTIONS]",
              "grade a class as a Slurm job array, one GPU per task",
              lambda p: ["--batch", p, "--slurm"]),
    "status": ("OUTDIR", "how many submissions of a Slurm batch are done, running, pending "
                         "and failed", lambda p: ["--slurm-status", p]),
    "report": ("OUTDIR [--batch FOLDER] [--similarity-threshold T]",
               "draw again the class and similarity reports of a class graded in OUTDIR",
               lambda p: ["--report", p]),
    "points": ("[--points FILE]", "validate the points file and print its checks", None),
}


def from_subcommand(argv):
    """The flags that a subcommand's arguments stand for; argv as it is when
    its first word names no subcommand. Exits after a subcommand's --help
    (0) or without its positional argument (2)."""
    if not argv or argv[0] not in SUBCOMMANDS:
        return list(argv)
    name, rest = argv[0], list(argv[1:])
    arguments, what, flags = SUBCOMMANDS[name]
    own = rest[:rest.index("--")] if "--" in rest else rest
    if "-h" in own or "--help" in own:
        print(f"usage: workbook grade {name} {arguments}\n\n{what[0].upper()}{what[1:]}. "
              "The options are those of `workbook grade --help`; the manual is "
              "docs/grading.md.")
        sys.exit(0)
    if flags is None:
        return ["--check-points"] + rest
    if not own or own[0].startswith("-"):
        print(f"usage: workbook grade {name} {arguments}\n"
              f"workbook grade {name}: the first argument is missing", file=sys.stderr)
        sys.exit(2)
    return flags(rest[0]) + rest[1:]


def parse_args(argv):
    # The usage names the three ways to call it; the manual is docs/grading.md,
    # so --help opens with a few lines and then the options.
    ap = argparse.ArgumentParser(
        prog="workbook grade", description=__doc__.split("\n\n", 1)[1],
        usage="%(prog)s one SUBMISSION [--out DIR] [options]\n"
              "       %(prog)s batch FOLDER --out OUTDIR [--jobs N] [--regrade] [options]\n"
              "       %(prog)s slurm FOLDER --out OUTDIR [--group N] [--dry-run] "
              "[-- SBATCH OPTIONS]\n"
              "       %(prog)s status OUTDIR | report OUTDIR | points   (SUBCOMMAND --help)",
        epilog="The student's code is compiled and run in a sandbox (bubblewrap); without one,\n"
               "only --unconfined grades, and then in a container or a VM you can throw away\n"
               "(docs/grading.md, \"What the sandbox confines\").",
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
    ap.add_argument("--report", type=pathlib.Path, metavar="OUTDIR",
                    help="write the class report and the similarity report of the class "
                         "graded in OUTDIR (a batch writes them itself)")
    ap.add_argument("--similarity-threshold", type=float, metavar="T",
                    help="list pairs whose shared code is at least this share of one file "
                         f"(0-1, default {gsim.DEFAULT_THRESHOLD:g})")
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
    ap.add_argument("--test-jobs", type=int,
                    help="tests run at once by CTest (default: the cores over twice --jobs, "
                         "4 to 8; performance and profile tests always run alone, one "
                         "submission at a time)")
    ap.add_argument("--build-timeout", type=float, default=3600,
                    help="seconds one build step may take (default 3600)")
    ap.add_argument("--suite-timeout", type=float, default=3 * 3600,
                    help="seconds the test runs of one submission may take together, "
                         "not counting the wait for another submission's perf and profile "
                         "checks (default 10800); "
                         "each test also has its CTest timeout, e.g. "
                         "--cmake-arg=-DWB_TIMEOUT_gpu=30 shortens the GPU tests'")
    ap.add_argument("--seed", type=seed_value, metavar="N",
                    help="one seed for every test's random inputs, recorded in results.json "
                         "(default: WB_SEED if set, else each test draws its own)")
    ap.add_argument("--unconfined", action="store_true",
                    help="compile and run student code without the sandbox (where bubblewrap "
                         "or user namespaces are missing); results.json and summary.txt say "
                         "so. Only in a container or a VM you can throw away")
    ap.add_argument("--cmake-arg", action="append", default=[], metavar="ARG",
                    help="extra argument for configuring the grading build, e.g. "
                         "--cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=90 (repeatable)")
    slurm = ap.add_argument_group(
        "Slurm (batch mode; docs/grading.md, \"On a cluster with Slurm\")")
    slurm.add_argument("--slurm", action="store_true",
                       help="submit the class as a Slurm job array (one GPU per task) and a "
                            "merge job that writes the gradebook; sbatch options (partition, "
                            "account, time, --gres=gpu:TYPE:1, ...) follow a `--` or come "
                            "with --sbatch-opt")
    slurm.add_argument("--sbatch-opt", action="append", default=[], metavar="OPT",
                       help="one sbatch option for both jobs, e.g. --sbatch-opt=--partition=gpu "
                            "(repeatable; GPU options go to the array's tasks only)")
    slurm.add_argument("--group", type=int, default=1, metavar="N",
                       help="submissions graded by one array task (default 1)")
    slurm.add_argument("--array-limit", type=int, metavar="K",
                       help="at most K array tasks run at once (--array=...%%K)")
    slurm.add_argument("--dry-run", action="store_true",
                       help="print the scripts and sbatch commands; submit nothing")
    slurm.add_argument("--slurm-status", type=pathlib.Path, metavar="OUTDIR",
                       help="how many submissions are done, running, pending and failed")
    slurm.add_argument("--slurm-task", nargs=2, metavar=("PLAN", "INDEX"), help=argparse.SUPPRESS)
    slurm.add_argument("--slurm-merge", type=pathlib.Path, metavar="OUTDIR",
                       help=argparse.SUPPRESS)
    argv = list(argv)
    if "--" in argv:
        # Everything after `--` is for sbatch.
        cut = argv.index("--")
        argv, trailing = argv[:cut], argv[cut + 1:]
    else:
        trailing = []
    args = ap.parse_args(argv)
    args.sbatch_opt += trailing
    if args.similarity_threshold is not None and not 0 < args.similarity_threshold <= 1:
        ap.error("--similarity-threshold must be above 0 and at most 1")
    if args.check_points or args.slurm_status or args.slurm_task or args.slurm_merge:
        return args
    if args.report is not None:
        if args.submission is not None or args.slurm:
            ap.error("--report OUTDIR takes no SUBMISSION and no --slurm")
        return args
    if (args.sbatch_opt or args.dry_run or args.group != 1 or args.array_limit) \
            and not args.slurm:
        ap.error("--sbatch-opt, --group, --array-limit, --dry-run and sbatch options after "
                 "`--` go with --slurm")
    if args.slurm and args.batch is None:
        ap.error("--slurm needs --batch FOLDER --out OUTDIR")
    if args.group < 1 or (args.array_limit is not None and args.array_limit < 1):
        ap.error("--group and --array-limit must be at least 1")
    if (args.submission is None) == (args.batch is None):
        ap.error("give one SUBMISSION, or --batch FOLDER (see --help)")
    if args.batch is not None and args.out is None:
        ap.error("--batch needs --out OUTDIR")
    if args.jobs < 1 or (args.test_jobs is not None and args.test_jobs < 1):
        ap.error("--jobs and --test-jobs must be at least 1")
    return args


def seed_value(text):
    """A seed as the tests read WB_SEED: a whole number that fits 64 bits."""
    try:
        value = int(text.strip())
    except (ValueError, AttributeError):
        value = -1
    if not 0 <= value < 2 ** 64:
        raise argparse.ArgumentTypeError(f"'{text}' is not a seed (a whole number from 0 to "
                                         f"{2 ** 64 - 1})")
    return value


class SeedError(Exception):
    pass


def resolve_seed(args):
    """The one seed of every test's random inputs (the tests read WB_SEED),
    from --seed, else WB_SEED; None where neither is given, and then each
    test draws its own. No seed is fixed by default: every failure message
    names its seed, so a student who saw one grading's inputs could hand in
    outputs made for them if the next grading used the same seed."""
    if args.seed is None:
        given = os.environ.get("WB_SEED", "").strip()
        if not given:
            return None
        try:
            args.seed = seed_value(given)
        except argparse.ArgumentTypeError as err:
            raise SeedError(f"WB_SEED: {err}") from None
    # The test runs inherit it, and the result cache keys on it.
    os.environ["WB_SEED"] = str(args.seed)
    return args.seed


def print_points(points):
    print(f"{points.path}: {len(points.checks)} checks, {points.max_score:g} points, "
          f"split {points.split}, missing exercises score {points.missing_exercise}")
    for check in points.checks:
        hidden = "  (hidden)" if check.hidden else ""
        print(f"  {check.owner:40} {check.kind:16} {check.points:6g}{hidden}")


def grading_argv(args):
    """The grading options of args, as grade.py's arguments: what a Slurm
    task needs to grade as this command would."""
    argv = ["--points", str(args.points.resolve()), "--work", str(args.work.resolve()),
            f"--build-timeout={args.build_timeout:g}", f"--suite-timeout={args.suite_timeout:g}"]
    # Unset, each task sets it from the cores of the node it runs on.
    argv += [f"--test-jobs={args.test_jobs}"] if args.test_jobs is not None else []
    argv += ["--no-cache"] * args.no_cache + ["--no-gpu"] * args.no_gpu
    argv += ["--unconfined"] * args.unconfined
    argv += [f"--seed={args.seed}"] if args.seed is not None else []
    return argv + [f"--cmake-arg={a}" for a in args.cmake_arg]


def class_reports(out, folder, threshold, after_batch=True):
    """The class and similarity reports of OUT. After a batch, nothing may
    fail it: a missing package or a report error is said and the gradebook
    stands (exit 0). With --report alone, either is the command's failure."""
    try:
        gcr.write_reports(out, folder, threshold)
        return 0
    except gcr.MissingPackages as err:
        print(f"{'class report skipped: ' if after_batch else 'workbook grade: '}{err}",
              file=sys.stderr)
    except Exception:  # a report bug must not lose a graded batch
        print("workbook grade: the class report failed (gradebook.csv and the results are "
              "complete):\n" + traceback.format_exc(), file=sys.stderr)
    return 0 if after_batch else 2


def default_test_jobs(cpus, jobs):
    """Tests one CTest run starts at once where --test-jobs is not given:
    half the cores each submission graded at once has, at least 4 (what a
    2-core machine always ran) and at most 8. Measured on an H200 (16 cores):
    at 4, the reference solutions' shared run took 97 s for 387 s of tests
    (docs/results/grading-time-nvidia-h200.md)."""
    return max(4, min(8, (cpus or os.cpu_count() or 2) // (2 * jobs)))


def make_grader(args, points, jobs, cpus=None):
    gpu_present, gpu_note = (False, "--no-gpu was given") if args.no_gpu else wbbuild.gpu_present()
    print(f"GPU: {gpu_note}" if gpu_present else
          f"No GPU ({gpu_note}): compiling and running the host tests only; GPU checks are NOT RUN")
    options = grun.Options(points=points, work_dir=args.work.resolve(), gpu_present=gpu_present,
                           gpu_note=gpu_note,
                           build_jobs=max(1, (cpus or os.cpu_count() or 2) // jobs),
                           test_jobs=args.test_jobs or default_test_jobs(cpus, jobs),
                           build_timeout=args.build_timeout,
                           suite_timeout=args.suite_timeout, cmake_args=tuple(args.cmake_arg),
                           cache=not args.no_cache, seed=resolve_seed(args),
                           confined=not args.unconfined)
    if args.unconfined:
        print("UNCONFINED (--unconfined): student code is compiled and run without the "
              "sandbox, with this user's rights", file=sys.stderr)
    return grun.Grader(options)


class SandboxMissing(Exception):
    pass


def require_sandbox(args):
    """Grading confines student code unless --unconfined says otherwise:
    where the sandbox cannot start, say why and how to enable it."""
    if args.unconfined:
        return
    ok, why = sandbox.available()
    if not ok:
        raise SandboxMissing(
            f"student code cannot be confined here: {why}. Or grade with --unconfined, only in "
            f"a container or a VM you can throw away (docs/grading.md, \"What the sandbox "
            f"confines\").")


def slurm_task(plan_path, index):
    """One array task: grade the submissions of plan index `index`."""
    plan = gslurm.load_plan(plan_path)
    args = parse_args(plan["grade_argv"] + ["--batch", plan["folder"], "--out", plan["out"]])
    points = gp.load(args.points)
    wbbuild.require_tools()
    try:
        require_sandbox(args)
    except SandboxMissing as err:
        print(f"workbook grade: {err}", file=sys.stderr)
        return 2
    # The CPUs Slurm gave the task (its affinity), not all of the node's.
    grader = make_grader(args, points, 1, cpus=len(os.sched_getaffinity(0)))
    try:
        gslurm.run_task(grader, plan, int(index))
    except (KeyboardInterrupt, gb.Interrupted):
        grader.commands.stop_all()
        print("workbook grade: task stopped; nothing half-written was kept", file=sys.stderr)
        return 130
    return 0


def main(argv):
    # Progress lines reach a log file or a pipe as they are printed, not when
    # a buffer fills (a batch runs for hours).
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(line_buffering=True)
    args = parse_args(from_subcommand(argv))
    if args.slurm_status is not None:
        return 0 if gslurm.status(args.slurm_status) is not None else 2
    if args.slurm_merge is not None:
        count = gslurm.merge(args.slurm_merge)
        print(f"gradebook: {args.slurm_merge / gr.GRADEBOOK} ({count} graded)")
        gslurm.status(args.slurm_merge)
        return class_reports(args.slurm_merge, None, args.similarity_threshold)
    if args.report is not None:
        if not args.report.is_dir():
            print(f"workbook grade: no such folder: {args.report}", file=sys.stderr)
            return 2
        if args.batch is not None and not args.batch.is_dir():
            print(f"workbook grade: --batch needs a folder of submissions; {args.batch} is not "
                  "one", file=sys.stderr)
            return 2
        return class_reports(args.report, args.batch, args.similarity_threshold,
                             after_batch=False)
    if args.slurm_task:
        # Slurm stops a task (scancel, time limit, preemption) with SIGTERM:
        # made a KeyboardInterrupt, so the builds and tests are stopped and
        # nothing half-written is kept.
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        return slurm_task(*args.slurm_task)
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
        resolve_seed(args)
    except SeedError as err:
        print(f"workbook grade: {err}", file=sys.stderr)
        return 2
    if args.slurm:
        # The submitting host needs no CUDA: the tasks check their tools.
        report_argv = ([f"--similarity-threshold={args.similarity_threshold:g}"]
                       if args.similarity_threshold is not None else [])
        try:
            record = gslurm.submit(source, args.out, grading_argv(args), args.sbatch_opt,
                                   group=args.group, regrade=args.regrade, dry_run=args.dry_run,
                                   gpu=not args.no_gpu, array_limit=args.array_limit,
                                   report_argv=report_argv)
        except gslurm.SlurmError as err:
            print(f"workbook grade: {err}", file=sys.stderr)
            return 1
        if record is None and not args.dry_run:
            # Nothing left to grade: the gradebook was merged here, so are the reports.
            return class_reports(args.out, source.resolve(), args.similarity_threshold)
        return 0
    try:
        wbbuild.require_tools()
        require_sandbox(args)
    except (wbbuild.ToolMissing, SandboxMissing) as err:
        print(f"workbook grade: {err}", file=sys.stderr)
        return 2
    grader = make_grader(args, points, args.jobs)
    try:
        if args.batch is not None:
            out = args.out.resolve()
            graded = grun.grade_batch(grader, source, out, args.jobs, args.regrade)
            print(f"graded {graded} submission(s); gradebook: {out / 'gradebook.csv'}")
            return class_reports(out, source.resolve(), args.similarity_threshold)
        name = gsub.submission_name(source)
        out = (args.out or DEFAULT_RESULTS / name).resolve()
        print(f"grading {source} ...", flush=True)
        grade = grun.grade_one(grader, source, out, log=lambda line: print(line, flush=True))
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
