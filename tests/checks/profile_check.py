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

A section's batch (--batch DIR --section S, a CTest fixture run before the
section's profile and method tests) profiles every kernel of the section
that these counters grade in one ncu process, and the reference kernels in
one more, counts the shuffles of the kernels whose shuffles are graded in
a third (the SASS view of the source page, one table per launch), and
keeps in DIR the values of each kernel the runner found right. A check
given --from-batch DIR reads them instead of running ncu, while the runner
and both modules of the kernel's exercise are unchanged;
anything else (a wrong kernel, a failed batch) is measured alone as before.
One ncu process per section instead of two per check: each costs seconds of
start-up, and these checks run one at a time.
"""
import argparse
import dataclasses
import os
import subprocess
import sys
import time

from wbcore import gtest_verdict
from wbcore import ncu_source
from wbcore import nsight


def main():
    ap = argparse.ArgumentParser(
        # The summary, then the options; the details follow them.
        usage="%(prog)s --runner RUNNER --kernel ID --name NAME [EXPECTED ...] [options]",
        description=__doc__.split("\n\n", 1)[0], epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--kernel", help="section/id")
    ap.add_argument("--name", help="qualified kernel name")
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
    ap.add_argument("--batch", metavar="DIR",
                    help="profile the graded kernels of --section in one ncu run each for "
                         "the implementation and the reference; keep the values in DIR")
    ap.add_argument("--section", help="with --batch: the section")
    ap.add_argument("--reference-batch", metavar="DIR",
                    help="where the reference kernels' values are kept between runs (they "
                         "change only with the runner and the reference modules): the batch's, "
                         "and a method check's count of the reference's lanes' shared bytes")
    ap.add_argument("--from-batch", metavar="DIR",
                    help="read the values the section's batch kept in DIR where they still hold")
    args = ap.parse_args()
    if args.batch:
        if not args.section:
            ap.error("--batch needs --section")
        return run_batch(args)
    if not args.kernel or not args.name:
        ap.error("--kernel and --name are required (or --batch)")
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
    kept = kept_values(args, "values", metrics)
    if kept is not None:
        return nsight.Profile(kept, "", 0)
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


def work_lines(args, run, lanes=False):
    """work_bounds' lines for the kernel's run against the reference
    kernel's on the same launch (one more ncu run), and lane_bounds' with
    `lanes`; none without --reference-modules."""
    if not args.reference_modules:
        return []
    reference = kept_values(args, "reference", nsight.WORK_METRICS)
    if reference is None:
        try:
            reference = nsight.profile_run(args.runner, args.kernel, args.name,
                                           nsight.WORK_METRICS,
                                           modules=args.reference_modules).values
        except (nsight.ToolUnavailable, RuntimeError) as err:
            return [(False, f"the reference kernel's work could not be measured: {err}")]
    said = nsight.work_bounds(run.values, reference)
    if lanes:
        said += nsight.lane_bounds(run.values, reference)
        said += thread_bytes_lines(args)
    return said


def thread_bytes_lines(args):
    """thread_byte_bounds' lines for the bytes the lanes loaded from and
    stored to shared memory, each lane counted, from the SASS view of the
    source page: the kernel's
    launch (kept by the section's batch, or one more ncu run) against the
    reference kernel's (kept across runs of the build in --reference-batch,
    or one more run)."""
    try:
        mine = kept_sass(args, "sass") or nsight.executed_sass(args.runner, args.kernel,
                                                               args.name)
        reference = reference_sass(args)
    except (nsight.ToolUnavailable, RuntimeError) as err:
        return [(False, f"the bytes the lanes loaded from shared memory could not be counted "
                        f"on the source page: {err}")]
    return nsight.thread_byte_bounds(mine, reference)


def reference_sass(args, kernel=None, name=None, exercise=None):
    """The reference kernel's ncu_source.Executions on the runner's launch of
    `kernel` (args.kernel): the one --reference-batch kept while the runner,
    the reference module, the GPU and ncu are unchanged, else counted (one
    ncu run) and kept there."""
    kernel, name = kernel or args.kernel, name or args.name
    folder = getattr(args, "reference_batch", None)
    if folder:
        exercise = exercise or nsight.kernel_exercise(args.runner, kernel)
        if exercise is None:
            folder = None    # nothing to key the kept count on: count it
    if folder:
        inputs = {"files": gtest_verdict.batch_inputs([args.runner], [exercise],
                                                      folders=args.reference_modules)["files"],
                  **reference_key(args)}
        doc = gtest_verdict.read_json(folder, kernel + SASS_SUFFIX)
        if doc and doc.get("kernel") == kernel and doc.get("inputs") == inputs:
            found = executions_from(doc.get("sass"))
            if found is not None:
                return found
    found = nsight.executed_sass(args.runner, kernel, name, modules=args.reference_modules)
    if folder:
        try:
            os.makedirs(folder, exist_ok=True)
            gtest_verdict.write_json(folder, kernel + SASS_SUFFIX, ".json", {
                "kernel": kernel, "sass": dataclasses.asdict(found), "inputs": inputs})
        except OSError as err:
            print(f"{err}")
    return found


# The reference batch's file of a kernel's SASS counts: <kernel>.sass.json,
# beside reference_work's <kernel>.json.
SASS_SUFFIX = ".sass"


def check_method(args):
    """The technique's counters of one launch against the bounds given."""
    said = []
    if args.min_active_threads is not None or args.min_global_load_efficiency is not None:
        run = measure(args, nsight.METHOD_METRICS, "technique")
        if isinstance(run, int):
            return run
        said += nsight.method_counters(run.values, args.min_active_threads,
                                       args.min_global_load_efficiency)
        said += work_lines(args, run, lanes=args.min_active_threads is not None)
    if args.min_shuffles_per_warp is not None:
        kept = kept_sass(args, "sass")
        try:
            if kept is not None:
                said += nsight.shuffle_counter(kept, args.min_shuffles_per_warp,
                                               args.max_shuffles_per_warp)
            else:
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


