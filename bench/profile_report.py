#!/usr/bin/env python3
"""Measures every kernel of a runner under Nsight Compute and writes a CSV:
shared-memory wavefronts per request (loads, stores) beside the bank model's
prediction, and global-memory sectors per request (loads, stores). The docs'
metrics page is generated from the committed CSV (docs/results/).

  WB_MODULES=build/modules/solutions \
      profile_report.py --runner build/bin/wb_run --out FILE.csv
"""
import argparse
import csv
import json
import subprocess
import sys

from wbcore import nsight


def ratio(num, den):
    return round(num / den, 2) if den else ""


def model(value):
    """A model's prediction for the CSV: empty where the kernel is not graded
    on it (null in `wb_run --list`)."""
    return "" if value is None else f"{value:g}"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    listing = subprocess.run([args.runner, "--list"], capture_output=True, text=True, check=True)
    device = subprocess.run([args.runner, "--gpu-check"], capture_output=True, text=True)
    if device.returncode != 0:
        print(device.stdout.strip() or "no GPU")
        return 77
    metrics = dict(nsight.SHARED_METRICS)
    metrics.update(nsight.GLOBAL_METRICS)
    rows = []
    for kernel in json.loads(listing.stdout):
        section, kid = kernel["section"], kernel["id"]
        try:
            v, _ = nsight.profile(args.runner, f"{section}/{kid}", kernel["name"], metrics)
        except (nsight.ToolUnavailable, RuntimeError) as err:
            print(f"{section}/{kid}: {err}", file=sys.stderr)
            if isinstance(err, nsight.ToolUnavailable):
                return 77
            continue
        rows.append({
            "section": section, "kernel": kid, "exercise": kernel["exercise"],
            "shared_ld_per_request": ratio(v["ld_wavefronts"], v["ld_requests"]),
            "shared_ld_model": model(kernel["sharedLoadWays"]),
            "shared_st_per_request": ratio(v["st_wavefronts"], v["st_requests"]),
            "shared_st_model": model(kernel["sharedStoreWays"]),
            "global_ld_sectors_per_request": ratio(v["gld_sectors"], v["gld_requests"]),
            "global_st_sectors_per_request": ratio(v["gst_sectors"], v["gst_requests"]),
            "global_st_sectors_model": model(kernel["globalStoreSectors"]),
            "device": device.stdout.strip().removeprefix("ok "),
        })
        print(f"{section}/{kid}: shared ld {rows[-1]['shared_ld_per_request']} "
              f"(model {rows[-1]['shared_ld_model'] or '-'}), st {rows[-1]['shared_st_per_request']} "
              f"(model {rows[-1]['shared_st_model'] or '-'}), global sectors/request ld "
              f"{rows[-1]['global_ld_sectors_per_request']} st "
              f"{rows[-1]['global_st_sectors_per_request']}", flush=True)
    with open(args.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()) if rows else ["section"])
        w.writeheader()
        w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
