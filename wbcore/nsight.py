"""Running Nsight Compute (ncu) and compute-sanitizer on one runner launch.

Both tools may be missing or unable to work on a machine (no permission to
read GPU counters, an unsupported device). Such cases raise ToolUnavailable
with the reason, which the checks report as a skip, never as a pass.
"""
import csv
import io
import os
import re
import shutil
import subprocess

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


class ToolUnavailable(RuntimeError):
    pass


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


def _run_ncu(cmd, timeout, what):
    """Runs an ncu command line; returns (the process, its stdout and stderr).
    RuntimeError when it does not finish in time, ToolUnavailable when it may
    not read the GPU's counters."""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"{what} did not finish within {timeout} s")
    text = proc.stdout + proc.stderr
    if "ERR_NVGPUCTRPERM" in text:
        raise ToolUnavailable("ncu may not read the GPU's performance counters here "
                              "(ERR_NVGPUCTRPERM): run as root or allow profiling for all "
                              "users (NVreg_RestrictProfilingToAdminUsers=0)")
    return proc, text


def profile(runner, kernel, qualified_name, metrics, timeout=120, unknown_metric_skips=False):
    """Profile `runner kernel` under ncu; return ({key: value}, the runner's
    output) for the launch of the kernel named qualified_name. With
    unknown_metric_skips, a metric this ncu or GPU does not know raises
    ToolUnavailable naming it (for metrics not yet verified on every GPU)."""
    ncu = find_tool("ncu")
    cmd = [ncu, "--csv", "--page", "raw", "--metrics", ",".join(metrics.values()), runner, kernel]
    proc, text = _run_ncu(cmd, timeout, "ncu")
    if "LibraryNotLoaded" in text or "Failed to initialize the profiler" in text:
        raise ToolUnavailable("ncu could not initialise its profiler on this machine: "
                              + text.strip().splitlines()[-1])
    if unknown_metric_skips:
        for line in text.splitlines():
            if "ERROR" in line and "metric" in line.lower() and any(
                    m in line for m in metrics.values()):
                raise ToolUnavailable("ncu does not know a metric of this check on this GPU: "
                                      + line.strip())
    if proc.returncode == SKIP or "skipped:" in proc.stdout and "==PROF==" not in text:
        raise ToolUnavailable("the runner reports no usable GPU")
    rows = [l for l in proc.stdout.splitlines() if l.startswith('"')]
    if not rows:
        raise RuntimeError(f"ncu produced no metrics (exit {proc.returncode}):\n{text[-2000:]}")
    table = list(csv.reader(io.StringIO("\n".join(rows))))
    header, data = table[0], table[2:]  # row 1 holds the units
    name_col = header.index("Kernel Name")
    app_output = "\n".join(l for l in proc.stdout.splitlines() if not l.startswith('"')
                           and not l.startswith("==PROF=="))
    # ncu shortens scopes in the names it prints ("layout::setRowReadCol(int *)"
    # for wb::layout::square::setRowReadCol); the runner launches one workbook
    # kernel per process, so the function's own name identifies it.
    wanted = qualified_name.split("::")[-1]
    for row in data:
        shown = re.sub(r"\(.*", "", row[name_col]).split("::")[-1]
        if shown == wanted:
            values = {}
            for key, metric in metrics.items():
                raw = row[header.index(metric)].replace(",", "")
                values[key] = float(raw) if raw not in ("", "n/a") else 0.0
            return values, app_output
    names = sorted({r[name_col] for r in data})
    raise RuntimeError(f"ncu saw no launch of {qualified_name}; it saw: {names}\n{app_output}")


def source_page(runner, kernel, qualified_name, timeout=180):
    """Nsight Compute's source page (SourceCounters, per CUDA source line, as
    CSV) for the launch of qualified_name by `runner kernel`: the text
    wbcore/ncu_source.py reads. ToolUnavailable where ncu cannot profile."""
    from wbcore import ncu_source
    cmd = ncu_source.source_command(find_tool("ncu"), runner, kernel,
                                    qualified_name.split("::")[-1])
    proc, text = _run_ncu(cmd, timeout, "ncu's source page")
    if proc.returncode != 0 and not any(l.startswith('"') for l in proc.stdout.splitlines()):
        last = text.strip().splitlines()[-1] if text.strip() else f"exit {proc.returncode}"
        raise RuntimeError(f"ncu could not print the source page: {last}")
    return text


def exercise_file(runner, kernel, shown="starter"):
    """The path shown for the file of the exercise whose module the runner
    loads for `kernel` (section/id): <shown>/<section>/<exercise>.cu, from
    the runner's listing; None when the runner cannot say."""
    import json
    section, _, kernel_id = kernel.partition("/")
    try:
        out = subprocess.run([runner, "--list"], capture_output=True, text=True,
                             timeout=60).stdout
        listed = [k for k in json.loads(out) if k["section"] == section and k["id"] == kernel_id]
    except (OSError, ValueError, KeyError, TypeError, subprocess.TimeoutExpired):
        return None
    return f"{shown}/{section}/{listed[0]['exercise']}.cu" if listed else None


def source_dirs(values):
    """(folder, shown) pairs from the checks' --source-dir DIR=SHOWN options."""
    return [tuple(v.split("=", 1)) if "=" in v else (v, os.path.basename(v.rstrip("/")))
            for v in values]


SANITIZER_TOOLS = ("memcheck", "racecheck", "synccheck", "initcheck")


def sanitize_command(runner, kernel, tool):
    """The compute-sanitizer command line of one tool on one runner launch.

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
    return cmd + [runner, kernel]


def sanitize(runner, kernel, tool, timeout=300):
    """Run `runner kernel` under compute-sanitizer --tool TOOL. Returns
    (findings, runner_exit, output): findings is a list of hazard lines
    (sanitizer_report.explain(output) tells them at the line)."""
    cmd = sanitize_command(runner, kernel, tool)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"compute-sanitizer --tool {tool} did not finish within {timeout} s")
    out = proc.stdout + proc.stderr
    if "Device not supported" in out or "Unable to find injection library" in out:
        raise ToolUnavailable("compute-sanitizer cannot work on this device: "
                              + out.strip().splitlines()[0])
    keywords = ("Invalid", "Race", "race", "Barrier", "Uninitialized", "hazard", "Misaligned",
                "Out-of-range", "out of bounds", "Divergent")
    findings = [l.strip() for l in out.splitlines()
                if l.startswith("=========") and "SUMMARY" not in l
                and any(k in l for k in keywords)]
    runner_exit = proc.returncode
    return findings, runner_exit, out