# --------------------------------------------------------------------------
# A section's batch


def graded_metrics(kernel, with_reference):
    """The metrics this check reads for a kernel of the runner's listing
    ({key: metric}, as main() and check_method ask for them), or {} when
    no check here measures it with ncu's raw page."""
    metrics = {}
    if kernel.get("constantPasses") is not None:
        metrics.update(nsight.CONSTANT_METRICS)
    elif any(kernel.get(f) is not None
             for f in ("sharedLoadWays", "sharedStoreWays", "globalStoreSectors")):
        metrics.update(nsight.SHARED_METRICS)
        metrics.update(nsight.GLOBAL_METRICS)
    if any(kernel.get(f) is not None
           for f in ("minActiveThreadsPerInstruction", "minGlobalLoadEfficiency")):
        metrics.update(nsight.METHOD_METRICS)
    if metrics and with_reference:
        metrics.update(nsight.WORK_METRICS)
    return metrics


def kernel_inputs(args, exercise):
    """What the kept values depend on besides the kernel's id: the runner,
    the implementation's and the reference's module of the exercise, and
    WB_MODULES (gtest_verdict.batch_inputs)."""
    inputs = gtest_verdict.batch_inputs([args.runner], [exercise])
    if args.reference_modules:
        inputs["reference"] = gtest_verdict.batch_inputs([args.runner], [exercise],
                                                         folders=args.reference_modules)["files"]
    return inputs


def run_batch(args):
    """Profiles the section's graded kernels in one ncu process (and the
    reference kernels in another) and keeps each right kernel's values in
    args.batch. Exits 0 whatever happens, an unforeseen error included: a
    failed fixture would leave the checks that require it not run; each
    check whose values are not kept measures its kernel alone."""
    return nsight.guarded_batch(_run_batch, args, "every check measures its kernel alone")


