"""Running Nsight Compute (ncu) and compute-sanitizer on one runner launch.

Both tools may be missing or unable to work on a machine (no permission to
read GPU counters, an unsupported device). Such cases raise ToolUnavailable
with the reason, which the checks report as a skip, never as a pass.

The tools report through a file, never through the runner's stdout: the
runner's stdout also carries whatever the student's kernel prints (device
printf), and a kernel that printed a CSV row shaped like Nsight Compute's
table, or lines shaped like compute-sanitizer's "=========" records, would
otherwise be read as the tool's result (measured on an H100: an unpadded
transposeSmemPad that printed such a table passed its bank-conflict check).
Each run gets a fresh folder that only this user may enter
(tempfile.mkdtemp: mode 0700, a new random name), removed afterwards;
ncu and compute-sanitizer write there with --log-file, and only that file
is parsed for measurements and findings. The runner's stdout is read
only for the harness's verdict ("WRONG ...", "CUDA ERROR ..."), which a
kernel can only add to (making its check fail), and its exit status (0
right, 1 wrong, 3 CUDA error, 75 the GPU held by another process, 77 no
GPU, 124 timed out; chosen by the
harness, tests/runner/runner.cu) is passed through by both tools (seen on
an H100 with 2025.3.1: a kernel left as a TODO exits 1 under each).
"""
import contextlib
import csv
import dataclasses
import io
import json
import math
import os
import pathlib
import re
import selectors
import shutil
import subprocess
import tempfile
import time

from wbcore import gtest_verdict

SKIP = 77

SHARED_METRICS = {
    "ld_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "ld_requests": "smsp__inst_executed_op_shared_ld.sum",
    "st_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "st_requests": "smsp__inst_executed_op_shared_st.sum",
}
GLOBAL_METRICS = {
    "gld_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "gld_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "gst_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "gst_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
}

# The constant cache (book 5.5). Indexed constant loads (LDC, an index held
# in a register) are served by the SM's indexed constant cache, the IDC;
# idc__requests counts its requests. The workbook's model is that a warp
# whose lanes ask for k distinct words makes k requests (the constant cache
# serialises them), so requests per warp-level load is the number of passes.
# Checked on an H100 (Nsight Compute with CUDA 13.0): the references'
# broadcast and 4- and 32-distinct lookups measure within 5% of 1, 4 and 32,
# and a broadcast whose lanes read 32 different words measures 32.03. The
# profile check skips, saying so, where ncu does not know the metric.
CONSTANT_METRICS = {
    "idc_requests": "idc__requests.sum",
}

# The technique per launch (book 5.3 and 5.6): the average of active
# threads per executed warp instruction (a tree or a shuffle keeps whole
# warps busy; one thread adding a block's values one by one runs most
# instructions with one lane), and the share of the bytes of the
# global-load sectors fetched that the lanes use (coalesced loads: near
# 100%).
METHOD_METRICS = {
    "active_threads": "smsp__thread_inst_executed_per_inst_executed.ratio",
    "gld_efficiency": "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
}


def method_counters(values, min_active_threads=None, min_global_load_efficiency=None):
    """[(passed, line)] of the method counters of one launch (METHOD_METRICS'
    values) against the bounds given (None: not graded)."""
    bounds = []   # (measured, least allowed, what was measured, unit, why it fails)
    if min_active_threads is not None:
        active = values["active_threads"]
        bounds.append((active, min_active_threads,
                       f"active threads per warp instruction {active:.1f} of 32", "",
                       "most instructions run with few lanes, as when one thread adds the "
                       "block's values one by one; a tree halves them each step with the "
                       "whole warp"))
    if min_global_load_efficiency is not None:
        efficiency = values["gld_efficiency"]
        bounds.append((efficiency, min_global_load_efficiency,
                       f"global-load efficiency {efficiency:.0f}% of the bytes fetched", "%",
                       "the loads are not coalesced (the lanes of a warp must read "
                       "consecutive words; an unrolled thread's elements are a block apart)"))
    return [(measured >= least,
             line + (f", at least {least:.0f}{unit}" if measured >= least
                     else f", expected at least {least:.0f}{unit}: {why}"))
            for measured, least, line, unit, why in bounds]


# How much a kernel does on the launch its counters are read from, held to
# the reference kernel's on the same launch: the bank, coalescing and method
# counters are averages over the launch, and a kernel that adds enough work
# of the right shape (conflict-free loads, full-warp instructions) moves an
# average past its bound. Such padding multiplies the work: on an H100 a
# serial sum padded to 31.9 active threads executed 237 times the warp
# instructions of the reference reduceSmemDyn, an unpadded transpose tile
# diluted to 1.015 wavefronts per request 85 times the reference's
# (docs/results/method-counters-nvidia-h100.md).
WORK_METRICS = {
    "instructions": "smsp__inst_executed.sum",
    "global_loads": "smsp__sass_inst_executed_op_global_ld.sum",
    "shared_loads": "smsp__inst_executed_op_shared_ld.sum",
    # Read by lane_bounds, for the kernels held to a number of active threads.
    "thread_instructions": "smsp__thread_inst_executed.sum",
    "shared_load_bytes": "smsp__sass_data_bytes_mem_shared_op_ld.sum",
}
# (key, most times the reference's, what it counts). Global loads are held
# closer: a few more coalesced loads lift a load efficiency without adding
# much else. The slack of WORK_SLACK warp instructions keeps a count the
# reference has none of (an exchange's shared loads) from failing on one.
WORK_BOUNDS = (("instructions", 4.0, "warp instructions executed"),
               ("global_loads", 2.0, "global load instructions executed"),
               ("shared_loads", 4.0, "shared load instructions executed"))
