#!/usr/bin/env python3
"""Proves that workbook.toml, the contracts, starter/, solutions/ and every
other place a section lives agree, and names whatever is missing.

  course_check.py              check the repository; exit 1 naming each gap
  course_check.py --self-test  check that a deliberately incomplete section
                               and exercise are caught (CTest runs both)

docs/adding-a-section.md walks through the same places.
"""
import argparse
import pathlib
import re
import shutil
import sys
import tempfile

from wbcore import course


def section_places(root, s, exercises):
    """(description, path, ok) for everything a section needs."""
    r = pathlib.Path(root)
    kernels = [e for e in exercises if e.kind == "kernel"]
    places = [
        ("its contract", r / "chapters" / s.name / f"{s.name}.cuh"),
        ("its chapter notes", r / "chapters" / s.name / "notes.md"),
        ("its starter folder", r / "starter" / s.name),
        ("its solutions folder", r / "solutions" / s.name),
        ("its tests", r / "tests" / s.name / "CMakeLists.txt"),
        ("its mutants folder", r / "tests" / "mutants" / s.name),
    ]
    # The runner and the benchmark run kernels: a section of host functions
    # alone (config) has neither.
    if kernels:
        places.append(("its kernel-runner entry", r / "tests" / "runner" / f"{s.name}_kernels.cu"))
        places.append(("its benchmark entry", r / "bench" / "wb_bench" / f"{s.name}_bench.cu"))
    found = [(what, path, path.exists()) for what, path in places]
    mutants = r / "tests" / "mutants" / s.name
    if mutants.is_dir() and not any(mutants.glob("*__*.cu")):
        found.append(("at least one mutant (<exercise>__<bug>.cu)", mutants, False))
    points = (r / "grader" / "points.toml").read_text()
    has_points = re.search(rf"^\[{re.escape(s.name)}\.(default|section)\]", points, re.M)
    found.append((f"its points ([{s.name}.default] or [{s.name}.section])",
                  r / "grader" / "points.toml", bool(has_points)))
    # The runner's and the benchmark's builds, and the documentation's
    # pages, take the files above from workbook.toml's sections: nothing
    # there lists a section by hand.
    return found


def contract_table(root, section):
    """{exercise: book section} from the contract's table of kernels (the
    rows that start with the exercise's name in quotes and hold a book
    section in quotes), or None where the section keeps no such table."""
    r = pathlib.Path(root) / "chapters" / section
    text = "".join(p.read_text() for p in sorted(r.glob("*.h")) + sorted(r.glob("*.cuh")))
    rows = {}
    for m in re.finditer(r'\{"(\w+)",([^{}]*?)"(5\.[0-9.]+|[0-9])"', text):
        name, book = m.group(1), m.group(3)
        # layout's patterns give the last digit: 5.2.1.x for the square tile.
        rows[name] = book if "." in book else f"5.2.1.{book}"
    return rows or None


def exercise_problems(root, e, contract_text):
    r = pathlib.Path(root)
    problems = []
    solution, starter = e.solution_file(r), e.starter_file(r)
    if not solution.exists():
        problems.append(f"no reference solution {solution.relative_to(r)}")
    if not starter.exists():
        problems.append(f"no starter twin {starter.relative_to(r)}")
    if not e.hints:
        problems.append("no hint (hints = [...] in workbook.toml)")
    if contract_text is not None and not re.search(rf"\b{re.escape(e.name)}", contract_text):
        problems.append(f"not declared in its contract chapters/{e.section}/{e.section}.cuh")
    if starter.exists():
        todo = course.first_todo(starter)
        if e.worked_example and todo:
            problems.append(f"is the worked example but its starter has a TODO (line {todo[0]})")
        if not e.worked_example and not todo:
            problems.append("its starter has no TODO(book X.Y) line")
        if e.worked_example and solution.exists() and starter.read_bytes() != solution.read_bytes():
            problems.append("is the worked example but its starter differs from its solution")
    if solution.exists():
        is_kernel = "__global__" in solution.read_text(errors="replace")
        if is_kernel != (e.kind == "kernel"):
            problems.append(f"is listed as kind '{e.kind}' but its solution "
                            + ("defines a kernel" if is_kernel else "defines no kernel"))
    return problems


