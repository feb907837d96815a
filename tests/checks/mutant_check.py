#!/usr/bin/env python3
"""Proves that the suite rejects one mutant: a deliberately wrong kernel
built in place of its reference.

A kernel mutant is a module that the section's tests and the runner load
before the reference modules (--modules, set as WB_MODULES). Stages, in
order, stopping at the first that rejects the mutant:
  1. the GPU correctness tests of the mutated exercise (GoogleTest: those
     CTest labels gpu and exercise=<exercise> in the build folder, run in
     one process), under a time limit, so a kernel that never returns is
     caught as a hang;
  2. compute-sanitizer (memcheck, racecheck, synccheck, initcheck) on each
     kernel of the mutated exercise;
  3. Nsight Compute's shared-memory wavefronts per request against the bank
     model, on each kernel of the exercise the model grades, and the
     technique's counters (active threads per instruction, global-load
     efficiency, shuffles per warp and their lanes) where the runner bounds
     them, and the kernel's work against the reference's on the launch;
  4. the method check (tests/checks/method_check.py): the facts of
     workbook.toml about the module's machine code, read without a GPU.
A mutant that expects `method` (a right answer by the wrong technique) is
judged by the method check first, and needs no GPU; with one, its
correctness tests also run, for the record. Without a GPU, a mutant
expecting another stage is still killed where the method check rejects it
(the GPU stages were not run: nothing is recorded), else skipped.
A host-exercise mutant (--host-tests: the exercise's tests linked with the
mutant, nothing else) has two stages: its Host* tests, which need no GPU,
then its Gpu* tests (book 5.1's configuration exercises), which skip
themselves without one.
Exit: 0 killed (the line names the stage and the test or tool that caught
it), 1 survived, 77 when a kernel mutant meets no GPU (and no method check
rejects it, or the disassemblers are missing), or a host-exercise
mutant survives its host tests and its GPU tests were skipped (CTest:
skipped).
With --build, the checks the run reached and those that failed are
recorded in BUILD/mutants/<name>.json, from which ./workbook check tells a
student whose kernel fails the same way (wbcore/diagnosis.py).
"""
import argparse
import json
import os
import pathlib
import re
import subprocess
import sys

from wbcore import ctest_listing
from wbcore import course as wbex
from wbcore import diagnosis
from wbcore import method
from wbcore import nsight
from wbcore import sanitizer_report
from wbcore import sass

SKIP = 77


def runner_kernels(runner, section, exercise):
    """The runner's kernels of one exercise: dicts with the fields of
    `wb_run --list` (tests/runner/runner.cu)."""
    out = subprocess.run([runner, "--list"], capture_output=True, text=True, check=True).stdout
    return [k for k in json.loads(out) if k["section"] == section and k["exercise"] == exercise]


def exercise_tests(build, section, exercise, kind="gpu"):
    """The exercise's correctness tests of one kind (gpu, or host for a host
    exercise), as the build's CTest listing labels them (the reference's
    registration: the mutant runs the same tests)."""
    return ctest_listing.list_tests(build, ["-L", "^solutions$", "-L", f"^{kind}$",
                                            "-L", f"^{section}$",
                                            "-L", f"^{ctest_listing.exercise_label(exercise)}$"])


def stage_tests(tests, timeout, gtest_filter=None, stage="tests", skipped=None, failures=None):
    """Runs a test executable (only the tests of gtest_filter, when given).
    skipped, a list, receives the count of tests GoogleTest skipped; the
    names of the tests that failed are appended to `failures` (a list), when
    given."""
    command = [tests, "--gtest_brief=1"]
    if gtest_filter:
        command.append(f"--gtest_filter={gtest_filter}")
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"hang: the correctness tests did not finish within {timeout} s"
    # "[  FAILED  ] Suite.Test (12 ms)" or, for parameterised tests,
    # "[  FAILED  ] Suite.Test/param, where GetParam() = ...": keep the names
    # in the order they failed, so the first one (the cause, when a fault
    # poisons the rest of the process) comes first.
    failed = []
    for name in re.findall(r"^\[  FAILED  \] ([^\s,]+)(?:,| \()", proc.stdout, re.M):
        if name not in failed:
            failed.append(name)
    if skipped is not None:
        # The brief report's summary: "[  SKIPPED ] 3 tests." (or "1 test.").
        m = re.search(r"^\[  SKIPPED \] (\d+) tests?\.", proc.stdout, re.M)
        if m and int(m.group(1)):
            skipped.append(f"{m.group(1)} test(s)")
    if failures is not None:
        failures.extend(failed)
    if failed:
        return (f"{stage}: {len(failed)} failed, first " + ", ".join(failed[:3])
                + (" ..." if len(failed) > 3 else ""))
    if proc.returncode != 0:
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-3:]
        return f"{stage}: the test process failed (exit {proc.returncode}): " + " | ".join(tail)
    return None