WORK_SLACK = 32


def work_bounds(values, reference):
    """[(passed, line)]: the kernel's work on the launch (WORK_METRICS'
    values) against the reference kernel's on the same launch."""
    said = []
    for key, factor, what in WORK_BOUNDS:
        got, ref = values[key], reference[key]
        line = f"{what} {got:.0f}, the reference's {ref:.0f}"
        if got <= factor * ref + WORK_SLACK:
            said.append((True, line + f" (at most {factor:g} times)"))
        else:
            said.append((False, line + f": more than {factor:g} times the reference's work on "
                         "the same launch. Work added to move the averages this check reads "
                         "(conflict-free loads, full-warp instructions) does not count"))
    return said


# The lanes of a warp, all of which a full-mask shuffle names.
FULL_WARP = 32.0

# What an average of active threads hides, counted for the launch as a
# whole, where full-warp work added elsewhere cannot dilute it: the lanes
# left idle by the warp instructions executed (32 per instruction, less the
# threads that executed it), and the bytes loaded from shared memory. A
# tree halves its lanes a few times; a serial sum leaves 31 lanes idle for
# every add, however much full-warp work surrounds it, and a warp whose 32
# lanes each repeat the serial sum loads every value 32 times. The bytes are
# those the loads require, a broadcast's counted once (all lanes repeating
# the sum in the same order stay under the bound: an open forgery, in
# grader/tests/forgeries/open/). Measured on an H100
# (docs/results/method-counters-nvidia-h100.md), on the runner's reduceSmem
# launch: idle lanes 620 for the reference, 496 and 992 for two honest
# variants, 12,400 for the serial sum and 12,513 for it padded to 25.6
# active threads; shared bytes loaded 4,080 for the reference, 5,632 at most
# for the honest variants.
LANE_BOUNDS = (("idle_lanes", 4.0, 32 * 32, "lanes left idle by the warp instructions executed",
                "most instructions ran with a few lanes while the others waited, as when "
                "one thread adds the block's values one by one; a tree halves the lanes "
                "only for its last few steps"),
               ("shared_load_bytes", 4.0, 4 * 32 * 32, "bytes loaded from shared memory",
                "the threads read the shared values many times over, as when every lane "
                "of a warp repeats the serial sum; a tree reads each partial sum once or "
                "twice"),
               # Each lane's bytes, from the SASS view of the source page
               # (ncu_source.Executions.shared_load_bytes_by_thread): the
               # count above takes a broadcast's bytes once, so 32 lanes
               # repeating the serial sum in the same order loaded no more
               # than one (an open forgery until this bound). At most twice
               # the reference's and 1 KB: the honest variants load 1.0 and
               # 1.38 times the reference's; a warp that adds columns and
               # then has every lane re-add the 32 column sums (raking with
               # no tree) 4.5 times, inside the 4 times first set.
               ("thread_shared_load_bytes", 2.0, 32 * 32,
                "bytes the lanes loaded from shared memory, each lane counted",
                "the lanes read the shared values many times over, each its own copy, as "
                "when every lane of a warp repeats the serial sum by broadcast loads; a "
                "tree reads each partial sum once or twice"))
# The least the lanes store to and load from shared memory, against the
# reference's on the same launch: a reduction in shared memory puts every
# thread's value (or its register sum) there and reads it back as the tree
# adds. A kernel whose values never go through shared memory (warp 0
# reading columns from global memory, only 32 sums stored) moves a small
# share of those bytes, and so does one thread adding the block's values one
# by one (the values stored once, loaded once by one lane: half the
# reference's bytes), even where its instructions are issued by the whole
# warp under a predicate, which the active threads and idle lanes do not
# see; a tree over the block's values stores and loads them once and its
# partial sums too, three quarters of the reference's bytes or more. A
# kernel that stores and loads more only to pad these counts, and adds the
# values another way, is not stopped here.
# (key, the Executions field, least share of the reference's, what, why)
LANE_MINIMA = (("thread_shared_store_bytes", "shared_store_bytes_by_thread", 0.6,
                "bytes the lanes stored to shared memory, each lane counted",
                "the block's values did not go through shared memory: every thread stores "
                "its value (or its register sum) before the tree adds the stored values"),
               ("thread_shared_load_bytes", "shared_load_bytes_by_thread", 0.6,
                "bytes the lanes loaded from shared memory, each lane counted",
                "the block's values were not added from shared memory: each step of the "
                "tree loads the partial sums the step before stored"))
# Where LANE_BOUNDS' and LANE_MINIMA's values come from, for the line that
# says one was not counted: WORK_METRICS' metric, or this.
LANE_SOURCES = {"thread_shared_load_bytes": "the source page's predicated-on lanes and access "
                                            "sizes of the shared loads",
                "thread_shared_store_bytes": "the source page's predicated-on lanes and access "
                                             "sizes of the shared stores"}


