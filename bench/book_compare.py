#!/usr/bin/env python3
"""Times one of the book's own chapter-5 programs beside the workbook's
kernels that do the same work, in one run on one GPU, under Nsight Compute
(clocks not locked, caches flushed before every launch), and prints each
pair's ratio for both.

The book's published code is not part of the workbook: bring your copy of
its code repository (the folder that holds examples/ and solutions/, each
with chapter05/ and common/common.h) and name it with --book. Programs:

  reduction  examples/chapter05/reduceInteger.cu (5.3), its global- and
             shared-memory reductions against the workbook's
  stencil    solutions/chapter05/constantReadOnlyGlobal.cu (the book's
             answer to exercise 9: 5.5's stencil with its coefficients in
             constant memory, through the read-only cache and in global
             memory) against stencilConstant, stencilReadOnly and
             stencilGmemCoef

  book_compare.py --book BOOK --bench build/bin/wb_bench --out DIR [--program stencil]
"""
import argparse
import csv
import dataclasses
import io
import pathlib
import re
import statistics
import subprocess
import sys

from wbcore import nsight


@dataclasses.dataclass(frozen=True)
class Program:
    """One of the book's programs and the workbook's kernels it is set against."""
    source: str                 # relative to the book's code repository
    kernel_regex: str           # Nsight Compute's -k filter, for both programs
    kernels: dict               # the book's kernel name -> the workbook's
    bench_args: tuple           # wb_bench's arguments for the same work
    pairs: tuple                # (slower, faster) pairs of the workbook's names
    metrics: dict               # column -> Nsight Compute metric


TIME = {"us": "gpu__time_duration.sum"}
L2 = {"l2_requests": "lts__t_requests.sum", "l2_sectors": "lts__t_sectors.sum"}
# Global loads as L1 sees them: requests and sectors of the LSU's global
# loads (the read-only path's LDG.CONSTANT included) and the share of those
# sectors L1 served; instructions that load from the constant bank.
L1_LOADS = {"l1_ld_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
            "l1_ld_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
            "l1_ld_hit_pct": "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct",
            "ldg_instructions": "smsp__sass_inst_executed_op_global_ld.sum"}

REDUCTION = ["reduceNeighboredGmem", "reduceNeighboredSmem", "reduceGmem", "reduceSmem",
             "reduceGmemUnroll", "reduceSmemUnroll"]

PROGRAMS = {
    "reduction": Program(
        source="examples/chapter05/reduceInteger.cu", kernel_regex="regex:reduce",
        kernels={k: k for k in REDUCTION},
        bench_args=("--section", "reduction", "--size", str(1 << 24), "--reps", "5",
                    *[a for k in REDUCTION for a in ("--kernel", k)]),
        pairs=(("reduceNeighboredGmem", "reduceNeighboredSmem"), ("reduceGmem", "reduceSmem"),
               ("reduceGmemUnroll", "reduceSmemUnroll")),
        metrics=TIME | L2),
    "stencil": Program(
        source="solutions/chapter05/constantReadOnlyGlobal.cu", kernel_regex="regex:stencil",
        kernels={"stencil_1d": "stencilConstant", "stencil_1d_read_only": "stencilReadOnly",
                 "stencil_1d_global": "stencilGmemCoef"},
        bench_args=("--section", "constant", "--size", str(1 << 24), "--reps", "5",
                    "--kernel", "stencilConstant", "--kernel", "stencilReadOnly",
                    "--kernel", "stencilGmemCoef"),
        pairs=(("stencilGmemCoef", "stencilConstant"), ("stencilReadOnly", "stencilConstant"),
               ("stencilGmemCoef", "stencilReadOnly")),
        metrics=TIME | L2 | L1_LOADS),
}


