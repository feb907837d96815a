#!/usr/bin/env python3
"""Runs tests while another process holds all the GPU's memory, and checks
that every test that fails then is recognised as the GPU's casualty from the
harness's own notes (the .contention files wbcore/gtest_verdict.py and the
sanitizer check write), never from the test's output; then runs them again
with the GPU free, where all must pass. This is what lets the grader run a
neighbour's victims again alone (grader/build.py, shared_gpu_casualties).

  PYTHONPATH=. python3 tests/checks/contention_check.py --build build-gpu \\
      [--tests REGEX] [--hold-seconds 180] [--out DIR]

Exit 0 when every failure under the hold was recognised and every test
passed without it; 1 otherwise; 77 without a GPU or nvcc. Needs a GPU build
(tests/gpu-suite.sh, stage build); the profile and perf tests are left out
(the grader runs them with the GPU to itself, so they never share it).
"""
import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

from grader import build as gb
from wbcore import build as wbbuild

ROOT = pathlib.Path(__file__).resolve().parents[2]
HOLDER = ROOT / "tests" / "contention" / "hold_gpu_memory.cu"
DEFAULT_TESTS = (r"^solutions\.(config|constant|layout)\.|^solutions\.(transpose|reduction)"
                 r"\.sanitize\.")
SKIP = 77


def ctest(build, tests, junit, env, timeout):
    cmd = ["ctest", "--test-dir", str(build), "-R", tests, "-LE", "perf|profile", "-j", "8",
           "--output-junit", str(junit)]
    try:
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
        return done.stdout + done.stderr
    except subprocess.TimeoutExpired as stopped:
        return (stopped.stdout or b"").decode(errors="replace") + "\n(stopped at the time limit)"


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n", 1)[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True, help="a GPU build folder")
    ap.add_argument("--tests", default=DEFAULT_TESTS, help="CTest -R regex (default: %(default)s)")
    ap.add_argument("--hold-seconds", type=int, default=180)
    ap.add_argument("--out", help="keep the reports and notes in this folder")
    args = ap.parse_args()
    build = pathlib.Path(args.build).resolve()
    env = wbbuild.env_with_cuda()
    nvcc = shutil.which("nvcc", path=env.get("PATH"))
    if nvcc is None:
        print("skipped: nvcc is not on PATH (put the CUDA Toolkit's bin folder there)")
        return SKIP
    out = pathlib.Path(args.out or tempfile.mkdtemp(prefix="wb-contention-"))
    records = out / "records"
    shutil.rmtree(records, ignore_errors=True)
    records.mkdir(parents=True)
    holder = out / "wb_hold_gpu_memory"
    built = subprocess.run([nvcc, "-o", str(holder), str(HOLDER)], env=env,
                           capture_output=True, text=True)
    if built.returncode != 0:
        print(f"FAILED: {HOLDER.relative_to(ROOT)} did not compile:\n{built.stderr[-2000:]}")
        return 1

    hold = subprocess.Popen([str(holder), str(args.hold_seconds)], stdout=subprocess.PIPE,
                            text=True)
    said = hold.stdout.readline().strip()
    print(said)
    if "holds" not in said:
        hold.wait()
        print(f"skipped: {said or 'the holder did not start'}")
        return SKIP
    started = time.monotonic()
    held_output = ctest(build, args.tests, out / "held.xml", dict(env, WB_TEST_RECORDS=str(records)),
                        timeout=max(30, args.hold_seconds - 5))
    took = time.monotonic() - started
    # The tests are done: let the memory go now rather than sit out the hold.
    hold.terminate()
    hold.wait()
    results = gb._read_junit(out / "held.xml")
    failed = sorted(n for n, r in results.items() if r.result == "failed")
    notes = gb.read_gpu_contention(records)
    recognised = set(gb.shared_gpu_casualties(results, held_output, notes))
    print(f"under the hold ({took:.0f} s): {len(results)} tests, {len(failed)} failed, "
          f"{len(recognised)} recognised from the harness's notes or CTest's timeouts")
    ok = True
    if took >= args.hold_seconds - 5:
        print("FAILED: the tests outlasted the hold; give --hold-seconds more time")
        ok = False
    for name in failed:
        if name not in recognised:
            ok = False
            tail = (results[name].output or "").strip().splitlines()[-6:]
            print(f"NOT RECOGNISED {name}:\n    " + "\n    ".join(tail))

    free_output = ctest(build, args.tests, out / "free.xml", env, timeout=1200)
    free = gb._read_junit(out / "free.xml")
    still = sorted(n for n, r in free.items() if r.result == "failed")
    print(f"with the GPU free: {len(free)} tests, {len(still)} failed")
    for name in still:
        ok = False
        print(f"FAILED WITH THE GPU FREE {name}")
    if not free:
        ok = False
        print("FAILED: no test ran with the GPU free:\n" + free_output[-800:])
    print("contention check: " + ("ok" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