def lane_bounds(values, reference, keys=("idle_lanes", "shared_load_bytes")):
    """[(passed, line)]: the launch's idle lanes and shared-memory bytes
    loaded (from WORK_METRICS' values; the lanes' own bytes from
    "thread_shared_load_bytes" where `keys` names it) against the reference
    kernel's on the same launch, for a kernel graded on its active
    threads."""
    said = []
    for key, factor, slack, what, why in LANE_BOUNDS:
        if key not in keys:
            continue
        got, ref = _lane_value(values, key), _lane_value(reference, key)
        if math.isnan(got) or math.isnan(ref):
            source = LANE_SOURCES.get(key, WORK_METRICS.get(key, key))
            said.append((True, f"{what}: not counted by this GPU's Nsight Compute "
                               f"({source}), not graded"))
            continue
        line = f"{what} {got:.0f}, the reference's {ref:.0f}"
        if got <= factor * ref + slack:
            said.append((True, line + f" (at most {factor:g} times)"))
        else:
            said.append((False, line + f": more than {factor:g} times the reference's on the "
                         f"same launch: {why}"))
    return said


def thread_byte_bounds(mine, reference):
    """[(passed, line)] for the bytes the lanes loaded from shared memory
    (at most LANE_BOUNDS' share, at least LANE_MINIMA's) and stored to it
    (at least LANE_MINIMA's) on a launch, each lane counted, from the SASS
    view of its source page (ncu_source.Executions), against the reference
    kernel's on the same launch."""
    key = "thread_shared_load_bytes"
    said = lane_bounds({key: mine.shared_load_bytes_by_thread},
                       {key: reference.shared_load_bytes_by_thread}, keys=(key,))
    for key, field, share, what, why in LANE_MINIMA:
        got = float(getattr(mine, field, math.nan))
        ref = float(getattr(reference, field, math.nan))
        if math.isnan(got) or math.isnan(ref):
            said.append((True, f"{what}: not counted by this GPU's Nsight Compute "
                               f"({LANE_SOURCES[key]}), not graded"))
        elif got >= share * ref:
            said.append((True, f"{what} {got:.0f}, the reference's {ref:.0f} "
                               f"(at least {share:g} times)"))
        else:
            said.append((False, f"{what} {got:.0f}, the reference's {ref:.0f}: less than "
                                f"{share:g} times the reference's on the same launch: {why}"))
    return said


def _lane_value(values, key):
    if key == "idle_lanes":
        return FULL_WARP * values["instructions"] - values["thread_instructions"]
    return float(values.get(key, math.nan))


def shuffle_counter(executions, min_per_warp, max_per_warp=None):
    """[(passed, line)] of the shuffles the launch executed (an
    ncu_source.Executions): at least min_per_warp per warp, since a SHFL
    that the code holds but never runs (behind a branch the contract never
    takes) moves no value between lanes; at most max_per_warp where one is
    given, since where only some warps may shuffle (reduceSmemShfl: warp 0
    of a block, after the tree) more means every warp shuffles its own
    values, another exercise's technique; and each with the whole warp, since
    every shuffle of the workbook names all 32 lanes in its mask, and one
    that runs while some of them have left or branched away (a bounds test
    around the warp's shuffles) is undefined."""
    warps = executions.warps
    shuffles = executions.by_warp.get("SHFL", 0.0)
    per_warp = shuffles / warps if warps else 0.0
    line = (f"shuffles executed per warp {per_warp:.2f} ({shuffles:.0f} by {warps:.0f} "
            f"warps)")
    if max_per_warp is not None and per_warp > float(max_per_warp) + 1e-6:
        said = [(False, line + f", expected at most {float(max_per_warp):g}: more warps "
                 "shuffle than the technique lets (only the last warp adds its sums by "
                 "shuffle, once the shared-memory tree has brought them down to 32)")]
    elif per_warp >= min_per_warp:
        said = [(True, line + f", at least {min_per_warp:g}"
                 + (f" and at most {float(max_per_warp):g}" if max_per_warp is not None else ""))]
    else:
        said = [(False, line + f", expected at least {min_per_warp:g}: no value moved between "
                 "lanes on this launch (a shuffle the code holds but never runs does not "
                 "count; the lanes must trade their values with __shfl*_sync)")]
    if shuffles:
        lanes = executions.by_lane.get("SHFL", 0.0) / shuffles
        line = f"lanes taking part in each shuffle {lanes:.2f} of 32 on average"
        if lanes >= FULL_WARP - 1e-6:
            said.append((True, line + ", the whole warp as the full mask says"))
        else:
            said.append((False, line + ": a shuffle whose mask names all 32 lanes ran while "
                         "some of them had left or branched away (a bounds test around the "
                         "warp's shuffles, an early return); every lane must reach it, with "
                         "a neutral value where it has no element"))
    return said


def executed_sass(runner, kernel, qualified_name, modules=None, timeout=180):
    """What the launch of qualified_name by `runner kernel` executed
    (ncu_source.Executions), from the SASS view of ncu's source page, read
    from ncu's report file alone (modules: the WB_MODULES to load it from,
    the reference build's, say). ToolUnavailable where ncu cannot profile;
    RuntimeError where the kernel is wrong or the page cannot be read."""
    from wbcore import ncu_source
    with private_folder("wb-ncu-sass-") as folder:
        log = os.path.join(folder, "ncu-sass.log")
        cmd = ncu_source.sass_command(find_tool("ncu"), runner, kernel,
                                      qualified_name.split("::")[-1], log_file=log)
        env = dict(os.environ, WB_MODULES=modules) if modules else None
        proc, report = _run_ncu(cmd, timeout, "ncu's SASS page", log, env)
    said = _diagnostics(proc, report)
    _raise_if_unavailable(proc, report, said)
    problem = runner_problem(proc.returncode, proc.stdout.strip())
    if problem:
        raise RuntimeError(f"the kernel must be correct before its instructions are counted:\n"
                           f"{problem}")
    try:
        return ncu_source.executed_by_opcode(report)
    except ncu_source.SourcePageError as err:
        raise RuntimeError(f"{err} (exit {proc.returncode}): "
                           f"{_last_line(said, '')}") from None


