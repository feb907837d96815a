#!/usr/bin/env python3
"""Checks that one exercise's compiled kernels use the technique the
exercise teaches (its method facts in workbook.toml), from their machine
code, without a GPU. Exit: 0 every fact holds, 1 one does not, 77 when the
disassemblers are not installed (CTest: skipped, with the install line).

The facts (wbcore/method.py) are checked against the module's SASS
(wbcore/sass.py: cuobjdump and nvdisasm, in the sandbox where it starts);
a failure names, per fact and kernel, what was expected and found and the
lines of the student's file.

  PYTHONPATH=. python3 tests/checks/method_check.py --module build/modules/starter/shuffle/shflSwap.fatbin \\
      --exercise shuffle/shflSwap [--source-dir starter=starter]
prints, for a swap that reads its partner's value from global memory, e.g.
  FAILED shuffle/shflSwap (method):
    shflSwap: no SHFL instruction (warp shuffle (SHFL)) at starter/shuffle/shflSwap.cu:10
    shflSwap: 8 LDG instruction(s) (global-memory load (LDG), on any path), expected at most 4;
      the partner's value comes by shuffle, not from global memory at starter/shuffle/shflSwap.cu:14, :17
"""
import argparse
import sys

from wbcore import course as wbex
from wbcore import method
from wbcore import nsight
from wbcore import sass

SKIP = 77


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n", 1)[0], epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--module", required=True, help="the exercise's compiled module (.fatbin)")
    ap.add_argument("--exercise", required=True, help="section/name, as workbook.toml lists it")
    ap.add_argument("--source-dir", action="append", default=[], metavar="DIR=SHOWN",
                    help="the folder the module was compiled from and the name shown for it "
                         "(the grader's copy of a submission: SLOT/submission=starter)")
    ap.add_argument("--unconfined", action="store_true",
                    help="run the disassemblers outside the sandbox")
    args = ap.parse_args()
    try:
        exercise = wbex.find_exercise(args.exercise)
    except (LookupError, wbex.CourseError) as err:
        print(f"PROBLEM {err}")
        return 1
    if not exercise.method:
        print(f"PROBLEM {exercise.key}: workbook.toml lists no method facts for it")
        return 1
    facts = method.exercise_facts(list(exercise.method))
    try:
        listings = sass.disassemble(args.module, unconfined=args.unconfined)
    except sass.ToolsMissing as err:
        print(f"skipped: {err}")
        return SKIP
    except sass.DisassemblyError as err:
        print(f"FAILED {exercise.key} (method): the module could not be read: {err}")
        return 1
    checked, findings = method.evaluate(listings, facts, nsight.source_dirs(args.source_dir),
                                        exercise_file=f"{exercise.section}/{exercise.name}.cu")
    if not checked:
        # A module built for virtual architectures only (PTX) holds no SASS.
        print(f"skipped: {args.module} holds no machine code (SASS) to read: build for a real "
              "architecture (CMAKE_CUDA_ARCHITECTURES)")
        return SKIP
    if findings:
        print(f"FAILED {exercise.key} (method):")
        for line in method.describe(findings):
            print(f"  {line}")
        # For ./workbook check's diagnosis by known mistakes (wbcore/diagnosis.py).
        print("  failed facts: " + " | ".join(method.failed_facts(findings)))
        return 1
    print(f"PASSED {exercise.key} (method): " + "; ".join(f.text for f in facts)
          + f" in {', '.join(checked)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