def _left(deadline):
    """Seconds left before the batch's deadline; TimeoutError when none."""
    left = deadline - time.monotonic()
    if left < 1:
        raise TimeoutError(f"the batch ran out of its {nsight.BATCH_SECONDS} s")
    return left


def counted_on_sass_page(kernel):
    """Whether a check here counts what the kernel executed on the SASS
    view of the source page: its shuffles, or the bytes its lanes load from
    shared memory (a kernel held to a number of active threads)."""
    return (kernel.get("minShufflesPerWarp") is not None
            or kernel.get("minActiveThreadsPerInstruction") is not None)


def _run_batch(args, deadline, listing):
    folder = args.batch
    chosen, metrics = [], {}
    for k in listing:
        wanted = graded_metrics(k, bool(args.reference_modules))
        if k.get("section") == args.section and (wanted or counted_on_sass_page(k)):
            chosen.append(k)
            metrics.update(wanted)
    if not chosen:
        print(f"batch: no kernel of {args.section} is graded by these counters")
        return 0
    # Only the kernels that are right on a plain run are profiled: one still
    # as the starter gives it would cost its replays and keep nothing.
    right = set(nsight.right_kernels(args.runner, [f"{k['section']}/{k['id']}" for k in chosen],
                                     timeout=_left(deadline)))
    listed = len(chosen)
    chosen = [k for k in chosen if f"{k['section']}/{k['id']}" in right]
    if not chosen:
        print(f"batch: none of the {listed} kernel(s) is right on a plain run; each check "
              f"measures its kernel alone")
        return 0
    raw = [k for k in chosen if graded_metrics(k, False)]
    kernels = [(f"{k['section']}/{k['id']}", k["name"]) for k in raw]
    on_page = [k for k in chosen if counted_on_sass_page(k)]
    counted = [(f"{k['section']}/{k['id']}", k["name"]) for k in on_page]
    values, reference, sass = {}, {}, {}
    try:
        if kernels:
            values = nsight.profile_batch(args.runner, kernels, metrics, timeout=_left(deadline))
            if args.reference_modules:
                reference = reference_work(args, raw, kernels, deadline)
        if counted:
            # One more ncu process, on the SASS view of the source page: a
            # check of its own costs one ncu start-up per kernel.
            sass = nsight.sass_batch(args.runner, counted, timeout=_left(deadline))
        if args.reference_modules and args.reference_batch:
            # The reference's lanes' bytes, for the kernels held to active
            # threads, kept in --reference-batch for their checks (and every
            # later run of the build); a kernel whose count fails here is
            # counted by its check.
            for k in on_page:
                if k.get("minActiveThreadsPerInstruction") is None:
                    continue
                try:
                    reference_sass(args, f"{k['section']}/{k['id']}", k["name"],
                                   f"{k['section']}/{k['exercise']}")
                except (nsight.ToolUnavailable, RuntimeError) as err:
                    print(f"batch: the reference {k['id']}'s lanes' bytes: {err}")
    except (nsight.ToolUnavailable, RuntimeError) as err:
        print(f"batch: {str(err).splitlines()[0] if str(err) else err}; every check "
              f"measures its kernel alone")
        return 0
    kept = 0
    for k in chosen:
        kernel = f"{k['section']}/{k['id']}"
        exercise = f"{k['section']}/{k['exercise']}"
        doc = {"kernel": kernel, "exercise": exercise, "inputs": kernel_inputs(args, exercise)}
        if kernel in values and (not args.reference_modules or kernel in reference):
            doc.update(values=values[kernel], reference=reference.get(kernel))
        if kernel in sass:
            doc["sass"] = dataclasses.asdict(sass[kernel])
        if "values" not in doc and "sass" not in doc:
            continue
        try:
            gtest_verdict.write_json(folder, kernel, ".json", doc)
            kept += 1
        except OSError as err:
            print(f"batch: {err}")
    print(f"batch: the values of {kept} of {listed} kernel(s) kept; the others are "
          f"measured alone")
    return 0