def executed_shuffles(runner, kernel, qualified_name, min_per_warp, timeout=180,
                      max_per_warp=None):
    """shuffle_counter's [(passed, line)] for the launch of qualified_name by
    `runner kernel` (executed_sass)."""
    return shuffle_counter(executed_sass(runner, kernel, qualified_name, timeout=timeout),
                           min_per_warp, max_per_warp)


def sass_batch(runner, kernels, modules=None, timeout=300):
    """executed_sass for several kernels in one ncu process
    (`wb_run --first-launches --status FILE ID...`, the SASS view of the source page):
    {id: ncu_source.Executions} for each of `kernels` ([(id, qualified
    name)]) that the runner found right, from the first launch of its
    function after the marker launch before it, read from ncu's report file
    alone. Raises like executed_shuffles when ncu cannot run; a kernel that
    is wrong, failed or was not reached is left out, and where the markers
    do not match the kernels reached nothing is known ({})."""
    from wbcore import ncu_source
    with private_folder("wb-ncu-sass-batch-") as folder:
        log = os.path.join(folder, "ncu-sass.log")
        status = os.path.join(folder, "status.txt")
        names = [LAUNCH_MARKER] + [q.split("::")[-1] for _, q in kernels]
        cmd = ncu_source.batch_sass_command(find_tool("ncu"), runner, [k for k, _ in kernels],
                                            names, status, log)
        env = dict(os.environ, WB_MODULES=modules) if modules else None
        proc, report = _run_ncu(cmd, timeout, "ncu's SASS page", log, env)
        right = run_status(status)
    said = _diagnostics(proc, report)
    _raise_if_unavailable(proc, report, said)
    segments, current = [], None
    for name, table in ncu_source.tables_by_launch(report):
        if _shown_name(name) == LAUNCH_MARKER:
            current = []
            segments.append(current)
        elif current is not None:
            current.append((name, table))
    if len(segments) != len(right):
        return {}
    found = {}
    for (kernel, qualified_name), launches in zip(kernels, segments):
        if right.get(kernel) != "ok":
            continue
        wanted = qualified_name.split("::")[-1]
        table = next((t for name, t in launches if _shown_name(name) == wanted), None)
        if table is None:
            continue
        try:
            found[kernel] = ncu_source.executed_by_opcode(table)
        except ncu_source.SourcePageError:
            continue
    return found


class ToolUnavailable(RuntimeError):
    pass


# The runner's exit statuses that say its kernel failed (tests/runner/runner.cu).
RUNNER_FAILURES = {1: "gave a wrong result", 3: "hit a CUDA error",
                   75: "could not run: another process held the GPU", 124: "never returned"}
# The runner's statuses (and the tools' own time limits, ToolTimeout) that can
# come of another process holding the GPU: its out-of-memory or
# device-unavailable error met by the harness's own CUDA call (75), or a
# launch slowed past the runner's watchdog (124).
RUNNER_CONTENTION = (75, 124)
# Every status the runner itself ends with (tests/runner/runner.cu), and
# compute-sanitizer's own for findings (99).
RUNNER_STATUSES = (0, 1, 2, 3, 75, 77, 99, 124)


class ToolTimeout(RuntimeError):
    """ncu or compute-sanitizer did not finish within its time limit."""


# What one run of the kernel runner (under a tool or not) may print: as
# much as a GoogleTest test (gtest_verdict says why): its own lines and the
# tool's are a few KB; a kernel's printf is the student's.
OUTPUT_LIMIT = gtest_verdict.OUTPUT_LIMIT


class OutputFlood(RuntimeError):
    """The runner (its kernel's printf) printed more than OUTPUT_LIMIT bytes."""


def run_capped(cmd, timeout, env=None, limit=OUTPUT_LIMIT):
    """subprocess.run(cmd, capture_output=True, text=True, errors="replace",
    timeout=timeout, env=env), but the command is killed once its stdout and
    stderr together pass `limit` bytes (OutputFlood), as at its time limit
    (subprocess.TimeoutExpired): what a kernel prints is held to that much
    memory here, never all of it. The tool's own child, the runner, then
    meets a closed pipe. The command stays in the caller's process group,
    which CTest and the grader's sandbox kill whole."""
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    chunks = {proc.stdout: [], proc.stderr: []}
    total = 0
    deadline = time.monotonic() + timeout
    problem = None
    try:
        with selectors.DefaultSelector() as sel:
            for f in chunks:
                sel.register(f, selectors.EVENT_READ)
            while sel.get_map():
                left = deadline - time.monotonic()
                if left <= 0:
                    problem = "timeout"
                    break
                for key, _ in sel.select(min(left, 1.0)):
                    data = os.read(key.fileobj.fileno(), 1 << 16)
                    if not data:
                        sel.unregister(key.fileobj)
                        continue
                    total += len(data)
                    if total > limit:
                        problem = "flood"
                        break
                    chunks[key.fileobj].append(data)
                if problem:
                    break
        if problem is None:
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                problem = "timeout"
    finally:
        if problem is not None or proc.poll() is None:
            proc.kill()
        proc.stdout.close()
        proc.stderr.close()
        proc.wait()
    if problem == "timeout":
        raise subprocess.TimeoutExpired(cmd, timeout)
    if problem == "flood":
        raise OutputFlood(f"the kernel's run printed more than {limit >> 20} MiB (a printf in "
                          f"the kernel?); it was stopped there")
    # As text=True reads it: universal newlines.
    text = [b"".join(chunks[f]).decode("utf-8", "replace").replace("\r\n", "\n")
            .replace("\r", "\n") for f in (proc.stdout, proc.stderr)]
    return subprocess.CompletedProcess(cmd, proc.returncode, text[0], text[1])


