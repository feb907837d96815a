#!/usr/bin/env python3
"""Generates the documentation pages that show measured data, from the CSV
files committed under docs/results/ (written on a GPU by wb_bench and
bench/profile_report.py):

  results.md   per device: a table per section (time, GB/s, share of the copy
               ceiling and of the theoretical peak, speedup over the baseline)
               and the charts docs/generators/plot_bench.py draws from the same CSV;
               then the best block shape per kernel from each transpose
               block-shape sweep (sweep-<device>.csv, wb_transpose_sweep)
  metrics.md   the nvprof metrics the book quotes, their Nsight Compute
               replacements, and the values measured for each kernel

  docs_pages.py --results docs/results --out GENERATED_DIR
"""
import argparse
import csv
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent

# nvprof metric -> (Nsight Compute metric or formula, what it counts).
METRIC_MAP = [
    ("shared_load_transactions_per_request",
     "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum / smsp__inst_executed_op_shared_ld.sum",
     "passes per shared-memory load instruction: 1 = conflict-free, N = N-way conflict"),
    ("shared_store_transactions_per_request",
     "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum / smsp__inst_executed_op_shared_st.sum",
     "the same for stores"),
    ("gld_transactions", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
     "32-byte sectors read from global memory (nvprof counted transactions)"),
    ("gst_transactions", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
     "32-byte sectors written to global memory"),
    ("gld_transactions_per_request",
     "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio",
     "sectors per load request: 4 for a coalesced warp of 4-byte loads"),
    ("gst_transactions_per_request",
     "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio",
     "sectors per store request: 4 coalesced, 32 for a strided (column) write"),
    ("gld_efficiency", "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
     "useful bytes over bytes moved, loads"),
    ("gst_efficiency", "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct",
     "useful bytes over bytes moved, stores"),
    ("dram_read_throughput", "dram__bytes_read.sum.per_second", "DRAM read bandwidth"),
    ("dram_write_throughput", "dram__bytes_write.sum.per_second", "DRAM write bandwidth"),
    ("gld_throughput", "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum.per_second",
     "global load bandwidth seen by L1"),
    ("(kernel time in the GPU activities summary)", "gpu__time_duration.sum",
     "the workbook times with CUDA events instead: medians of many runs"),
]


def slug(text):
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "device"


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def fmt(value, digits=2, suffix=""):
    try:
        return f"{float(value):.{digits}f}{suffix}"
    except (TypeError, ValueError):
        return value or "-"


def results_page(results_dir, out_dir):
    lines = ["# Measured results {#results}", "",
             "Every number below was measured by `wb_bench` (bench/wb_bench) in one process: "
             "warm-up, CUDA events around each run, the median of many runs, sizes larger than "
             "L2, and an L2 flush between runs (the layout kernels only write, so they are timed "
             "without one). The flush *reads* a buffer twice the size of L2: a flush that writes "
             "it would leave L2 full of dirty lines, and the timed kernel would pay for writing "
             "them back. GB/s counts the bytes the algorithm must read "
             "plus write, in 10^9 bytes per second. *Share of copy* is the kernel's bandwidth "
             "over the vectorised copy kernel's in the same run; *share of peak* is over the "
             "theoretical peak computed from the device's memory clock and bus width. The "
             "charts are drawn at documentation build time from the committed CSV "
             "(docs/results/).", ""]
    files = sorted(pathlib.Path(results_dir).glob("bench-*.csv"))
    if not files:
        lines += ["No benchmark results are committed yet: run `./workbook bench --csv "
                  "docs/results/bench-<device>.csv` on a GPU and commit the file.", ""]
    for path in files:
        rows = read_csv(path)
        if not rows:
            continue
        device = rows[0].get("device", path.stem)
        lines += [f"## {device}", "",
                  f"Driver {rows[0].get('driver_version', '?')}, CUDA runtime "
                  f"{rows[0].get('runtime_version', '?')}, measured {rows[0].get('date', '?')} "
                  f"(`{path.name}`).", ""]
        chart_dir = pathlib.Path(out_dir) / f"charts_{slug(device)}"
        chart_dir.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, str(HERE / "plot_bench.py"), str(path), str(chart_dir)],
                       check=True)
        sections = []
        for r in rows:
            if r["section"] not in sections:
                sections.append(r["section"])
        for section in sections:
            lines += [f"### {section}", "",
                      "| kernel | kind | size | time (ms) | GB/s | share of copy | share of peak "
                      "| speedup over baseline |",
                      "|---|---|---|---:|---:|---:|---:|---:|"]
            for r in (x for x in rows if x["section"] == section):
                if r.get("status", "ok") not in ("ok", ""):
                    lines.append(f"| {r['kernel']} | {r['kind']} | {r['size']} | "
                                 f"{r['status']} | | | | |")
                    continue
                lines.append(
                    f"| {r['kernel']} | {r['kind']} | {r['size']} | {fmt(r['time_ms'], 4)} | "
                    f"{fmt(r['gb_per_s'], 0)} | {fmt(float(r['share_of_copy']) * 100, 0, '%') if r['share_of_copy'] else '-'} | "
                    f"{fmt(float(r['share_of_peak']) * 100, 0, '%') if r['share_of_peak'] else '-'} | "
                    f"{fmt(r['speedup_vs_baseline'], 2, 'x') if r['speedup_vs_baseline'] else '-'} |")
            lines.append("")
            chart = chart_dir / f"bench_{section}.svg"
            if chart.exists():
                name = f"{slug(device)}_bench_{section}.svg"
                (pathlib.Path(out_dir) / name).write_bytes(chart.read_bytes())
                lines += [f"@image html {name} \"{section} on {device}: GB/s per kernel\"", ""]
    lines += sweep_lines(results_dir)
    (pathlib.Path(out_dir) / "results.md").write_text("\n".join(lines) + "\n")


