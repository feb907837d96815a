#!/usr/bin/env python3
"""Grades one kernel's memory behaviour with Nsight Compute.

Runs the kernel once (one block) under ncu and compares the shared-memory
wavefronts per request of its loads and stores with the bank model's
prediction, and, where asked, the global-memory sectors per store request
with the coalescing the exercise is about, or the constant-cache requests per
indexed constant load with the constant model's distinct words per warp
(book 5.5; the check skips where ncu does not know that metric). With
--min-active-threads, --min-global-load-efficiency or
--min-shuffles-per-warp it checks the technique's counters instead (the
method test of a kernel): the active threads per warp instruction (a tree,
not one thread's serial sum), the share of the fetched global-load bytes
the lanes use (coalesced loads), and the shuffles each warp executed, each
with all 32 lanes, from the SASS view of the source page. With
--reference-modules the kernel's work on the launch (the averages' weight)
is also held to the reference kernel's. Exit: 0 as predicted, 1 not (or
the kernel is wrong), 77 when ncu cannot run here (reported by CTest as
skipped, with the reason).

When the shared-memory wavefronts per request exceed the model's, the
message goes on with the lines of the exercise's file whose shared-memory
instructions took excess wavefronts, from Nsight Compute's source page
(wbcore/ncu_source.py; one more ncu run); where that page cannot be had,
it says why and keeps the message without lines.

Nsight Compute's measurements are read from its report file alone
(wbcore/nsight.py): whatever the kernel prints, a forged CSV row included,
stays in the runner's output, which is read only for the harness's verdict
(with the runner's exit status).
"""
import argparse
import sys

from wbcore import ncu_source
from wbcore import nsight


