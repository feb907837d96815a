#!/usr/bin/env python3
"""Runs one kernel under compute-sanitizer's memcheck, racecheck, synccheck
and initcheck. Any finding fails the check; the message names the kernel,
the tool and, per source line of the student's file, what was found there
and the kind of fix it usually needs (wbcore/sanitizer_report.py). Exit: 0
clean, 1 findings (or a wrong kernel), 77 when compute-sanitizer cannot run
here (CTest reports it as skipped).

  PYTHONPATH=. python3 tests/checks/sanitize_check.py --runner build/bin/wb_run \\
      --kernel reduction/reduceSmem [--tools racecheck] [--source-dir starter=starter]
prints, for a kernel with a race, e.g.
  FAILED reduction/reduceSmem: racecheck reports 40 hazards:
    starter/reduction/reduceSmem.cu:41 writes, :42 reads: 40 hazards between lanes of one warp
      usual fix: a __syncwarp() between the warp-level steps ...

A run that stopped at its time limit, or whose runner found the GPU held by
another process (status 75), is noted for the grader in the test's
.contention file (wbcore/gtest_verdict.py: WB_TEST_RECORDS, and
WB_TEST_NAME set by CTest): where another submission's tests shared the
GPU, the grader then makes the submission's shared run again alone.

Findings are read from compute-sanitizer's report file alone
(wbcore/nsight.py); "=========" lines the kernel prints stay in the
runner's output, which is shown only when the run itself failed.

A section's batch (--batch DIR --section S, a CTest fixture run before the
section's sanitize checks) runs the section's kernels that are right on a
plain run in one process under each of memcheck, synccheck and initcheck
(nsight.SECTION_SANITIZER_TOOLS), and keeps in DIR, per kernel, the tools
under which the whole run was clean. A check given --from-batch DIR takes
those tools as clean while the runner and the kernel's module are
unchanged, and runs every other tool alone, racecheck always, except
where no instruction of the kernel's module can reach shared memory (its
machine code read by cuobjdump and nvdisasm): racecheck watches shared
memory alone, so the check takes it as clean without running it.
"""
import argparse
import os
import sys
import time

from wbcore import gtest_verdict
from wbcore import nsight
from wbcore import sanitizer_report
from wbcore import sass

RAW_LINES = 12


def located(output, sources, candidates):
    """The findings at their lines, indented for the failure message; [] when
    the report holds none this reader understands."""
    return ["  " + line for line in sanitizer_report.explain(output, sources, candidates)]


def how_many(findings, output):
    """"40 hazards" for racecheck (the analysis records' counts), else
    "N finding(s)"."""
    parsed = sanitizer_report.parse(output)
    races = [f for f in parsed if f.category == "race" and f.analysis]
    if races:
        n = sum(f.hazards for f in races)
        return f"{n} hazard{'s' if n != 1 else ''}"
    return f"{len(findings)} finding(s)"


def reaches_shared_memory(runner, kernel):
    """False only where the machine code of the kernel's module is read and
    no instruction of it can reach shared memory (sass.reaches_shared_memory):
    racecheck, which watches shared memory alone, would find nothing there,
    at 2 to 4 s a kernel (measured on an H100; more under several processes
    at once). Without the disassemblers, or a module to read, racecheck runs."""
    exercise = nsight.kernel_exercise(runner, kernel)
    module = gtest_verdict.module_file(exercise) if exercise else None
    if module is None:
        return True
    try:
        return sass.reaches_shared_memory(sass.disassemble(module))
    except (sass.ToolsMissing, sass.DisassemblyError, OSError):
        return True


def note_gpu_contention(what):
    """Tells the grader (a .contention file by the test's record) that this
    run met what another process holding the GPU causes; only the harness's
    signals get here, never the kernel's output."""
    folder, name = os.environ.get("WB_TEST_RECORDS"), os.environ.get("WB_TEST_NAME")
    if folder and name and os.path.isdir(folder):
        try:
            gtest_verdict.write_gpu_contention(folder, name, [what])
        except OSError:
            pass