def stage_sanitize(runner, kernels, checks=None):
    """The first tool that finds something on a kernel; each (kernel, tool)
    run is recorded in `checks` ({check name: failed?}) when given."""
    checks = {} if checks is None else checks
    for k in kernels:
        for tool in nsight.SANITIZER_TOOLS:
            findings, rc, out = nsight.sanitize(runner, f"{k['section']}/{k['id']}", tool)
            checks[f"sanitize:{k['id']}:{tool}"] = bool(findings or rc not in (0,))
            if findings or rc not in (0,):
                at_line = sanitizer_report.explain(out, limit=1)
                what = (at_line[0] if at_line else findings[0] if findings
                        else f"runner exit {rc}")
                return f"sanitize: {tool} on {k['id']}: {what}"
    return None


def too_much_work(runner, k, values, reference_modules, lanes=False):
    """The first of work_bounds' failing lines for kernel k's launch (values
    with WORK_METRICS') against the reference's (and lane_bounds', with
    `lanes`), or None."""
    if not reference_modules:
        return None
    reference, _ = nsight.profile(runner, f"{k['section']}/{k['id']}", k["name"],
                                  nsight.WORK_METRICS, modules=reference_modules)
    said = nsight.work_bounds(values, reference)
    if lanes:
        said += nsight.lane_bounds(values, reference)
        # The lanes' own shared bytes, on the source page of each (two more
        # ncu runs), as profile_check's thread_bytes_lines.
        kernel = f"{k['section']}/{k['id']}"
        mine = nsight.executed_sass(runner, kernel, k["name"])
        theirs = nsight.executed_sass(runner, kernel, k["name"], modules=reference_modules)
        said += nsight.thread_byte_bounds(mine, theirs)
    wrong = [line for passed, line in said if not passed]
    return wrong[0] if wrong else None


def stage_profile(runner, kernels, checks=None, reference_modules=None):
    """The first kernel whose measurements differ from the models' (or
    whose work exceeds the reference's on the launch, with
    reference_modules); each kernel profiled is recorded in `checks` when
    given."""
    checks = {} if checks is None else checks
    metrics = dict(nsight.SHARED_METRICS)
    metrics.update(nsight.GLOBAL_METRICS)
    metrics.update(nsight.WORK_METRICS)
    for k in kernels:
        graded = (("shared load wavefronts", k["sharedLoadWays"], "ld_wavefronts", "ld_requests"),
                  ("shared store wavefronts", k["sharedStoreWays"], "st_wavefronts",
                   "st_requests"),
                  ("global store sectors", k["globalStoreSectors"], "gst_sectors",
                   "gst_requests"))
        constant = k.get("constantPasses")
        if constant is not None and k.get("constantRequests"):
            # Constant-cache requests per warp-level load (book 5.5);
            # ToolUnavailable where ncu does not know the metric.
            values, _ = nsight.profile(runner, f"{k['section']}/{k['id']}", k["name"],
                                       nsight.CONSTANT_METRICS, unknown_metric_skips=True)
            measured = values["idc_requests"] / float(k["constantRequests"])
            checks[f"profile:{k['id']}"] = abs(measured - float(constant)) > 0.05 * float(constant)
            if checks[f"profile:{k['id']}"]:
                return (f"profile: {k['id']} constant-cache requests per load {measured:.2f}, "
                        f"expected {float(constant):.2f}")
        if k.get("minActiveThreadsPerInstruction") is not None or k.get("minGlobalLoadEfficiency") is not None:
            values, _ = nsight.profile(runner, f"{k['section']}/{k['id']}", k["name"],
                                       dict(nsight.METHOD_METRICS, **nsight.WORK_METRICS))
            said = nsight.method_counters(values, k.get("minActiveThreadsPerInstruction"),
                                          k.get("minGlobalLoadEfficiency"))
            wrong = [line for passed, line in said if not passed]
            excess = too_much_work(runner, k, values, reference_modules,
                                   lanes=k.get("minActiveThreadsPerInstruction") is not None)
            if excess:
                wrong.append(excess)
            checks[f"method_counters:{k['id']}"] = bool(wrong)
            if wrong:
                return f"profile: {k['id']} {wrong[0]}"
        if k.get("minShufflesPerWarp") is not None:
            said = nsight.executed_shuffles(runner, f"{k['section']}/{k['id']}", k["name"],
                                            float(k["minShufflesPerWarp"]),
                                            max_per_warp=k.get("maxShufflesPerWarp"))
            wrong = [line for passed, line in said if not passed]
            checks[f"method_counters:{k['id']}"] = (
                checks.get(f"method_counters:{k['id']}", False) or bool(wrong))
            if wrong:
                return f"profile: {k['id']} {wrong[0]}"
        if all(expected is None for _, expected, _, _ in graded):
            continue
        values, _ = nsight.profile(runner, f"{k['section']}/{k['id']}", k["name"], metrics)
        checks.setdefault(f"profile:{k['id']}", False)
        excess = too_much_work(runner, k, values, reference_modules)
        if excess:
            checks[f"profile:{k['id']}"] = True
            return f"profile: {k['id']} {excess}"
        for what, expected, num, den in graded:
            if expected is None:
                continue
            measured = values[num] / values[den] if values[den] else 0.0
            if abs(measured - float(expected)) > 0.05 * float(expected):
                checks[f"profile:{k['id']}"] = True
                return (f"profile: {k['id']} {what} per request {measured:.2f}, "
                        f"expected {float(expected):.2f}")
    return None