def main():
    ap = argparse.ArgumentParser(
        # The summary, then the options; the details follow them.
        usage="%(prog)s --runner RUNNER --kernel ID --name NAME [EXPECTED ...] [options]",
        description=__doc__.split("\n\n", 1)[0], epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--kernel", required=True, help="section/id")
    ap.add_argument("--name", required=True, help="qualified kernel name")
    ap.add_argument("--load", type=float, metavar="W", help="expected load wavefronts per request")
    ap.add_argument("--store", type=float, metavar="W", help="expected store wavefronts per request")
    ap.add_argument("--store-sectors", type=float, metavar="S",
                    help="expected global-memory sectors per store request")
    ap.add_argument("--constant-passes", type=float, metavar="P",
                    help="expected constant-cache requests per warp-level constant load")
    ap.add_argument("--constant-requests", type=float, metavar="R",
                    help="warp-level indexed constant loads the launch makes")
    ap.add_argument("--min-active-threads", type=float, metavar="N",
                    help="method: the least active threads per warp instruction (of 32)")
    ap.add_argument("--min-global-load-efficiency", type=float, metavar="PCT",
                    help="method: the least share (%%) of fetched global-load bytes used")
    ap.add_argument("--min-shuffles-per-warp", type=float, metavar="N",
                    help="method: the least shuffles each warp executes (SASS page)")
    ap.add_argument("--max-shuffles-per-warp", type=float, metavar="N",
                    help="method: the most shuffles each warp executes (with the least)")
    ap.add_argument("--reference-modules", metavar="DIR",
                    help="the reference kernels' module folder: the kernel's work on the "
                         "launch is held to the reference's (wbcore/nsight.py WORK_BOUNDS)")
    ap.add_argument("--tolerance", type=float, metavar="T", default=0.05)
    ap.add_argument("--source-dir", action="append", default=[], metavar="DIR=SHOWN",
                    help="the implementation's source folder as the build compiled it and the "
                         "name shown for it (SLOT/submission=starter); repeatable")
    args = ap.parse_args()
    if (args.min_active_threads is not None or args.min_global_load_efficiency is not None
            or args.min_shuffles_per_warp is not None):
        return check_method(args)
    if args.constant_passes is not None:
        return check_constant(args)
    metrics = dict(nsight.SHARED_METRICS)
    metrics.update(nsight.GLOBAL_METRICS)
    run = measure(args, metrics, "bank behaviour")
    if isinstance(run, int):
        return run
    values = run.values
    failed = False
    conflicts = False
    for side, expected in (("ld", args.load), ("st", args.store)):
        requests = values[f"{side}_requests"]
        word = "load" if side == "ld" else "store"
        if requests == 0:
            print(f"{args.kernel}: no shared-memory {word}s at all"
                  + (f" (expected {expected:.2f} wavefronts per request)" if expected else ""))
            failed = failed or expected is not None
            continue
        measured = values[f"{side}_wavefronts"] / requests
        line = f"{args.kernel}: shared {word} wavefronts per request {measured:.2f}"
        if expected is None:
            print(line + " (not graded)")
        elif abs(measured - expected) <= args.tolerance * expected:
            print(line + f" = expected {expected:.2f}")
        else:
            print("FAILED " + line + f", expected {expected:.2f} from the bank model: "
                  f"{'a bank conflict the exercise must avoid' if measured > expected else 'fewer passes than the access pattern needs: is the pattern the one the exercise asks for?'}")
            failed = True
            conflicts = conflicts or measured > expected
    if conflicts:
        for text in conflict_lines(args):
            print(f"  {text}")
    for passed, line in work_lines(args, run):
        print(("" if passed else "FAILED ") + f"{args.kernel}: {line}")
        failed = failed or not passed
    if args.store_sectors is not None:
        requests = values["gst_requests"]
        measured = values["gst_sectors"] / requests if requests else 0.0
        line = f"{args.kernel}: global store sectors per request {measured:.2f}"
        if requests and abs(measured - args.store_sectors) <= args.tolerance * args.store_sectors:
            print(line + f" = expected {args.store_sectors:.2f}")
        else:
            print(line + f", expected {args.store_sectors:.2f}: "
                  + ("the writes are not coalesced" if measured > args.store_sectors
                     else "the kernel stores differently from what the exercise asks"))
            failed = True
    return 1 if failed else 0


def conflict_lines(args):
    """The exercise's source lines with excess shared-memory wavefronts (one
    more ncu run, on the source page), or one line saying why they are not
    available."""
    sources = nsight.source_dirs(args.source_dir)
    own = nsight.exercise_file(args.runner, args.kernel, sources[0][1] if sources else "starter")
    try:
        page = nsight.source_page(args.runner, args.kernel, args.name)
        found = ncu_source.parse(page)
    except (nsight.ToolUnavailable, RuntimeError, ncu_source.SourcePageError) as err:
        return [f"(the lines of the conflicting accesses are not available: {err})"]
    lines = ncu_source.describe(found, sources, [own] if own else [])
    if not lines:
        return ["(Nsight Compute's source page shows no line with excess shared wavefronts)"]
    return ["where: " + lines[0]] + ["       " + l for l in lines[1:]]


def measure(args, metrics, graded, skip_note="", **options):
    """The kernel's launch under ncu (a Profile, with WORK_METRICS' values
    too where the work is compared: --reference-modules), or the exit status
    when there is nothing to grade, having printed why: 77 ncu cannot run
    here, 1 ncu failed or the kernel is wrong (`graded` names what would
    have been graded)."""
    if args.reference_modules:
        metrics = dict(metrics, **nsight.WORK_METRICS)
    try:
        run = nsight.profile_run(args.runner, args.kernel, args.name, metrics, **options)
    except nsight.ToolUnavailable as err:
        print(f"skipped: {err}{skip_note}")
        return nsight.SKIP
    except RuntimeError as err:
        print(f"FAILED {args.kernel}: {err}")
        return 1
    problem = nsight.runner_problem(run.runner_exit, run.app_output)
    if problem:
        print(f"FAILED {args.kernel}: the kernel must be correct before its {graded} "
              f"is graded:\n{problem}")
        return 1
    return run


def work_lines(args, run):
    """work_bounds' lines for the kernel's run against the reference
    kernel's on the same launch (one more ncu run), or none without
    --reference-modules."""
    if not args.reference_modules:
        return []
    try:
        reference = nsight.profile_run(args.runner, args.kernel, args.name, nsight.WORK_METRICS,
                                       modules=args.reference_modules)
    except (nsight.ToolUnavailable, RuntimeError) as err:
        return [(False, f"the reference kernel's work could not be measured: {err}")]
    return nsight.work_bounds(run.values, reference.values)


def check_method(args):
    """The technique's counters of one launch against the bounds given."""
    said = []
    if args.min_active_threads is not None or args.min_global_load_efficiency is not None:
        run = measure(args, nsight.METHOD_METRICS, "technique")
        if isinstance(run, int):
            return run
        said += nsight.method_counters(run.values, args.min_active_threads,
                                       args.min_global_load_efficiency)
        said += work_lines(args, run)
    if args.min_shuffles_per_warp is not None:
        try:
            said += nsight.executed_shuffles(args.runner, args.kernel, args.name,
                                             args.min_shuffles_per_warp,
                                             max_per_warp=args.max_shuffles_per_warp)
        except nsight.ToolUnavailable as err:
            print(f"skipped: {err}")
            return nsight.SKIP
        except RuntimeError as err:
            print(f"FAILED {args.kernel}: {err}")
            return 1
    failed = False
    for passed, line in said:
        print(("" if passed else "FAILED ") + f"{args.kernel}: {line}")
        failed = failed or not passed
    return 1 if failed else 0


def check_constant(args):
    """Constant-cache requests per warp-level indexed constant load against
    the constant model (chapters/constant/constant_model.h)."""
    if not args.constant_requests:
        print(f"FAILED {args.kernel}: --constant-passes needs --constant-requests")
        return 1
    run = measure(args, nsight.CONSTANT_METRICS, "constant-cache behaviour",
                  skip_note=f" (the constant-cache check needs the metric "
                            f"{nsight.CONSTANT_METRICS['idc_requests']})",
                  unknown_metric_skips=True)
    if isinstance(run, int):
        return run
    values = run.values
    work = work_lines(args, run)
    for passed, line in work:
        print(("" if passed else "FAILED ") + f"{args.kernel}: {line}")
    if not all(passed for passed, _ in work):
        return 1
    measured = values["idc_requests"] / args.constant_requests
    expected = args.constant_passes
    line = (f"{args.kernel}: constant-cache requests per warp-level load {measured:.2f} "
            f"({values['idc_requests']:.0f} over {args.constant_requests:.0f} loads)")
    if abs(measured - expected) <= args.tolerance * expected:
        print(line + f" = expected {expected:.2f} distinct words per warp")
        return 0
    print(line + f", expected {expected:.2f} from the constant model: "
          + ("the lanes of a warp read more distinct constant words than the exercise asks "
             "(serialised)" if measured > expected
             else "fewer requests than the access pattern needs: does the kernel read the "
                  "table as the exercise asks?"))
    return 1


if __name__ == "__main__":
    sys.exit(main())