def main():
    ap = argparse.ArgumentParser(
        # The summary, then the options; the details follow them.
        usage="%(prog)s --runner RUNNER --kernel ID [options] | --batch DIR --section S",
        description=__doc__.split("\n\n", 1)[0], epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--kernel", help="section/id")
    ap.add_argument("--tools", default=",".join(nsight.SANITIZER_TOOLS))
    ap.add_argument("--source-dir", action="append", default=[], metavar="DIR=SHOWN",
                    help="the implementation's source folder as the build compiled it and the "
                         "name shown for it (the grader's copy of a submission: "
                         "SLOT/submission=starter); repeatable")
    ap.add_argument("--batch", metavar="DIR",
                    help="run the right kernels of --section in one process per tool of "
                         "nsight.SECTION_SANITIZER_TOOLS; keep the clean ones in DIR")
    ap.add_argument("--section", help="with --batch: the section")
    ap.add_argument("--from-batch", metavar="DIR",
                    help="take the tools the section's batch in DIR found clean, where that holds")
    args = ap.parse_args()
    if args.batch:
        if not args.section:
            ap.error("--batch needs --section")
        return run_batch(args)
    if not args.kernel:
        ap.error("--kernel is required (or --batch)")
    sources = nsight.source_dirs(args.source_dir)
    candidates = None
    failed = False
    clean_in_batch = kept_clean(args)
    for tool in args.tools.split(","):
        if tool in clean_in_batch:
            print(f"{args.kernel}: {tool} clean (in the run of its section's right kernels)")
            continue
        if tool == "racecheck" and not reaches_shared_memory(args.runner, args.kernel):
            print(f"{args.kernel}: racecheck clean (not run: no instruction of its module can "
                  "reach shared memory, where racecheck looks for hazards)")
            continue
        try:
            run = nsight.sanitize_run(args.runner, args.kernel, tool)
        except nsight.ToolUnavailable as err:
            print(f"skipped: {err}")
            return nsight.SKIP
        except RuntimeError as err:
            print(f"FAILED {args.kernel}: {err}")
            if isinstance(err, nsight.ToolTimeout):
                note_gpu_contention(str(err))
            failed = True
            continue
        findings, rc, out = run.findings, run.runner_exit, run.report
        if rc == nsight.SKIP:
            said = run.app_output.strip().splitlines()
            reason = said[-1] if said else "no GPU"
            if reason.startswith("skipped: "):
                reason = reason[len("skipped: "):]
            print(f"skipped: {reason}")
            return nsight.SKIP
        if findings or rc == 99:
            if candidates is None:
                own = nsight.exercise_file(args.runner, args.kernel,
                                           sources[0][1] if sources else "starter")
                candidates = [own] if own else []
            print(f"FAILED {args.kernel}: {tool} reports {how_many(findings, out)}:")
            lines = located(out, sources, candidates)
            if lines:
                for line in lines:
                    print(line)
            else:
                for f in findings[:RAW_LINES]:
                    print(f"  {f}")
            failed = True
        elif rc != 0:
            what = nsight.RUNNER_FAILURES.get(rc, "failed")
            if rc in nsight.RUNNER_CONTENTION or rc not in nsight.RUNNER_STATUSES:
                # A status the runner never chooses (a host crash: exit 11
                # under racecheck, measured on an H100 while another process
                # held the GPU's memory) is the tool's or the machine's
                # trouble; a kernel cannot crash the host process.
                note_gpu_contention(f"under {tool} the runner {what} (exit {rc})")
            print(f"FAILED {args.kernel}: under {tool} the kernel {what} (exit {rc}):")
            shown = (run.app_output + "\n" + out).splitlines()
            print("  " + "\n  ".join(l for l in shown if l.strip())[-1500:])
            failed = True
            if rc == 124:
                break  # the other tools would wait just as long
        else:
            print(f"{args.kernel}: {tool} clean")
    return 1 if failed else 0


# --------------------------------------------------------------------------
# A section's batch


def kernel_inputs(runner, exercise):
    """What a kept clean run depends on besides the kernel: the runner, the
    exercise's module in WB_MODULES' folders and WB_MODULES."""
    return gtest_verdict.batch_inputs([runner], [exercise])


def run_batch(args):
    """Runs the section's right kernels under each tool of
    nsight.SECTION_SANITIZER_TOOLS in one process, and keeps in args.batch,
    per kernel, the tools under which that run was clean. Exits 0 whatever
    happens, an unforeseen error included (a failed fixture would leave the
    checks not run); a check whose tool is not kept runs it alone."""
    return nsight.guarded_batch(_run_batch, args, "every check runs its tools alone")


def _run_batch(args, deadline, listing):
    folder = args.batch
    exercises = {f"{k['section']}/{k['id']}": f"{k['section']}/{k['exercise']}"
                 for k in listing if k.get("section") == args.section}
    right = nsight.right_kernels(args.runner, list(exercises),
                                 timeout=max(1, deadline - time.monotonic()))
    clean = {kernel: [] for kernel in right}
    for tool in nsight.SECTION_SANITIZER_TOOLS if right else ():
        left = deadline - time.monotonic()
        if left < 1:
            break
        try:
            for kernel in nsight.sanitize_batch(args.runner, right, tool, timeout=left):
                clean[kernel].append(tool)
        except nsight.ToolUnavailable as err:
            print(f"batch: {err}; every check runs its tools alone")
            return 0
    kept = 0
    for kernel, tools in clean.items():
        if not tools:
            continue
        doc = {"kernel": kernel, "exercise": exercises[kernel], "clean": tools,
               "inputs": kernel_inputs(args.runner, exercises[kernel])}
        try:
            gtest_verdict.write_json(folder, kernel, ".json", doc)
            kept += 1
        except OSError as err:
            print(f"batch: {err}")
    print(f"batch: {kept} of {len(exercises)} kernel(s) clean under "
          f"{', '.join(nsight.SECTION_SANITIZER_TOOLS)} in one run each ({len(right)} right "
          f"on a plain run); the other tools run alone")
    return 0


def kept_clean(args):
    """The tools the section's batch found clean for the kernel, where its
    inputs are unchanged; () without --from-batch or a usable file."""
    doc = gtest_verdict.read_json(args.from_batch, args.kernel) if args.from_batch else None
    if doc is None:
        return ()
    try:
        if (doc["kernel"] != args.kernel
                or doc["inputs"] != kernel_inputs(args.runner, doc["exercise"])):
            return ()
        return tuple(t for t in doc["clean"] if t in nsight.SECTION_SANITIZER_TOOLS)
    except (ValueError, KeyError, TypeError, AttributeError):
        return ()


if __name__ == "__main__":
    sys.exit(main())