def check(root):
    """Every gap, as lines of text; empty when the tree is complete."""
    r = pathlib.Path(root)
    gaps = []
    try:
        sections = course.sections(r)
        exercises = course.exercises(r)
    except course.CourseError as err:
        return [str(err)]
    listed = {e.key for e in exercises}
    for s in sections:
        exs = [e for e in exercises if e.section == s.name]
        if not exs:
            gaps.append(f"section {s.name}: workbook.toml lists no exercise of it")
        for what, path, ok in section_places(r, s, exs):
            if not ok:
                gaps.append(f"section {s.name}: {what} is missing ({path.relative_to(r)})")
        contract = r / "chapters" / s.name / f"{s.name}.cuh"
        text = contract.read_text() if contract.exists() else None
        for e in exs:
            for p in exercise_problems(r, e, text):
                gaps.append(f"exercise {e.key}: {p}")
        table = contract_table(r, s.name) if contract.exists() else None
        if table is not None:
            kernels = {e.name: e for e in exs if e.kind == "kernel"}
            for name in sorted(set(table) - set(kernels)):
                gaps.append(f"section {s.name}: the contract's table has {name}, "
                            f"which workbook.toml does not list as a kernel exercise")
            for name in sorted(set(kernels) - set(table)):
                gaps.append(f"exercise {s.name}/{name}: missing from the contract's table")
            for name in sorted(set(table) & set(kernels)):
                if table[name] != kernels[name].book:
                    gaps.append(f"exercise {s.name}/{name}: workbook.toml says book "
                                f"{kernels[name].book}, the contract's table {table[name]}")
    names = {s.name for s in sections}
    for folder in ("starter", "solutions"):
        for path in sorted((r / folder).glob("*/*.cu")):
            key = f"{path.parent.name}/{path.stem}"
            if path.parent.name not in names:
                gaps.append(f"{path.relative_to(r)}: its folder is not a section of workbook.toml")
            elif key not in listed:
                gaps.append(f"{path.relative_to(r)}: not listed in workbook.toml")
    # The kernels and contracts stand alone: they include only the contracts
    # (chapters/), never the harness, the tests or the tools.
    chapters = (r / "chapters").resolve()
    for folder in ("chapters", "starter", "solutions"):
        for path in sorted((r / folder).rglob("*")):
            if path.suffix not in (".cu", ".cuh", ".h") or not path.is_file():
                continue
            for m in re.finditer(r'^\s*#\s*include\s*"([^"]+)"', path.read_text(), re.M):
                here = (path.parent / m.group(1)).resolve()
                there = (chapters / m.group(1)).resolve()
                ok = (here.exists() and chapters in here.parents) or \
                     (there.exists() and chapters in there.parents)
                if not ok:
                    gaps.append(f"{path.relative_to(r)}: includes \"{m.group(1)}\", which is "
                                f"not a contract in chapters/")
    for path in sorted((r / "starter").glob("*/hints.md")):
        gaps.append(f"{path.relative_to(r)}: hints live in workbook.toml now")
    return gaps


# A made-up section that nothing else in the tree has (a real name would
# clash the day that section is added).
SELF_TEST_SECTION = '''
[[section]]
name = "selftest"
book = "5.9"
title = "A section that is only listed"

[[exercise]]
section = "selftest"
name = "onlyListed"
book = "5.9.1"
kind = "kernel"
'''