def runner_problem(runner_exit, app_output):
    """Why the run of the kernel failed, from the harness's own signals (its
    exit status, its WRONG / CUDA ERROR / TIMEOUT line), or None. A kernel's
    printf can add such a line but never remove the harness's."""
    said = [l.strip() for l in app_output.splitlines()
            if l.startswith(("WRONG ", "CUDA ERROR ", "TIMEOUT "))]
    if said:
        return "\n".join(said)
    if runner_exit in RUNNER_FAILURES:
        return f"the kernel {RUNNER_FAILURES[runner_exit]} (runner exit {runner_exit})"
    return None


@contextlib.contextmanager
def private_folder(prefix):
    """A new folder only this user may enter (mkdtemp: mode 0700, a random
    name no other process can have prepared), removed afterwards: where a
    tool writes the report this process reads."""
    folder = tempfile.mkdtemp(prefix=prefix)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _read_report(path):
    try:
        return pathlib.Path(path).read_text(errors="replace")
    except OSError:
        return ""


def find_tool(name):
    path = shutil.which(name)
    if path is None:
        for folder in ("/usr/local/cuda/bin", "/opt/nvidia/nsight-compute"):
            candidate = os.path.join(folder, name)
            if os.path.exists(candidate):
                return candidate
        raise ToolUnavailable(f"{name} is not installed (it ships with the CUDA Toolkit: "
                              f"put /usr/local/cuda/bin on PATH)")
    return path


def _run_ncu(cmd, timeout, what, log, env=None):
    """Runs an ncu command line that writes its report to `log`; returns (the
    process, the report's text). The diagnostics looked for are ncu's own
    lines, so they are read from the report, or from ncu's stderr when it
    stopped before opening the report. RuntimeError when it does not finish
    in time, ToolUnavailable when it may not read the GPU's counters."""
    try:
        proc = run_capped(cmd, timeout, env=env)
    except subprocess.TimeoutExpired:
        raise ToolTimeout(f"{what} did not finish within {timeout} s")
    report = _read_report(log)
    if "ERR_NVGPUCTRPERM" in (report if report.strip() else proc.stderr):
        raise ToolUnavailable("ncu may not read the GPU's performance counters here "
                              "(ERR_NVGPUCTRPERM): run as root or allow profiling for all "
                              "users (NVreg_RestrictProfilingToAdminUsers=0)")
    return proc, report


def _raise_if_unavailable(proc, report, said):
    """ToolUnavailable when ncu could not profile here (its profiler did
    not initialise) or the runner found no usable GPU; `said` is
    _diagnostics' text."""
    if "LibraryNotLoaded" in said or "Failed to initialize the profiler" in said:
        raise ToolUnavailable("ncu could not initialise its profiler on this machine: "
                              + _last_line(said, f"exit {proc.returncode}"))
    if proc.returncode == SKIP or "skipped:" in proc.stdout and "==PROF==" not in report:
        raise ToolUnavailable("the runner reports no usable GPU")


def _diagnostics(proc, report):
    """ncu's own messages: the report, or its stderr when it wrote no report."""
    return report if report.strip() else proc.stderr


def _last_line(text, fallback):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[-1].strip() if lines else fallback


def read_raw_page(report):
    """(header, data rows) of the raw page's CSV table in an ncu report: the
    first quoted row naming "Kernel Name" is the header, the row after it
    holds the units, the rows after that with as many fields are the
    launches. ([], []) when the report holds no such table."""
    rows = list(csv.reader(io.StringIO(
        "\n".join(l for l in report.splitlines() if l.startswith('"')))))
    for i, row in enumerate(rows):
        if "Kernel Name" in row:
            return row, [r for r in rows[i + 2:] if len(r) == len(row)]
    return [], []


@dataclasses.dataclass
class Profile:
    values: dict        # {key: value} of the metrics asked for
    app_output: str     # the runner's stdout: the harness's lines and the kernel's printf
    runner_exit: int    # ncu's exit status: the runner's, which ncu passes on


def profile(runner, kernel, qualified_name, metrics, timeout=120, unknown_metric_skips=False,
            modules=None):
    """Profile `runner kernel` under ncu; return ({key: value}, the runner's
    output) for the launch of the kernel named qualified_name. With
    unknown_metric_skips, a metric this ncu or GPU does not know raises
    ToolUnavailable naming it (for metrics not yet verified on every GPU);
    with modules, the kernel comes from those module folders."""
    run = profile_run(runner, kernel, qualified_name, metrics, timeout, unknown_metric_skips,
                      modules)
    return run.values, run.app_output


