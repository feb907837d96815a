#!/usr/bin/env python3
"""Proves that a section added to workbook.toml, with only its list entry and
its files, is found everywhere: copies the working tree (the files git does
not ignore) to a temporary folder, adds a throwaway section "scratch" there,
builds the runner, the benchmark and its tests, and looks for it in each.

It must be found by wb_run --list, wb_bench --help, the documentation's
Doxyfiles, CTest (its tests, labelled with its exercise), ./workbook hint,
./workbook grade points and tests/checks/course_check.py. Exit 0 when all
are; 1, naming what is missing and where, when one is not; 77 when git,
cmake, ninja, nvcc or doxygen is missing. docs/adding-a-section.md lists
the same files as SECTION_FILES below.
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
SECTION = "scratch"
EXERCISE = "scratchCopy"

LIST_ENTRY = f'''
[[section]]
name = "{SECTION}"
book = "5.7"
title = "A throwaway section (tests/checks/new_section_check.py)"
intro = """
One kernel copies n ints from `in` to `out`; nothing else.
"""

[[exercise]]
section = "{SECTION}"
name = "{EXERCISE}"
book = "5.7.1"
kind = "kernel"
method = ["needs STG: the copy writes global memory"]
hints = [
"""
Thread g = blockIdx.x * blockDim.x + threadIdx.x copies element g.
""",
"""
`if (g < n) out[g] = in[g];`
""",
]
'''

POINTS_ENTRY = f"""
[{SECTION}.default]
correctness = 1
"""

CONTRACT = f'''/**
 * @file {SECTION}.cuh
 * @brief A throwaway section: {EXERCISE} copies n ints from `in` to `out`,
 *        kBlock threads per block, one element per thread.
 */
#pragma once

#include <cuda_runtime.h>

#include "common/exercise_kernel.h"

namespace wb::{SECTION} {{

/// Threads per block of every launch.
constexpr int kBlock = 128;

/// out[g] = in[g] for every g below @p n.
__global__ void {EXERCISE}(const int* in, int* out, int n);

/// Launches {EXERCISE} from its exercise's module over @p n elements.
inline void launchCopy(const int* in, int* out, int n) {{
  const void* kernel = exerciseKernel("{SECTION}", "{EXERCISE}",
                                      "wb::{SECTION}::{EXERCISE}(int const*, int*, int)");
  launchKernel(kernel, dim3((n + kBlock - 1) / kBlock), dim3(kBlock), 0, nullptr, in, out, n);
}}

}}  // namespace wb::{SECTION}
'''

KERNEL_BODY = ("  const int g = blockIdx.x * blockDim.x + threadIdx.x;\n"
               "  if (g < n) out[g] = in[g];\n")
SOLUTION = f'''#include "{SECTION}/{SECTION}.cuh"

namespace wb::{SECTION} {{

__global__ void {EXERCISE}(const int* in, int* out, int n) {{
{KERNEL_BODY}}}

}}  // namespace wb::{SECTION}
'''
STARTER = SOLUTION.replace(KERNEL_BODY,
                           "  // TODO(book 5.7.1): copy in[g] to out[g] for every g below n\n"
                           "  // (chapters/scratch/scratch.cuh; about 2 lines).\n")
MUTANT = "// bug: copies nothing\n// expect: tests\n" + SOLUTION.replace(KERNEL_BODY, "")

TESTS_CMAKE = f"wb_add_section_tests({SECTION} SOURCES {SECTION}_test.cu)\n"
TEST_SOURCE = f'''#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "{SECTION}/{SECTION}.cuh"
#include "wb/buffer.h"
#include "wb/gtest_support.h"

namespace wb::{SECTION} {{
namespace {{

class GpuCopy : public GpuTestWithParam<std::string> {{}};

TEST_P(GpuCopy, CopiesEveryElement) {{
  const std::vector<int> input = {{1, 2, 3, 4, 5}};
  DeviceBuffer<int> in(input.size()), out(input.size());
  in.upload(input);
  launchCopy(in.data(), out.data(), static_cast<int>(input.size()));
  EXPECT_EQ(out.download(), input);
}}

INSTANTIATE_TEST_SUITE_P({SECTION}, GpuCopy, ::testing::Values(std::string("{EXERCISE}")),
                         [](const ::testing::TestParamInfo<std::string>& info) {{
                           return info.param;
                         }});

}}  // namespace
}}  // namespace wb::{SECTION}
'''

RUNNER = f'''#include <vector>

#include "{SECTION}/{SECTION}.cuh"
#include "registry.h"
#include "wb/buffer.h"

namespace wb::runner {{
namespace {{

std::vector<RunnableKernel> {SECTION}Kernels() {{
  RunnableKernel r;
  r.section = "{SECTION}";
  r.id = "{EXERCISE}";
  r.exercise = "{EXERCISE}";
  r.qualifiedName = "wb::{SECTION}::{EXERCISE}";
  r.runOnce = [] {{
    const std::vector<int> input = {{7, 8, 9}};
    DeviceBuffer<int> in(input.size()), out(input.size());
    in.upload(input);
    {SECTION}::launchCopy(in.data(), out.data(), static_cast<int>(input.size()));
    return out.download() == input ? std::string() : std::string("not a copy");
  }};
  return {{r}};
}}

}}  // namespace
}}  // namespace wb::runner

WB_RUNNER_SECTION({SECTION}, wb::runner::{SECTION}Kernels);
'''

BENCH = f'''#include <string>
#include <vector>

#include "bench.h"
#include "{SECTION}/{SECTION}.cuh"
#include "wb/buffer.h"

namespace wb::bench {{

std::vector<std::string> {SECTION}KernelNames() {{
  return {{"{EXERCISE}", kCopyKernelName, kMemcpyName}};
}}

std::vector<Row> run{SECTION}(std::uint64_t elements, Context& context) {{
  const int n = static_cast<int>(elements);
  DeviceBuffer<int> in(elements), out(elements);
  in.upload(std::vector<int>(elements, 1));
  std::vector<Candidate> candidates;
  candidates.push_back({{"{EXERCISE}", Kind::Exercise, kCopyKernelName,
                        4.0 * n, 4.0 * n,
                        [&] {{ {SECTION}::launchCopy(in.data(), out.data(), n);
                              return out.download() == in.download() ? "" : "not a copy"; }},
                        [&] {{ {SECTION}::launchCopy(in.data(), out.data(), n); }}, {{}}, true}});
  addCopyCeilings(candidates, in.data(), out.data(), elements * sizeof(int), "");
  return measureSection("{SECTION}", elements, candidates, context);
}}

}}  // namespace wb::bench

WB_BENCH_SECTION({SECTION}, "int32 elements", std::uint64_t{{1}} << 24, 4096,
                 std::uint64_t{{1}} << 26, wb::bench::{SECTION}KernelNames,
                 wb::bench::run{SECTION}, "copyInt4");
'''

NOTES = "# 5.7 A throwaway section {#scratch_notes}\n\nThe copy kernel, `needs STG`.\n"
NOTES_ZH = "# 5.7 一个临时的小节 {#scratch_notes_zh}\n\n复制内核，`needs STG`。\n"

# What docs/adding-a-section.md says a section needs, besides its list entry
# and its points: {part: [(path, text)]}. --leave-out PART skips one part.
SECTION_FILES = {
    "contract": [(f"chapters/{SECTION}/{SECTION}.cuh", CONTRACT)],
    "notes": [(f"chapters/{SECTION}/notes.md", NOTES),
              (f"chapters/{SECTION}/notes.zh.md", NOTES_ZH)],
    "exercises": [(f"starter/{SECTION}/{EXERCISE}.cu", STARTER),
                  (f"solutions/{SECTION}/{EXERCISE}.cu", SOLUTION)],
    "tests": [(f"tests/{SECTION}/CMakeLists.txt", TESTS_CMAKE),
              (f"tests/{SECTION}/{SECTION}_test.cu", TEST_SOURCE)],
    "mutant": [(f"tests/mutants/{SECTION}/{EXERCISE}__copies_nothing.cu", MUTANT)],
    "runner": [(f"tests/runner/{SECTION}_kernels.cu", RUNNER)],
    "bench": [(f"bench/wb_bench/{SECTION}_bench.cu", BENCH)],
}
PARTS = sorted(SECTION_FILES) + ["points"]

# The lightest build that still has the runner, the benchmark (which needs
# the solutions) and the section's tests.
CMAKE_OPTIONS = ["-G", "Ninja", "-DCMAKE_CUDA_ARCHITECTURES=75", "-DCMAKE_BUILD_TYPE=Release",
                 "-DWB_BUILD_TESTS=ON", "-DWB_BUILD_SOLUTIONS=ON", "-DWB_BUILD_STARTER=OFF",
                 "-DWB_BUILD_MUTANTS=OFF", "-DWB_BUILD_TOOLS=ON"]
TARGETS = ["wb_run", "wb_bench", f"wb_{SECTION}_tests"]


def missing_tools():
    need = ["git", "cmake", "ctest", "ninja", "doxygen"]
    missing = [t for t in need if shutil.which(t) is None]
    if shutil.which("nvcc") is None and not pathlib.Path("/usr/local/cuda/bin/nvcc").exists():
        missing.append("nvcc")
    return missing


def copy_tree(dest):
    """The working tree's files as git sees them, under dest: the tracked
    ones as they are on disk (uncommitted edits included) and the new ones
    git does not ignore, which those edits may need; not the build folders
    and other ignored files. A tracked file deleted on disk is left out."""
    p = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                       cwd=ROOT, capture_output=True)
    if p.returncode != 0:
        raise SystemExit(f"new_section_check: git ls-files failed in {ROOT} (it copies the "
                         f"files git knows; run it in a clone):\n{p.stderr.decode()}")
    listing = p.stdout.decode().split("\0")
    for name in filter(None, listing):
        source = ROOT / name
        if not source.exists() and not source.is_symlink():
            continue
        if source.is_dir():   # a submodule: not part of the workbook's sources
            continue
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target, follow_symlinks=False)


def add_section(copy, leave_out):
    with open(copy / "workbook.toml", "a") as f:
        f.write(LIST_ENTRY)
    if "points" not in leave_out:
        with open(copy / "grader" / "points.toml", "a") as f:
            f.write(POINTS_ENTRY)
    for part, files in SECTION_FILES.items():
        if part in leave_out:
            continue
        for path, text in files:
            (copy / path).parent.mkdir(parents=True, exist_ok=True)
            (copy / path).write_text(text)


def run(argv, cwd, env=None, log=None):
    """(exit status, stdout and stderr together)."""
    full = dict(os.environ, WB_LANG="en", PYTHONPATH=str(cwd) if env is None else env)
    p = subprocess.run(argv, cwd=cwd, env=full, capture_output=True, text=True)
    out = p.stdout + p.stderr
    if log is not None:
        log.write(f"$ {' '.join(map(str, argv))}\n{out}\n")
    return p.returncode, out


def tail(text, lines=15):
    return "\n".join("      " + l for l in text.strip().splitlines()[-lines:])


def check_copy(copy, jobs, log):
    """What is missing, as lines; empty when the section is found everywhere."""
    gaps = []
    build = copy / "build"
    rc, out = run([sys.executable, "tests/checks/course_check.py"], copy, log=log)
    if rc != 0:
        gaps.append(f"tests/checks/course_check.py finds gaps in the section:\n{tail(out)}")
    rc, out = run(["cmake", "-S", ".", "-B", str(build)] + CMAKE_OPTIONS, copy, log=log)
    if rc != 0:
        return gaps + [f"configuring the copy failed (cmake):\n{tail(out)}"]
    for target in TARGETS:
        rc, out = run(["cmake", "--build", str(build), "-j", str(jobs), "--target", target],
                      copy, log=log)
        if rc != 0:
            gaps.append(f"building {target} failed:\n{tail(out)}")

    runner = build / "bin" / "wb_run"
    if runner.exists():
        rc, out = run([str(runner), "--list"], copy, log=log)
        try:
            kernels = json.loads(out) if rc == 0 else []
        except json.JSONDecodeError:
            kernels = []
        if not any(k.get("section") == SECTION and k.get("exercise") == EXERCISE for k in kernels):
            gaps.append(f"the runner: wb_run --list has no {SECTION}/{EXERCISE} "
                        f"(tests/runner/{SECTION}_kernels.cu, WB_RUNNER_SECTION)")

    bench = build / "bin" / "wb_bench"
    if bench.exists():
        rc, out = run([str(bench), "--help"], copy, log=log)
        if f"{SECTION}: int32 elements" not in out:
            gaps.append(f"the benchmark: wb_bench --help names no section {SECTION} "
                        f"(bench/wb_bench/{SECTION}_bench.cu, WB_BENCH_SECTION)")

    for doxyfile, page in (("Doxyfile", "notes.md"), ("Doxyfile.zh", "notes.zh.md")):
        path = build / "docs" / doxyfile
        wanted = str(copy / "chapters" / SECTION / page)
        if not path.exists() or wanted not in path.read_text():
            gaps.append(f"the docs: {path.relative_to(copy)} does not name "
                        f"chapters/{SECTION}/{page} (docs/CMakeLists.txt)")

    rc, out = run(["ctest", "--test-dir", str(build), "--show-only=json-v1",
                   "-L", f"^exercise={EXERCISE}$"], copy, log=log)
    try:
        tests = [t["name"] for t in json.loads(out[out.index("{"):])["tests"]] if rc == 0 else []
    except (ValueError, KeyError):
        tests = []
    wanted = f"solutions.{SECTION}.{SECTION}/GpuCopy.CopiesEveryElement/{EXERCISE}"
    if wanted not in tests:
        gaps.append(f"the tests: CTest has no {wanted} labelled exercise={EXERCISE} "
                    f"(tests/{SECTION}/CMakeLists.txt); it lists {tests or 'none'}")

    rc, out = run([sys.executable, "workbook", "hint", EXERCISE], copy, log=log)
    if rc != 0 or "blockIdx.x * blockDim.x" not in out:
        gaps.append(f"the student loop: ./workbook hint {EXERCISE} does not show its first "
                    f"hint (workbook.toml):\n{tail(out)}")

    rc, out = run([sys.executable, "workbook", "grade", "points"], copy, log=log)
    if rc != 0 or f"{SECTION}/{EXERCISE}" not in out:
        gaps.append(f"the grader: ./workbook grade points lists no {SECTION}/{EXERCISE} "
                    f"([{SECTION}.default] in grader/points.toml):\n{tail(out, 5)}")
    return gaps


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=2, help="build jobs (default 2)")
    ap.add_argument("--keep", action="store_true",
                    help="keep the copy and its build, and say where (a log of every command "
                         "is in it)")
    ap.add_argument("--leave-out", action="append", default=[], choices=PARTS,
                    help="do not write this part of the section (to see the check fail)")
    args = ap.parse_args()
    missing = missing_tools()
    if missing:
        print(f"new_section_check: skipped, {', '.join(missing)} not found (install it, "
              f"or put it on PATH)")
        return 77
    start = time.monotonic()
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="wb-new-section-"))
    try:
        copy = tmp / "repo"
        copy_tree(copy)
        add_section(copy, set(args.leave_out))
        with open(tmp / "commands.log", "w") as log:
            gaps = check_copy(copy, args.jobs, log)
    finally:
        if args.keep:
            print(f"new_section_check: the copy is in {tmp} (commands.log: every command's output)")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    took = f"{time.monotonic() - start:.0f} s"
    if gaps:
        print(f"new_section_check: a new section '{SECTION}' with its list entry and files is "
              f"not found everywhere ({took}):")
        for g in gaps:
            print("  - " + g)
        print("Make the place named find the section from workbook.toml, or, if the section "
              "really needs another file, write it here and in docs/adding-a-section.md.")
        return 1
    print(f"new_section_check: section '{SECTION}' found by wb_run --list, wb_bench --help, "
          f"the Doxyfiles, CTest, ./workbook hint, ./workbook grade points and course_check "
          f"({took})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