def self_test():
    """A copy of the list with a section that has nothing but its entry, and
    an exercise with neither files nor hint: both must be named."""
    root = pathlib.Path(__file__).resolve().parents[2]
    with tempfile.TemporaryDirectory() as tmp:
        t = pathlib.Path(tmp)
        for name in ("chapters", "starter", "solutions", "tests", "bench", "grader", "docs"):
            shutil.copytree(root / name, t / name, ignore=shutil.ignore_patterns("__pycache__"))
        (t / "workbook.toml").write_text((root / "workbook.toml").read_text() + SELF_TEST_SECTION)
        gaps = check(t)
        wanted = ["section selftest: its contract is missing",
                  "section selftest: its starter folder is missing",
                  "section selftest: its kernel-runner entry is missing",
                  "section selftest: its benchmark entry is missing",
                  "section selftest: its points",
                  "section selftest: its chapter notes is missing",
                  "exercise selftest/onlyListed: no reference solution",
                  "exercise selftest/onlyListed: no hint"]
        missed = [w for w in wanted if not any(g.startswith(w) for g in gaps)]
        # An exercise dropped from the list, a hint removed: named too.
        text = (root / "workbook.toml").read_text()
        m = re.search(r'\[\[exercise\]\]\nsection = "layout"\nname = "setColReadCol"\n.*?(?=\n\[\[)',
                      text, re.S)
        if m is None:
            missed.append("(the self-test could not find setColReadCol's entry)")
        else:
            (t / "workbook.toml").write_text(text.replace(m.group(0), ""))
            if "solutions/layout/setColReadCol.cu: not listed in workbook.toml" not in check(t):
                missed.append("a solution without a list entry")
            (t / "workbook.toml").write_text(
                text.replace(m.group(0), re.sub(r"hints = \[.*", "", m.group(0), flags=re.S)))
            if "exercise layout/setColReadCol: no hint (hints = [...] in workbook.toml)" not in check(t):
                missed.append("a missing hint")
    missed += book_number_misses(root)
    if missed:
        print("course_check self-test: these gaps were not reported:\n  " + "\n  ".join(missed))
        return 1
    print("course_check self-test: an incomplete section, a solution without a list entry, "
          "a missing hint, a book exercise number out of 1..15 and one claimed twice are all "
          "named")
    return 0


def book_number_misses(root):
    """setColReadRow's book_exercises changed to a number the chapter does
    not have and to one reduceShflDown answers: each list must be refused
    (book-5.N names one exercise of the chapter's 15)."""
    text = (root / "workbook.toml").read_text()
    entry = 'name = "setColReadRow"\nbook = "5.2.1.2"\nkind = "kernel"\n'
    m = re.search(re.escape(entry) + r"(?:#.*\n)*book_exercises = \[2, 6\]", text)
    if m is None:
        return ["(the self-test could not find setColReadRow's book_exercises = [2, 6])"]
    cases = {"[2, 16]": "book_exercises must be a list of the book's exercise numbers "
                        "(integers 1 to 15)",
             "[0, 6]": "book_exercises must be a list of the book's exercise numbers",
             "[2, 15]": "(reduceShflDown): book exercise 15 is already answered by "
                        "layout/setColReadRow"}
    missed = []
    for numbers, wanted in cases.items():
        # A folder of its own per case: the list's cache is keyed by path
        # and modification time.
        with tempfile.TemporaryDirectory() as tmp:
            t = pathlib.Path(tmp)
            bad = m.group(0).replace("[2, 6]", numbers)
            (t / "workbook.toml").write_text(text.replace(m.group(0), bad))
            # The list is refused when it is read: check() reports that
            # CourseError as its gap.
            try:
                course.exercises(t)
                refused = ""
            except course.CourseError as err:
                refused = str(err)
            if wanted not in refused:
                missed.append(f"setColReadRow with book_exercises = {numbers}")
    return missed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--self-test", action="store_true",
                    help="check that gaps are caught, on a copy with some made")
    ap.add_argument("--root", default=str(pathlib.Path(__file__).resolve().parents[2]),
                    help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    gaps = check(args.root)
    if gaps:
        print(f"{len(gaps)} gap(s) between workbook.toml and the tree:")
        for g in gaps:
            print("  " + g)
        return 1
    n = len(course.exercises(args.root))
    print(f"workbook.toml, the contracts, starter/, solutions/, tests, runner, benchmark, "
          f"mutants and points agree: {len(course.sections(args.root))} sections, {n} exercises")
    return 0


if __name__ == "__main__":
    sys.exit(main())