def reference_key(args):
    """What the reference kernels' counts depend on besides the runner and
    their modules: the GPU (the runner's --gpu-check line names it and its
    compute capability), the ncu that counted and the metrics counted."""
    said = subprocess.run([args.runner, "--gpu-check"], capture_output=True, text=True,
                          errors="replace", timeout=60).stdout.strip()
    ncu = os.stat(nsight.find_tool("ncu"))
    return {"gpu": said, "ncu": [ncu.st_mtime_ns, ncu.st_size], "metrics": nsight.WORK_METRICS}


def reference_work(args, chosen, kernels, deadline):
    """{id: WORK_METRICS' values} of the reference kernels on the runner's
    launches: those --reference-batch kept from an earlier run while the
    runner, the reference module, the GPU and ncu are unchanged (the same
    for every implementation and every run of this build), the others
    profiled in one ncu process and kept there."""
    folder = args.reference_batch
    found, missing = {}, []
    machine = reference_key(args)
    for k, (kernel, name) in zip(chosen, kernels):
        exercise = f"{k['section']}/{k['exercise']}"
        inputs = {"files": gtest_verdict.batch_inputs([args.runner], [exercise],
                                                      folders=args.reference_modules)["files"],
                  **machine}
        doc = gtest_verdict.read_json(folder, kernel) if folder else None
        try:
            if doc and doc["kernel"] == kernel and doc["inputs"] == inputs:
                found[kernel] = {m: float(doc["values"][m]) for m in nsight.WORK_METRICS}
                continue
        except (ValueError, KeyError, TypeError, AttributeError):
            pass
        missing.append((kernel, name, inputs))
    if missing:
        fresh = nsight.profile_batch(args.runner, [(k, n) for k, n, _ in missing],
                                     nsight.WORK_METRICS, modules=args.reference_modules,
                                     timeout=_left(deadline))
        for kernel, _, inputs in missing:
            if kernel not in fresh:
                continue
            found[kernel] = fresh[kernel]
            if folder:
                try:
                    os.makedirs(folder, exist_ok=True)
                    gtest_verdict.write_json(folder, kernel, ".json", {
                        "kernel": kernel, "values": fresh[kernel], "inputs": inputs})
                except OSError as err:
                    print(f"batch: {err}")
    return found


def kept_sass(args, which):
    """What the kernel's launch executed (ncu_source.Executions, `which`:
    "sass") that the section's batch kept for it, or None, as kept_values."""
    return _kept(args, which, executions_from)


def executions_from(kept):
    """ncu_source.Executions from its dict (dataclasses.asdict), or None."""
    try:
        return ncu_source.Executions(
            float(kept["warps"]),
            {str(op): float(n) for op, n in kept["by_warp"].items()},
            {str(op): float(n) for op, n in kept["by_lane"].items()},
            float(kept.get("shared_load_bytes_by_thread", "nan")),
            float(kept.get("shared_store_bytes_by_thread", "nan")))
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def kept_values(args, which, metrics):
    """{key: value} of `metrics` that the section's batch kept for the
    kernel ("values": the implementation's launch, "reference": the
    reference kernel's), or None: no --from-batch, no file, a value
    missing, or an input changed since."""
    return _kept(args, which, lambda kept: {key: float(kept[key]) for key in metrics})


def _kept(args, which, read):
    """read(the batch's entry `which` for the kernel), or None where there is
    none, it does not read, or the runner or a module changed since."""
    doc = gtest_verdict.read_json(args.from_batch, args.kernel) if args.from_batch else None
    if doc is None:
        return None
    try:
        if doc["kernel"] != args.kernel or doc["inputs"] != kernel_inputs(args, doc["exercise"]):
            return None
        return read(doc[which])
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


if __name__ == "__main__":
    sys.exit(main())