def profile(cmd, program):
    """{workbook kernel name: [ {metric: value} per launch ]} for the
    program's kernels, the book's named by their workbook counterparts."""
    ncu = nsight.find_tool("ncu")
    full = [ncu, "--clock-control", "none", "--csv", "--page", "raw", "-k",
            program.kernel_regex, "--metrics", ",".join(program.metrics.values())] + cmd
    proc = subprocess.run(full, capture_output=True, text=True, timeout=900)
    rows = [l for l in proc.stdout.splitlines() if l.startswith('"')]
    if not rows:
        raise RuntimeError(f"ncu produced no metrics for {cmd[0]} (exit {proc.returncode}):\n"
                           + (proc.stdout + proc.stderr)[-2000:])
    table = list(csv.reader(io.StringIO("\n".join(rows))))
    header, units, data = table[0], table[1], table[2:]
    name_col = header.index("Kernel Name")
    ours = set(program.kernels.values())
    seen = {}
    for row in data:
        name = re.sub(r"\(.*", "", row[name_col]).split("::")[-1].strip()
        name = program.kernels.get(name, name)
        if name not in ours:
            continue
        values = {key: float(row[header.index(metric)].replace(",", "") or "nan")
                  for key, metric in program.metrics.items()}
        seen.setdefault(name, []).append(values)
    # gpu__time_duration comes in the unit its second row names
    scale = {"nsecond": 1e-3, "usecond": 1.0, "msecond": 1e3}.get(
        units[header.index(program.metrics["us"])], 1e-3)
    for runs in seen.values():
        for v in runs:
            v["us"] *= scale
    return seen


def medians(seen, program):
    return {k: {m: statistics.median(v[m] for v in runs) for m in program.metrics}
            | {"launches": len(runs)} for k, runs in seen.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--book", required=True,
                    help="the book's code repository (holding examples/ and solutions/)")
    ap.add_argument("--bench", required=True, help="the workbook's wb_bench")
    ap.add_argument("--out", required=True, help="folder for the binary, logs and CSV")
    ap.add_argument("--program", choices=sorted(PROGRAMS), default="reduction",
                    help="which of the book's programs (reduction)")
    ap.add_argument("--runs", type=int, default=5, help="runs of the book's program (5)")
    args = ap.parse_args()
    program = PROGRAMS[args.program]
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    source = pathlib.Path(args.book) / program.source
    if not source.is_file():
        print(f"book_compare: no {source}: --book names the book's code repository, the "
              f"folder that holds {program.source} and the common/common.h beside it",
              file=sys.stderr)
        return 2
    binary = out / source.stem
    build = subprocess.run(["nvcc", "-O3", "-arch=native", "-lineinfo", "-o", str(binary),
                            str(source)], capture_output=True, text=True)
    if build.returncode != 0:
        print("book_compare: the book's program did not compile:\n" + build.stderr,
              file=sys.stderr)
        return 1
    book = {}
    for run in range(args.runs):
        print(f"book_compare: {source.name} under Nsight Compute, run {run + 1} of {args.runs}",
              file=sys.stderr, flush=True)
        for k, runs in profile([str(binary)], program).items():
            book.setdefault(k, []).extend(runs)
    print("book_compare: the workbook's kernels under Nsight Compute", file=sys.stderr, flush=True)
    ours = profile([args.bench, *program.bench_args], program)
    book_m, ours_m = medians(book, program), medians(ours, program)
    book_names = {v: k for k, v in program.kernels.items()}
    rows = []
    columns = list(program.metrics)
    print(f"{'kernel':22} " + " ".join(f"{'book ' + c:>18} {'ours ' + c:>18}" for c in columns))
    for k in program.kernels.values():
        b, o = book_m.get(k), ours_m.get(k)
        if b is None or o is None:
            print(f"{k}: missing ({'book' if b is None else 'workbook'} not profiled)")
            continue
        print(f"{k:22} " + " ".join(f"{b[c]:18.1f} {o[c]:18.1f}" for c in columns))
        row = {"kernel": k, "book_kernel": book_names[k]}
        for c in columns:
            row[f"book_{c}"] = round(b[c], 2)
            row[f"workbook_{c}"] = round(o[c], 2)
        row |= {"book_launches": b["launches"], "workbook_launches": o["launches"]}
        rows.append(row)
    for slow, fast in program.pairs:
        if all(k in book_m and k in ours_m for k in (slow, fast)):
            print(f"{slow} / {fast}: book {book_m[slow]['us'] / book_m[fast]['us']:.3f}x, "
                  f"workbook {ours_m[slow]['us'] / ours_m[fast]['us']:.3f}x")
    with open(out / f"book-compare-{args.program}.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else ["kernel"])
        w.writeheader()
        w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