def profile_run(runner, kernel, qualified_name, metrics, timeout=120,
                unknown_metric_skips=False, modules=None):
    """profile(), returning a Profile that also holds the runner's exit
    status; with `modules`, the runner loads the kernel from those module
    folders (WB_MODULES) instead of the ones the environment names."""
    ncu = find_tool("ncu")
    with private_folder("wb-ncu-") as folder:
        log = os.path.join(folder, "ncu.log")
        # A metric asked for twice (a work metric that is also a bank
        # metric) is asked for once.
        asked = ",".join(dict.fromkeys(metrics.values()))
        cmd = [ncu, "--csv", "--page", "raw", "--metrics", asked,
               "--log-file", log, runner, kernel]
        env = dict(os.environ, WB_MODULES=modules) if modules else None
        proc, report = _run_ncu(cmd, timeout, "ncu", log, env)
    said = _diagnostics(proc, report)
    _raise_if_unavailable(proc, report, said)
    if unknown_metric_skips:
        for line in said.splitlines():
            if "ERROR" in line and "metric" in line.lower() and any(
                    m in line for m in metrics.values()):
                raise ToolUnavailable("ncu does not know a metric of this check on this GPU: "
                                      + line.strip())
    app_output = proc.stdout.strip()
    header, data = read_raw_page(report)
    if not header:
        raise RuntimeError(f"ncu produced no metrics (exit {proc.returncode}):\n"
                           f"{said[-2000:]}\n{app_output[-1000:]}".rstrip())
    _check_columns(header, metrics)
    values = _launch_values(header, data, qualified_name, metrics)
    if values is not None:
        return Profile(values, app_output, proc.returncode)
    names = sorted({r[header.index("Kernel Name")] for r in data})
    raise RuntimeError(f"ncu saw no launch of {qualified_name}; it saw: {names}\n{app_output}")


# Metrics an older GPU's Nsight Compute may not count: a table without
# their column gives them no value (NaN), and the bound that reads them says
# it was not measured (lane_bounds) instead of failing every check.
OPTIONAL_METRICS = frozenset(("smsp__sass_data_bytes_mem_shared_op_ld.sum",))


def _check_columns(header, metrics):
    missing = [m for m in metrics.values() if m not in header and m not in OPTIONAL_METRICS]
    if missing:
        raise RuntimeError(f"ncu's table has no column {', '.join(missing)}")


def _shown_name(name):
    """A launch's function name without its scopes and parameters: ncu
    shortens scopes in the names it prints ("layout::setRowReadCol(int *)"
    for wb::layout::square::setRowReadCol)."""
    return re.sub(r"\(.*", "", name).split("::")[-1]


def _launch_values(header, rows, qualified_name, metrics):
    """{key: value} of the first of `rows` that launched qualified_name, or
    None. The runner launches one workbook kernel per process (or per
    segment between markers, profile_batch), so the function's own name
    identifies it."""
    name_col = header.index("Kernel Name")
    wanted = qualified_name.split("::")[-1]
    for row in rows:
        if _shown_name(row[name_col]) == wanted:
            values = {}
            for key, metric in metrics.items():
                if metric not in header:   # OPTIONAL_METRICS only (_check_columns)
                    values[key] = math.nan
                    continue
                raw = row[header.index(metric)].replace(",", "")
                values[key] = float(raw) if raw not in ("", "n/a") else 0.0
            return values
    return None


# The kernel the runner launches before each kernel of a run of several
# (tests/harness/src/launch_marker.cu).
LAUNCH_MARKER = "wbRunnerKernelBoundary"


def profile_batch(runner, kernels, metrics, modules=None, timeout=300):
    """Profiles several kernels of the runner in one ncu process (`wb_run
    --status FILE ID...`): {id: {key: value}} for each of `kernels` ([(id,
    qualified name)]) that the runner found right (its status file, which no
    kernel can write), read from ncu's report file alone. A kernel's launch
    is looked for only between the marker launch before it and the next
    one. Raises like profile_run when ncu cannot run or reports nothing; a
    kernel that is wrong, failed or was not reached is left out."""
    ncu = find_tool("ncu")
    with private_folder("wb-ncu-batch-") as folder:
        log = os.path.join(folder, "ncu.log")
        status = os.path.join(folder, "status.txt")
        asked = ",".join(dict.fromkeys(metrics.values()))
        cmd = [ncu, "--csv", "--page", "raw", "--metrics", asked, "--log-file", log,
               runner, "--status", status, *[k for k, _ in kernels]]
        env = dict(os.environ, WB_MODULES=modules) if modules else None
        proc, report = _run_ncu(cmd, timeout, "ncu", log, env)
        right = run_status(status)
    said = _diagnostics(proc, report)
    _raise_if_unavailable(proc, report, said)
    header, data = read_raw_page(report)
    if not header:
        raise RuntimeError(f"ncu produced no metrics (exit {proc.returncode}):\n"
                           f"{said[-2000:]}".rstrip())
    _check_columns(header, metrics)
    if "ID" in header:
        data.sort(key=lambda r: int(r[header.index("ID")]) if r[header.index("ID")].isdigit()
                  else -1)
    name_col = header.index("Kernel Name")
    segments, current = [], None
    for row in data:
        if _shown_name(row[name_col]) == LAUNCH_MARKER:
            current = []
            segments.append(current)
        elif current is not None:
            current.append(row)
    if len(segments) != len(right):
        return {}   # a marker for each kernel the runner reached, or nothing is known
    found = {}
    for (kernel, qualified_name), rows in zip(kernels, segments):
        if right.get(kernel) != "ok":
            continue
        values = _launch_values(header, rows, qualified_name, metrics)
        if values is not None:
            found[kernel] = values
    return found


