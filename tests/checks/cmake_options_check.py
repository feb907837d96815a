#!/usr/bin/env python3
"""Checks that every -D the workbook's presets, tools and documentation
pass names a variable the build declares.

CMake ignores a -D nothing reads, with a warning few people see, so a
misspelt or retired option (a WB_BUILD_DOCS was once passed by the grader
and the ci preset) builds something other than what was asked for. The
configure step refuses an undeclared WB_ variable (the end of
CMakeLists.txt); this check finds one without configuring, in every place
that passes options, including the presets no test configures.

  cmake_options_check.py [--self-test]
"""
import argparse
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]

# option(), set(... CACHE ...), and the result variable of find_path() and
# its kin, which is a cache entry a -D may set (a library's location).
DECLARATION_RES = (re.compile(r"\boption\(\s*([A-Za-z_][A-Za-z0-9_]*)"),
                   re.compile(r"\bset\(\s*([A-Za-z_][A-Za-z0-9_]*)\s[^)]*?\bCACHE\b"),
                   re.compile(r"\bfind_(?:path|library|program|file)\(\s*([A-Za-z_][A-Za-z0-9_]*)"))
# -DNAME=..., -DNAME:TYPE=...: a cache variable set on a cmake command line
# (a compiler's -DMACRO without '=' is not matched).
PASSED_RE = re.compile(r"-D([A-Za-z_][A-Za-z0-9_]*)(?::[A-Z]+)?=")
# CMake's own variables are CMake's business, not a workbook option.
CMAKE_OWN_RE = re.compile(r"^CMAKE_")
# Where options are passed: the front door, CI, the tools and their tests,
# the GPU suite, and the pages that tell people what to type.
TOOL_FILES = ("workbook", ".ci/run", "README.md", "tests/gpu-suite.sh")
TOOL_GLOBS = ("wbcore/*.py", "grader/*.py", "grader/tests/*.py", "grader/tests/CMakeLists.txt",
              "student/*.py", "bench/*.py", "tests/checks/*.py", "tests/CMakeLists.txt",
              "docs/*.md")


def cmake_files(root):
    return [root / "CMakeLists.txt", *sorted((root / "cmake").glob("*.cmake")),
            *sorted(p for p in root.rglob("CMakeLists.txt")
                    if not any(part.startswith("build") for part in p.relative_to(root).parts))]


def declared_names(texts):
    return {m.group(1) for text in texts for regex in DECLARATION_RES for m in regex.finditer(text)}


def passed_in_text(text):
    return {m.group(1) for m in PASSED_RE.finditer(text)}


def preset_variables(presets_text):
    """{preset name: its own cacheVariables' names}."""
    doc = json.loads(presets_text)
    return {p["name"]: set(p.get("cacheVariables", {})) for p in doc.get("configurePresets", [])}


def undeclared(passed_by_place, declared):
    """[(place, name)] of the names passed that are neither declared nor CMake's."""
    return sorted((place, name) for place, names in passed_by_place.items() for name in names
                  if name not in declared and not CMAKE_OWN_RE.match(name))


def scan(root):
    declared = declared_names(p.read_text(errors="replace") for p in cmake_files(root)
                              if p.exists())
    passed = {f"CMakePresets.json (preset {name})": names
              for name, names in preset_variables((root / "CMakePresets.json").read_text()).items()}
    this_file = pathlib.Path(__file__).resolve()
    files = [root / f for f in TOOL_FILES] + [p for g in TOOL_GLOBS for p in sorted(root.glob(g))]
    for path in files:
        if path.exists() and path.resolve() != this_file:
            passed[str(path.relative_to(root))] = passed_in_text(path.read_text(errors="replace"))
    return declared, passed


def self_test():
    """The check catches an undeclared option in each kind of place."""
    declared = declared_names(['option(WB_BUILD_TESTS "Build the tests" ON)\n'
                               'set(WB_STARTER_DIR "${CMAKE_SOURCE_DIR}/starter" CACHE PATH\n'
                               '    "the starter")'])
    assert declared == {"WB_BUILD_TESTS", "WB_STARTER_DIR"}, declared
    presets = json.dumps({"configurePresets": [{"name": "ci", "cacheVariables": {
        "WB_BUILD_TESTS": "ON", "WB_BUILD_DOCS": "ON", "CMAKE_BUILD_TYPE": "Release"}}]})
    passed = {f"preset {k}": v for k, v in preset_variables(presets).items()}
    passed["tool"] = passed_in_text('cmd = ["cmake", "-DWB_BUILD_DOCS:BOOL=ON", "-DNDEBUG", '
                                    'f"-DWB_STARTER_DIR={x}"]')
    found = undeclared(passed, declared)
    assert found == [("preset ci", "WB_BUILD_DOCS"), ("tool", "WB_BUILD_DOCS")], found
    print("self-test: an undeclared option is caught in a preset and on a command line")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="CTest: workbook.cmake_options_exist, "
                                        "workbook.cmake_options_check_catches_gaps")
    ap.add_argument("--self-test", action="store_true",
                    help="check that the check catches an undeclared option")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    declared, passed = scan(ROOT)
    problems = undeclared(passed, declared)
    for place, name in problems:
        print(f"PROBLEM {place} passes -D{name}, which no option() or set(... CACHE) declares")
    print(f"{sum(len(v) for v in passed.values())} -D option(s) passed in "
          f"{sum(1 for v in passed.values() if v)} place(s); "
          f"{len(problems)} undeclared")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