def sweep_lines(results_dir):
    """The best block shape of each kernel in each committed block-shape
    sweep of the transpose (book section 5.4.5)."""
    files = sorted(pathlib.Path(results_dir).glob("sweep-*.csv"))
    if not files:
        return []
    lines = ["## Transpose block-shape sweep (book 5.4.5)", "",
             "`wb_transpose_sweep` times the transpose kernels that size themselves from "
             "`blockDim` over blocks of x in {8, ..., 128} by y in {2, ..., 32} threads, on an "
             "8192 x 8192 float matrix; the static-tile kernels keep their fixed 32 x 16 blocks. "
             "*Share of copy* is over the best `copyGmem` of the same sweep. The best shape of "
             "each kernel, and how much it gains over the 32 x 16 block the tests use:", ""]
    for path in files:
        rows = read_csv(path)
        if not rows:
            continue
        lines += [f"### {path.stem[len('sweep-'):]}", "", f"From `{path.name}`.", "",
                  "| kernel | best block | time (ms) | GB/s | share of copy | 32 x 16 block (ms) |",
                  "|---|---|---:|---:|---:|---:|"]
        kernels = []
        for r in rows:
            if r["kernel"] not in kernels:
                kernels.append(r["kernel"])
        for kernel in kernels:
            mine = [r for r in rows if r["kernel"] == kernel]
            best = min(mine, key=lambda r: float(r["ms"]))
            default = next((r for r in mine if r["block_x"] == "32" and r["block_y"] == "16"),
                           None)
            lines.append(
                f"| {kernel} | {best['block_x']} x {best['block_y']} | {fmt(best['ms'], 4)} | "
                f"{fmt(best['gb_per_s'], 0)} | {fmt(float(best['share_of_copy']) * 100, 0, '%')} "
                f"| {fmt(default['ms'], 4) if default else '-'} |")
        lines.append("")
    return lines


def metrics_page(results_dir, out_dir):
    lines = ["# nvprof metrics and their Nsight Compute replacements {#metrics}", "",
             "The book reads its evidence off nvprof, which does not run on compute capability "
             "7.5 and newer. Nsight Compute (`ncu`) measures the same quantities under other "
             "names; it counts 32-byte *sectors* and shared-memory *wavefronts* where nvprof "
             "counted transactions. The workbook's `profile` tests run each kernel once on a "
             "single block under `ncu` and compare these ratios with the bank model "
             "(`chapters/common/bank_model.h`) and the coalescing the exercise is about.", "",
             "| nvprof (book) | Nsight Compute | what it counts |", "|---|---|---|"]
    for old, new, what in METRIC_MAP:
        lines.append(f"| `{old}` | `{new}` | {what} |")
    lines += ["", "Run one by hand, for example:", "",
              "    ncu --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,"
              "smsp__inst_executed_op_shared_ld.sum \\", 
              "        build/bin/wb_run layout/square_setRowReadCol", "",
              "with `WB_MODULES=build/modules/solutions` in the environment (the runner "
              "loads the kernel from that implementation's compiled module).", ""]
    files = sorted(pathlib.Path(results_dir).glob("profile-*.csv"))
    if not files:
        lines += ["No measured values are committed yet: run `bench/profile_report.py` on a GPU "
                  "and commit its CSV under docs/results/.", ""]
    for path in files:
        rows = read_csv(path)
        if not rows:
            continue
        lines += [f"## Measured on {rows[0].get('device', path.stem)}", "",
                  "One block per launch (the runner's `SECTION/ID` launch), so the ratios are "
                  "exact. *model* is the bank model's prediction (shared memory) or the "
                  "coalescing the exercise asks for (global stores); the `profile` tests fail "
                  "a kernel whose measurement differs from it.", "",
                  "| section | kernel | shared ld / request | model | shared st / request | model "
                  "| global ld sectors / request | global st sectors / request | model |",
                  "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
        for r in rows:
            lines.append(
                f"| {r['section']} | {r['kernel']} | {r['shared_ld_per_request'] or '-'} | "
                f"{r['shared_ld_model'] or '-'} | {r['shared_st_per_request'] or '-'} | "
                f"{r['shared_st_model'] or '-'} | {r['global_ld_sectors_per_request'] or '-'} | "
                f"{r['global_st_sectors_per_request'] or '-'} | "
                f"{r.get('global_st_sectors_model') or '-'} |")
        lines.append("")
    (pathlib.Path(out_dir) / "metrics.md").write_text("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    pathlib.Path(args.out).mkdir(parents=True, exist_ok=True)
    results_page(args.results, args.out)
    metrics_page(args.results, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