# How long a section's batch may take in all (CTest's limit for the fixture
# is this plus 120 s): what it has no time left for is measured alone.
BATCH_SECONDS = 300


# Set by the grader when it runs only the tests of some exercises (the
# others' outcomes come from its result cache): their keys, "section/name",
# comma-separated. A section's batch then runs only those exercises' kernels;
# it would run the others' for checks that are not run.
BATCH_EXERCISES_ENV = gtest_verdict.BATCH_EXERCISES_ENV


def batch_exercises():
    """The exercise keys a section's batch is limited to (BATCH_EXERCISES_ENV),
    or None: every kernel of the section."""
    value = os.environ.get(BATCH_EXERCISES_ENV)
    return None if value is None else {key for key in value.split(",") if key}


def guarded_batch(body, args, otherwise):
    """Runs a section's batch, body(args, deadline, listing), after
    start_batch(args.batch, args.runner), and returns its exit status, or 0
    whatever goes wrong, saying so and then `otherwise` (what the checks do
    instead): the batch is a CTest fixture, and a failed one would leave
    every check that requires it not run."""
    try:
        try:
            listing = start_batch(args.batch, args.runner)
        except (OSError, ValueError, subprocess.TimeoutExpired) as err:
            print(f"batch: {err}; {otherwise}")
            return 0
        wanted = batch_exercises()
        if wanted is not None:
            listing = [k for k in listing if f"{k.get('section')}/{k.get('exercise')}" in wanted]
            print(f"batch: only the kernels of {', '.join(sorted(wanted)) or 'no exercise'} "
                  f"({BATCH_EXERCISES_ENV})")
        return body(args, time.monotonic() + BATCH_SECONDS, listing)
    except Exception as err:   # noqa: BLE001 - nothing may fail the fixture
        print(f"batch: stopped ({type(err).__name__}: {err}); {otherwise}")
        return 0


def start_batch(folder, runner):
    """Readies a section's batch: creates `folder` and removes the files an
    earlier batch kept there, then returns the runner's kernels (`wb_run
    --list`, a list of dicts). OSError, ValueError, TimeoutExpired."""
    os.makedirs(folder, exist_ok=True)
    for entry in os.scandir(folder):
        if entry.name.endswith(".json"):
            os.unlink(entry.path)
    return json.loads(subprocess.run([runner, "--list"], capture_output=True, text=True,
                                     errors="replace", timeout=60).stdout)


def right_kernels(runner, kernels, modules=None, timeout=None):
    """The ids among `kernels` whose launch the runner found right when run
    once, all in one process, without a tool (`wb_run --status`: well under
    a second for a section): a batch under ncu profiles only those, so a
    kernel still as the starter gives it, or wrong, costs no replays."""
    with private_folder("wb-run-status-") as folder:
        status = os.path.join(folder, "status.txt")
        env = dict(os.environ, WB_MODULES=modules) if modules else None
        try:
            run_capped([runner, "--status", status, *kernels],
                       timeout or 60 * len(kernels) + 30, env=env)
        except (OSError, subprocess.TimeoutExpired, OutputFlood):
            pass   # the kernels the status file names before it stopped
        return [k for k, word in run_status(status).items() if word == "ok" and k in kernels]


def run_status(path):
    """{id: word} from the status file of `wb_run --status` (ok, wrong,
    error, contention); {} when it cannot be read."""
    words = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as lines:
            for line in lines:
                parts = line.split()
                if len(parts) == 2:
                    words.setdefault(parts[0], parts[1])
    except OSError:
        return {}
    return words


def source_page(runner, kernel, qualified_name, timeout=180):
    """Nsight Compute's source page (SourceCounters, per CUDA source line, as
    CSV) for the launch of qualified_name by `runner kernel`: the text
    wbcore/ncu_source.py reads, from ncu's report file alone (what the
    kernel prints never reaches it). ToolUnavailable where ncu cannot
    profile."""
    from wbcore import ncu_source
    with private_folder("wb-ncu-source-") as folder:
        log = os.path.join(folder, "ncu-source.log")
        cmd = ncu_source.source_command(find_tool("ncu"), runner, kernel,
                                        qualified_name.split("::")[-1], log_file=log)
        proc, report = _run_ncu(cmd, timeout, "ncu's source page", log)
    if proc.returncode != 0 and not any(l.startswith('"') for l in report.splitlines()):
        last = _last_line(_diagnostics(proc, report), f"exit {proc.returncode}")
        raise RuntimeError(f"ncu could not print the source page: {last}")
    return report


def kernel_exercise(runner, kernel):
    """"section/exercise" of the module the runner loads for `kernel`
    (section/id), from the runner's listing; None when the runner cannot
    say."""
    section, _, kernel_id = kernel.partition("/")
    try:
        out = subprocess.run([runner, "--list"], capture_output=True, text=True, errors="replace",
                             timeout=60).stdout
        listed = [k for k in json.loads(out) if k["section"] == section and k["id"] == kernel_id]
    except (OSError, ValueError, KeyError, TypeError, subprocess.TimeoutExpired):
        return None
    return f"{section}/{listed[0]['exercise']}" if listed else None


def exercise_file(runner, kernel, shown="starter"):
    """The path shown for the file of the exercise whose module the runner
    loads for `kernel` (section/id): <shown>/<section>/<exercise>.cu; None
    when the runner cannot say."""
    exercise = kernel_exercise(runner, kernel)
    return f"{shown}/{exercise}.cu" if exercise else None


