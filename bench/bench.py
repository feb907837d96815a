#!/usr/bin/env python3
"""Run the workbook's benchmark: ./workbook bench [wb_bench arguments].

Builds the default preset (build/) when needed, then runs
build/bin/wb_bench with the arguments given, for example

  ./workbook bench                          every section, full sizes
  ./workbook bench --section transpose --csv transpose.csv
  ./workbook bench --help                   wb_bench's own options (builds nothing)

The benchmark needs an NVIDIA GPU; without one this says so and stops
before building anything (--help works anywhere).
"""
import os
import pathlib
import subprocess
import sys

from wbcore import build as wbbuild


def bench_executable():
    """The wb_bench to run: WB_BENCH when set (the help test names the one
    its own build made), else the default preset's."""
    return pathlib.Path(os.environ.get("WB_BENCH")
                        or wbbuild.preset_binary_dir("default") / "bin" / "wb_bench")


def main(argv):
    if argv[:1] == ["--"]:  # `./workbook bench -- --smoke` passes the separator on
        argv = argv[1:]
    bench = bench_executable()
    wants_help = any(arg in ("-h", "--help") for arg in argv)
    if wants_help:
        # Help never builds: wb_bench's own text when it is built, else where
        # it comes from (a first build takes minutes).
        if bench.exists():
            return subprocess.call([str(bench), "--help"])
        print("usage: ./workbook bench [wb_bench options]\n\n"
              f"Runs {bench}, which is not built yet: ./workbook builds it, and then\n"
              "./workbook bench --help lists its options.")
        return 0
    present, reason = wbbuild.gpu_present()
    if not present:
        print(f"bench: no GPU here: {reason}.\n"
              "The benchmark times kernels on an NVIDIA GPU (compute capability 7.5 or "
              "newer); run it on a machine with one, for example through "
              "tests/gpu-suite.sh.", file=sys.stderr)
        return 1
    print("bench: building the default preset (build/) if anything changed ...", flush=True)
    try:
        built = wbbuild.configure_and_build(quiet=True)
    except wbbuild.ToolMissing as err:
        print(f"bench: {err}", file=sys.stderr)
        return 2
    if not built:
        print("bench: the build failed (the messages are above), so there is nothing to run.",
              file=sys.stderr)
        return 1
    if not bench.exists():
        print(f"bench: {bench} was not built. It needs the tools and the "
              "reference solutions (WB_BUILD_TOOLS=ON and WB_BUILD_SOLUTIONS=ON in build/), "
              "and the root CMakeLists.txt must add bench/wb_bench.", file=sys.stderr)
        return 1
    try:
        return subprocess.call([str(bench)] + argv)
    except KeyboardInterrupt:
        print("bench: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