def missing_arch(module, needed):
    """Why the module cannot show a technique of sm_`needed` and newer (it
    holds machine code for older architectures only), or None."""
    try:
        archs = [arch for arch, _ in sass.disassemble(module)]
    except (sass.ToolsMissing, sass.DisassemblyError) as err:
        return f"its module could not be read: {err}"
    newer = [a for a in archs if int(re.sub(r"\D", "", a) or 0) >= needed]
    if newer:
        return None
    return (f"its wrong technique needs sm_{needed} or newer, and the module holds machine code "
            f"for {', '.join(archs) or 'no architecture'} only (build for a newer GPU, e.g. "
            f"-DCMAKE_CUDA_ARCHITECTURES={needed})")


def stage_method(module, section, exercise, checks=None):
    """The method check of the mutant's module: (killed_by or None, why it
    could not run or None). Each fact is recorded in `checks` as
    "method:<fact>" when given."""
    checks = {} if checks is None else checks
    e = wbex.find_exercise(f"{section}/{exercise}")
    facts = method.exercise_facts(list(e.method))
    if not facts:
        return None, f"workbook.toml lists no method facts for {e.key}"
    try:
        listings = sass.disassemble(module)
    except sass.ToolsMissing as err:
        return None, str(err)
    except sass.DisassemblyError as err:
        # Our own build's module: a missing one is not the mutant's doing.
        return None, f"the module could not be read: {err}"
    kernels, findings = method.evaluate(listings, facts, exercise_file=f"{section}/{exercise}.cu")
    if not kernels:
        return None, f"{module} holds no machine code (SASS)"
    failed = method.failed_facts(findings)
    checks.update({f"method:{f.text}": f.text in failed for f in facts})
    if findings:
        said = method.describe(findings)
        return "method: " + " | ".join(said[:2]) + (" ..." if len(said) > 2 else ""), None
    return None, None