def source_dirs(values):
    """(folder, shown) pairs from the checks' --source-dir DIR=SHOWN options."""
    return [tuple(v.split("=", 1)) if "=" in v else (v, os.path.basename(v.rstrip("/")))
            for v in values]


SANITIZER_TOOLS = ("memcheck", "racecheck", "synccheck", "initcheck")


def sanitize_command(runner, kernel, tool, log_file=None):
    """The compute-sanitizer command line of one tool on one runner launch,
    writing its report to log_file when given (the runner's output stays on
    stdout).

    The modules are compiled with -lineinfo, so each finding's "at" line
    names the source file and line (wbcore/sanitizer_report.py reads them).
    --show-backtrace device adds the device frames, through which a finding
    in a header the exercise inlines is placed at the student's line that
    called it, and leaves out the host frames (noise to a student).
    racecheck reports in analysis mode: one record per pair of source
    locations with the number of hazards between them ("[40 hazards]") and
    a severity that says whether they are warp-level (lanes of one warp) or
    between warps; the hazard mode prints every hazard, so --print-limit
    would cut the count short."""
    cmd = [find_tool("compute-sanitizer"), "--tool", tool, "--error-exitcode", "99",
           "--print-limit", "20", "--show-backtrace", "device"]
    if tool == "racecheck":
        cmd += ["--racecheck-report", "analysis"]
    if log_file:
        cmd += ["--log-file", log_file]
    return cmd + [runner, *([kernel] if isinstance(kernel, str) else kernel)]


# The tools whose cost is the process's, not the kernels' (about half a
# second a process on an H100 whether it runs one kernel or a section's 18,
# docs/results/profile-batches-nvidia-h100.md): a section's kernels run
# under each of them in one process. racecheck's cost grows with the
# kernels it watches, so its checks keep a process each and run in parallel.
SECTION_SANITIZER_TOOLS = ("memcheck", "synccheck", "initcheck")


def sanitize_batch(runner, kernels, tool, timeout=300):
    """Runs `kernels` (ids) in one runner process under compute-sanitizer
    --tool TOOL (`wb_run --status FILE ID...`): the ids the runner found
    right (its status file), provided the tool's report holds no finding at
    all and the process ended normally; else none (each kernel's check then
    runs the tool alone, which names what it found). A finding anywhere
    keeps nothing, so no kernel's clean run stands beside another's fault."""
    with private_folder("wb-sanitizer-batch-") as folder:
        log = os.path.join(folder, f"{tool}.log")
        status = os.path.join(folder, "status.txt")
        cmd = sanitize_command(runner, ["--status", status, *kernels], tool, log_file=log)
        try:
            proc = run_capped(cmd, timeout)
        except (subprocess.TimeoutExpired, OutputFlood):
            return []
        report = _read_report(log)
        right = run_status(status)
    findings = _findings(report)
    summary = re.search(r"ERROR SUMMARY: (\d+) error", report)
    if findings or proc.returncode not in (0, 1) or not summary or summary.group(1) != "0":
        return []
    return [k for k in kernels if right.get(k) == "ok"]


def _findings(report):
    """The "=========" lines of a compute-sanitizer report that name a
    finding (not the banner, not the summary), stripped."""
    return [l.strip() for l in report.splitlines()
            if l.startswith("=========") and "SUMMARY" not in l
            and any(k in l for k in _FINDING_WORDS)]


# Words of the "=========" lines that report a finding (not the banner, not
# the summary).
_FINDING_WORDS = ("Invalid", "Race", "race", "Barrier", "Uninitialized", "hazard", "Misaligned",
                  "Out-of-range", "out of bounds", "Divergent")


@dataclasses.dataclass
class Sanitized:
    findings: list      # the report's "=========" lines that name a finding
    runner_exit: int    # 99 when the tool found something, else the runner's own
    report: str         # compute-sanitizer's report (its --log-file), nothing else
    app_output: str     # the runner's stdout and stderr: the harness's lines, the kernel's printf


def sanitize(runner, kernel, tool, timeout=300):
    """Run `runner kernel` under compute-sanitizer --tool TOOL. Returns
    (findings, runner_exit, report): findings is a list of hazard lines
    (sanitizer_report.explain(report) tells them at the line); the report is
    the tool's alone."""
    run = sanitize_run(runner, kernel, tool, timeout)
    return run.findings, run.runner_exit, run.report


def sanitize_run(runner, kernel, tool, timeout=300):
    """sanitize(), returning a Sanitized that also holds the runner's output."""
    with private_folder("wb-sanitizer-") as folder:
        log = os.path.join(folder, f"{tool}.log")
        cmd = sanitize_command(runner, kernel, tool, log_file=log)
        try:
            proc = run_capped(cmd, timeout)
        except subprocess.TimeoutExpired:
            raise ToolTimeout(f"compute-sanitizer --tool {tool} did not finish within "
                               f"{timeout} s")
        report = _read_report(log)
    said = report if report.strip() else proc.stderr
    if "Device not supported" in said or "Unable to find injection library" in said:
        raise ToolUnavailable("compute-sanitizer cannot work on this device: "
                              + said.strip().splitlines()[0])
    findings = _findings(report)
    app_output = (proc.stdout + proc.stderr).strip()
    return Sanitized(findings, proc.returncode, report, app_output)
