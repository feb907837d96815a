#!/usr/bin/env python3
"""Times the book's own reduction program beside the workbook's kernels, in
one run on one GPU, under Nsight Compute (clocks not locked, caches flushed
before every launch), and prints each global/shared pair's ratio for both.

The book's published chapter-5 code is not part of the workbook: bring your
copy (its examples folder, holding chapter05/reduceInteger.cu and
common/common.h) and name it with --book.

  book_compare.py --book BOOK/examples --bench build/bin/wb_bench --out DIR
"""
import argparse
import csv
import io
import pathlib
import re
import statistics
import subprocess
import sys

from wbcore import nsight

KERNELS = ["reduceNeighboredGmem", "reduceNeighboredSmem", "reduceGmem", "reduceSmem",
           "reduceGmemUnroll", "reduceSmemUnroll"]
PAIRS = [("reduceNeighboredGmem", "reduceNeighboredSmem"), ("reduceGmem", "reduceSmem"),
         ("reduceGmemUnroll", "reduceSmemUnroll")]
METRICS = {"us": "gpu__time_duration.sum", "l2_requests": "lts__t_requests.sum",
           "l2_sectors": "lts__t_sectors.sum"}


def profile(cmd):
    """{kernel: [ {metric: value} per launch ]} for the chapter's kernels."""
    ncu = nsight.find_tool("ncu")
    full = [ncu, "--clock-control", "none", "--csv", "--page", "raw", "-k", "regex:reduce",
            "--metrics", ",".join(METRICS.values())] + cmd
    proc = subprocess.run(full, capture_output=True, text=True, timeout=900)
    rows = [l for l in proc.stdout.splitlines() if l.startswith('"')]
    if not rows:
        raise RuntimeError(f"ncu produced no metrics for {cmd[0]} (exit {proc.returncode}):\n"
                           + (proc.stdout + proc.stderr)[-2000:])
    table = list(csv.reader(io.StringIO("\n".join(rows))))
    header, data = table[0], table[2:]
    name_col = header.index("Kernel Name")
    seen = {}
    for row in data:
        name = re.sub(r"\(.*", "", row[name_col]).split("::")[-1].strip()
        if name not in KERNELS:
            continue
        values = {}
        for key, metric in METRICS.items():
            raw = row[header.index(metric)].replace(",", "")
            values[key] = float(raw)
        seen.setdefault(name, []).append(values)
    # gpu__time_duration is reported in nanoseconds by default
    unit_row = table[1]
    scale = {"nsecond": 1e-3, "usecond": 1.0, "msecond": 1e3}.get(
        unit_row[header.index(METRICS["us"])], 1e-3)
    for runs in seen.values():
        for v in runs:
            v["us"] *= scale
    return seen


def medians(seen):
    return {k: {m: statistics.median(v[m] for v in runs) for m in METRICS}
            | {"launches": len(runs)} for k, runs in seen.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--book", required=True, help="the book's examples folder")
    ap.add_argument("--bench", required=True, help="the workbook's wb_bench")
    ap.add_argument("--out", required=True, help="folder for the binary, logs and CSV")
    ap.add_argument("--runs", type=int, default=5, help="runs of the book's program")
    args = ap.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    source = pathlib.Path(args.book) / "chapter05" / "reduceInteger.cu"
    if not source.is_file():
        print(f"book_compare: no {source}: --book names the folder that holds "
              f"chapter05/reduceInteger.cu and common/common.h", file=sys.stderr)
        return 2
    binary = out / "reduceInteger"
    build = subprocess.run(["nvcc", "-O3", "-arch=native", "-lineinfo", "-o", str(binary),
                            str(source)], capture_output=True, text=True)
    if build.returncode != 0:
        print("book_compare: the book's program did not compile:\n" + build.stderr,
              file=sys.stderr)
        return 1
    book = {}
    for _ in range(args.runs):
        for k, runs in profile([str(binary)]).items():
            book.setdefault(k, []).extend(runs)
    ours = profile([args.bench, "--section", "reduction", "--size", str(1 << 24),
                    "--reps", "5"] + [a for k in KERNELS for a in ("--kernel", k)])
    book_m, ours_m = medians(book), medians(ours)
    rows = []
    print(f"{'kernel':22} {'book us':>9} {'ours us':>9} {'book L2 req':>12} "
          f"{'ours L2 req':>12} {'book L2 sect':>13} {'ours L2 sect':>13}")
    for k in KERNELS:
        b, o = book_m.get(k), ours_m.get(k)
        if b is None or o is None:
            print(f"{k}: missing ({'book' if b is None else 'workbook'} not profiled)")
            continue
        print(f"{k:22} {b['us']:9.1f} {o['us']:9.1f} {b['l2_requests']:12.0f} "
              f"{o['l2_requests']:12.0f} {b['l2_sectors']:13.0f} {o['l2_sectors']:13.0f}")
        rows.append({"kernel": k, "book_us": round(b["us"], 2), "workbook_us": round(o["us"], 2),
                     "book_l2_requests": int(b["l2_requests"]),
                     "workbook_l2_requests": int(o["l2_requests"]),
                     "book_l2_sectors": int(b["l2_sectors"]),
                     "workbook_l2_sectors": int(o["l2_sectors"]),
                     "book_launches": b["launches"], "workbook_launches": o["launches"]})
    for g, s in PAIRS:
        if all(k in book_m and k in ours_m for k in (g, s)):
            print(f"{g} / {s}: book {book_m[g]['us'] / book_m[s]['us']:.2f}x, "
                  f"workbook {ours_m[g]['us'] / ours_m[s]['us']:.2f}x")
    with open(out / "book-compare.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else ["kernel"])
        w.writeheader()
        w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
