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
"""
import argparse
import os
import sys

from wbcore import gtest_verdict
from wbcore import nsight
from wbcore import sanitizer_report

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
        description=__doc__.split("\n\n", 1)[0], epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--kernel", required=True, help="section/id")
    ap.add_argument("--tools", default=",".join(nsight.SANITIZER_TOOLS))
    ap.add_argument("--source-dir", action="append", default=[], metavar="DIR=SHOWN",
                    help="the implementation's source folder as the build compiled it and the "
                         "name shown for it (the grader's copy of a submission: "
                         "SLOT/submission=starter); repeatable")
    args = ap.parse_args()
    sources = nsight.source_dirs(args.source_dir)
    candidates = None
    failed = False
    for tool in args.tools.split(","):
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


if __name__ == "__main__":
    sys.exit(main())
