#!/usr/bin/env python3
"""Runs one kernel under compute-sanitizer's memcheck, racecheck, synccheck
and initcheck. Any finding fails the check; the message names the kernel,
the tool and the hazard. Exit: 0 clean, 1 findings (or a wrong kernel), 77
when compute-sanitizer cannot run here (CTest reports it as skipped).
"""
import argparse
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))
from wbcore import nsight  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--kernel", required=True, help="section/id")
    ap.add_argument("--tools", default=",".join(nsight.SANITIZER_TOOLS))
    args = ap.parse_args()
    failed = False
    for tool in args.tools.split(","):
        try:
            findings, rc, out = nsight.sanitize(args.runner, args.kernel, tool)
        except nsight.ToolUnavailable as err:
            print(f"skipped: {err}")
            return nsight.SKIP
        except RuntimeError as err:
            print(f"FAILED {args.kernel}: {err}")
            failed = True
            continue
        if rc == nsight.SKIP:
            print(f"skipped: {out.strip().splitlines()[-1] if out.strip() else 'no GPU'}")
            return nsight.SKIP
        if findings or rc == 99:
            print(f"FAILED {args.kernel}: {tool} reports {len(findings)} finding(s):")
            for f in findings[:12]:
                print(f"  {f}")
            failed = True
        elif rc != 0:
            what = {1: "gave a wrong result", 124: "never returned"}.get(rc, "failed")
            print(f"FAILED {args.kernel}: under {tool} the kernel {what} (exit {rc}):")
            print("  " + "\n  ".join(l for l in out.splitlines() if l.strip())[-1500:])
            failed = True
            if rc == 124:
                break  # the other tools would wait just as long
        else:
            print(f"{args.kernel}: {tool} clean")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