def main():
    ap = argparse.ArgumentParser(
        # The summary, then the options; the details follow them.
        description=__doc__.split("\n\n", 1)[0], epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--name", required=True)
    ap.add_argument("--tests", help="the section's test executable (kernel mutants)")
    ap.add_argument("--runner", help="the kernel runner (kernel mutants)")
    ap.add_argument("--modules", help="WB_MODULES for the tests and the runner: the mutant's "
                                      "module folder, then the reference's (kernel mutants)")
    ap.add_argument("--host-tests", help="the exercise's host tests linked with the mutant "
                                         "(host-exercise mutants)")
    ap.add_argument("--build", help="the build folder, whose CTest listing names the "
                                     "exercise's GPU tests (kernel mutants)")
    ap.add_argument("--section", required=True)
    ap.add_argument("--exercise", required=True)
    ap.add_argument("--expect", default="", help="the stage expected to catch it (documentary)")
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--needs-arch", type=int, metavar="N",
                    help="the mutant's wrong technique exists only on sm_N and newer (its "
                         "'// needs: sm_N' line): skipped where the module holds no such code")
    args = ap.parse_args()

    if args.host_tests:
        failures = []
        killed_by = stage_tests(args.host_tests, args.timeout, "Host*", stage="host",
                                failures=failures)
        skipped = []
        if killed_by is None:
            killed_by = stage_tests(args.host_tests, args.timeout, "Gpu*", skipped=skipped,
                                    failures=failures)
        if args.build:
            try:
                listed = (exercise_tests(args.build, args.section, args.exercise, kind="host")
                          + exercise_tests(args.build, args.section, args.exercise))
            except ctest_listing.ListingError:
                listed = []
            checks = {f"test:{t.gtest_name}": False for t in listed if t.gtest_name}
            checks.update({f"test:{name}": True for name in failures})
            record(args, checks, killed_by)
        if killed_by is None and skipped:
            print(f"skipped: mutant {args.name} survived its host tests, and its GPU "
                  f"tests ({skipped[0]}) were skipped (no usable GPU)")
            return SKIP
        return report(args, killed_by)
    if not (args.tests and args.runner and args.modules and args.build):
        ap.error("a kernel mutant needs --tests, --runner, --modules and --build")
    os.environ["WB_MODULES"] = args.modules
    kernels = runner_kernels(args.runner, args.section, args.exercise)
    if not kernels:
        print(f"mutant {args.name}: the runner lists no kernel of {args.section}/{args.exercise}")
        return 1
    # The mutant's module: the first folder of --modules holds it alone.
    module = (pathlib.Path(args.modules.split(":", 1)[0]) / args.section
              / f"{args.exercise}.fatbin")
    if args.needs_arch:
        why = missing_arch(module, args.needs_arch)
        if why:
            print(f"skipped: mutant {args.name}: {why}")
            return SKIP
    method_checks = {}
    by_method, method_skipped = stage_method(module, args.section, args.exercise, method_checks)
    gpu = subprocess.run([args.runner, "--gpu-check"], capture_output=True, text=True)
    if gpu.returncode != 0:
        no_gpu = (gpu.stdout.strip()
                  or f"skipped: the runner's GPU check failed ({gpu.returncode})")
        if args.expect == "method" and (by_method or not method_skipped):
            record(args, method_checks, by_method)
            return report(args, by_method)
        if by_method:
            # Killed without the GPU stages, which would come first: no record.
            return report(args, by_method, note=" (the GPU stages were not run: no GPU)")
        print(no_gpu + (f"; the method check could not run: {method_skipped}"
                        if method_skipped else ""))
        return SKIP

    try:
        listed = exercise_tests(args.build, args.section, args.exercise)
    except ctest_listing.ListingError as err:
        print(f"mutant {args.name}: {err}")
        return 1
    gtest_filter = ctest_listing.gtest_filter(listed)
    if not gtest_filter:
        print(f"mutant {args.name}: CTest lists no GPU test of {args.section}/{args.exercise}")
        return 1
    failures = []
    killed_by = stage_tests(args.tests, args.timeout, gtest_filter, failures=failures)
    # {check name: failed?} of every check this run reaches (wbcore/diagnosis.py)
    checks = {f"test:{t.gtest_name}": False for t in listed if t.gtest_name}
    checks.update({f"test:{name}": True for name in failures})
    checks.update(method_checks)
    if args.expect == "method":
        # A right answer by the wrong technique: its tests ran for the record.
        if killed_by and by_method:
            by_method += f" (its correctness tests fail too: {killed_by})"
        record(args, checks, by_method)
        return report(args, by_method)
    try:
        if killed_by is None:
            killed_by = stage_sanitize(args.runner, kernels, checks)
        if killed_by is None:
            # The reference's modules follow the mutant's in --modules.
            reference = args.modules.split(":", 1)[1] if ":" in (args.modules or "") else None
            killed_by = stage_profile(args.runner, kernels, checks, reference)
    except nsight.ToolUnavailable as err:
        if killed_by is None and by_method is None:
            print(f"skipped: mutant {args.name} survived the tests and {err}")
            return SKIP
    if killed_by is None:
        killed_by = by_method
    record(args, checks, killed_by)
    return report(args, killed_by)


def record(args, checks, killed_by):
    """The run's record for ./workbook check's diagnosis, in the build folder.
    A hang says nothing about which tests fail: it records no check."""
    if killed_by and killed_by.startswith("hang"):
        checks = {}
    bug = args.name.split("__", 1)[1]
    try:
        diagnosis.write_record(args.build, {
            "mutant": args.name, "section": args.section, "exercise": args.exercise,
            "file": f"tests/mutants/{args.section}/{args.exercise}__{bug}.cu",
            "checked": sorted(checks), "failed": sorted(c for c, bad in checks.items() if bad),
            "killed_by": killed_by or ""})
    except OSError as err:
        print(f"(mutant {args.name}: its record was not written: {err})")


def report(args, killed_by, note=""):
    """Prints the verdict; 0 when the mutant was killed, 1 when it survived."""
    if killed_by:
        stage = killed_by.split(":", 1)[0]
        if args.expect and stage != args.expect and not (
                stage == "hang" and args.expect == "timeout"):
            note = f" (expected {args.expect})" + note
        print(f"KILLED mutant {args.name} by {killed_by}{note}")
        return 0
    if args.expect == "method":
        print(f"SURVIVED mutant {args.name}: the method check did not reject it")
        return 1
    print(f"SURVIVED mutant {args.name}: no test, sanitizer, profile or method check "
          "rejected it")
    return 1


if __name__ == "__main__":
    sys.exit(main())
