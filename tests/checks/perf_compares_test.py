#!/usr/bin/env python3
"""CTest's discovery of a section's tests (cmake/WorkbookDiscoverTests.cmake)
labels each performance comparison with the exercises its source declares
(WB_PERF_COMPARES, `compares=<name>`), and refuses a comparison that
declares none or names an exercise the section does not have.

Runs the discovery script with `cmake -P` on a stand-in test executable (a
shell script printing a GoogleTest listing, and the declarations when
WB_LIST_COMPARISONS=1), with add_test and set_tests_properties replaced by
functions that print what they were given. CTest:
workbook.perf_comparisons_are_declared (label host)."""
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
DISCOVER = ROOT / "cmake" / "WorkbookDiscoverTests.cmake"

LISTING = """PerfReduction.
  SharedMemoryBeatsGlobalMemory
"""


def discover(folder, declaration):
    """(exit status, output) of the discovery on a stand-in executable whose
    declarations are `declaration` (a WB_COMPARES line or "")."""
    exe = folder / "wb_stand_in_tests"
    exe.write_text("#!/bin/sh\n"
                   f"printf '%s' '{LISTING}'\n"
                   f"[ \"$WB_LIST_COMPARISONS\" = 1 ] && printf '%s\\n' '{declaration}'\n"
                   "exit 0\n")
    exe.chmod(0o755)
    course = folder / "course.cmake"
    course.write_text("set(WB_reduction_EXERCISES reduceGmem;reduceSmem)\n")
    driver = folder / "driver.cmake"
    driver.write_text(
        "function(add_test)\n  message(STATUS \"add_test ${ARGV0}\")\nendfunction()\n"
        "function(set_tests_properties)\n  message(STATUS \"properties ${ARGV}\")\nendfunction()\n"
        f"set(WB_EXE [==[{exe}]==])\nset(WB_LIST_EXE [==[{exe}]==])\n"
        "set(WB_PREFIX starter.reduction.)\nset(WB_LABELS reduction;starter)\n"
        "set(WB_KINDS gpu;perf)\nset(WB_TIMEOUT_perf 300)\n"
        f"set(WB_COURSE [==[{course}]==])\nset(WB_SECTION reduction)\n"
        "set(WB_PYTHON python3)\nset(WB_VERDICT verdict.py)\n"
        "set(WB_EXERCISE_BY_PARAMETER TRUE)\n"
        f"include([==[{DISCOVER}]==])\n")
    proc = subprocess.run(["cmake", "-P", str(driver)], capture_output=True, text=True,
                          timeout=60)
    # CMake wraps its messages: compare with the whitespace made single.
    return proc.returncode, " ".join((proc.stdout + proc.stderr).split())


def main():
    if not shutil.which("cmake"):
        print("skipped: cmake is not on PATH")
        return 77
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp)
        rc, out = discover(folder, "WB_COMPARES PerfReduction.SharedMemoryBeatsGlobalMemory "
                                   "reduceSmem")
        if rc != 0 or "compares=reduceSmem" not in out:
            problems.append(f"a declared comparison is not labelled compares=reduceSmem "
                            f"(exit {rc}):\n{out}")
        rc, out = discover(folder, "")
        if rc == 0 or "does not declare which exercises it times" not in out:
            problems.append(f"an undeclared comparison was not refused (exit {rc}):\n{out}")
        rc, out = discover(folder, "WB_COMPARES PerfReduction.SharedMemoryBeatsGlobalMemory "
                                   "reduceShfl")
        if rc == 0 or "'reduceShfl', which workbook.toml does not list" not in out:
            problems.append(f"a comparison of another section's exercise was not refused "
                            f"(exit {rc}):\n{out}")
    for p in problems:
        print("PROBLEM " + p)
    if not problems:
        print("comparisons are labelled with their declared exercises; undeclared and unknown "
              "ones are refused")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
