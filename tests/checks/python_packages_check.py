#!/usr/bin/env python3
"""Keeps the workbook's Python one set of packages (pyproject.toml): no file
touches sys.path (a script finds the packages through its caller's
PYTHONPATH), the packages' modules import one another without a circle,
wbcore imports none of the other packages, and no package imports a module
of tests/.

  python_packages_check.py              check the repository; exit 1 naming each problem
  python_packages_check.py --self-test  check that it finds each problem in made-up files
"""
import argparse
import ast
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = ("wbcore", "student", "grader", "bench")
# The package every other one builds on: it imports none of them.
BASE = "wbcore"
# Python files without the .py suffix.
SCRIPTS = ("workbook",)
# The folders whose modules only tests import (scripts run by path, helpers).
TEST_FOLDERS = ("tests/checks", "grader/tests")


def python_files(root):
    """The repository's Python files, build folders left out."""
    found = [root / name for name in SCRIPTS if (root / name).is_file()]
    for top in sorted(root.iterdir()):
        if top.name.startswith(("build", ".")):
            continue
        paths = [top] if top.suffix == ".py" else sorted(top.rglob("*.py")) if top.is_dir() else []
        found += [p for p in paths if "__pycache__" not in p.parts]
    return found


def module_name(root, path):
    """'pkg.mod' (or 'pkg' for its __init__.py) for a package module, else None."""
    parts = path.relative_to(root).parts
    if len(parts) != 2 or parts[0] not in PACKAGES or not parts[1].endswith(".py"):
        return None
    stem = parts[1][:-3]
    return parts[0] if stem == "__init__" else f"{parts[0]}.{stem}"


def imported(tree, package):
    """Every dotted name a module imports, relative imports made absolute
    (package: the module's own package), with each name a from-import takes
    as a possible submodule."""
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = package + (f".{base}" if base else "")
            names.append(base)
            names += [f"{base}.{alias.name}" for alias in node.names]
    return names


def problems(root):
    root = pathlib.Path(root)
    modules = {}
    found = []
    test_modules = {p.stem for folder in TEST_FOLDERS for p in (root / folder).glob("*.py")}
    for path in python_files(root):
        shown = path.relative_to(root)
        try:
            tree = ast.parse(path.read_text(), str(path))
        except (SyntaxError, UnicodeDecodeError) as err:
            found.append(f"{shown}: cannot be read as Python ({err})")
            continue
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr == "path"
                    and isinstance(node.value, ast.Name) and node.value.id == "sys"):
                found.append(f"{shown}:{node.lineno}: uses sys.path; let the caller put the "
                             "repository's root on PYTHONPATH (pyproject.toml says how)")
        name = module_name(root, path)
        if name:
            modules[name] = imported(tree, name.split(".")[0])
    edges = {}
    for name, names in modules.items():
        own = name.split(".")[0]
        edges[name] = sorted({n for n in names if n in modules and n != name})
        for top in sorted({n.split(".")[0] for n in names}):
            if own == BASE and top in PACKAGES and top != BASE:
                found.append(f"{name} imports {top}: {BASE} is what the other packages share "
                             "and imports none of them; move what both need into it")
            if top == "tests" or top in test_modules:
                found.append(f"{name} imports {top}, a module of the tests; move what the "
                             "package needs into it")
    found += [f"import circle: {' -> '.join(c)}" for c in circles(edges)]
    return found


def circles(edges):
    """The circles a depth-first walk meets, each once, from its least module."""
    found, done = {}, set()

    def visit(node, path):
        for nxt in edges.get(node, ()):
            if nxt in path:
                loop = path[path.index(nxt):]
                first = loop.index(min(loop))
                loop = loop[first:] + loop[:first]
                found.setdefault(tuple(loop), loop + [loop[0]])
            elif nxt not in done:
                visit(nxt, path + [nxt])
        done.add(node)

    for start in sorted(edges):
        if start not in done:
            visit(start, [start])
    return [found[k] for k in sorted(found)]


def self_test():
    """Made-up trees: a clean one passes; each problem is named."""
    files = {
        "workbook": "from wbcore import a\n",
        "wbcore/__init__.py": "",
        "wbcore/a.py": "import json\n",
        "wbcore/b.py": "from . import a\n",
        "student/__init__.py": "",
        "student/s.py": "from wbcore import b\n",
        "tests/checks/helper.py": "",
    }
    edited = "sys." + "path"   # spelled apart: a search for the edits finds none here
    wrong = {
        "student/s.py": (f"import sys\n{edited}.insert(0, '.')\nfrom wbcore import b\n",
                         "uses sys.path"),
        "workbook": (f"import os, sys\n{edited}[:0] = [os.getcwd()]\n", "uses sys.path"),
        "wbcore/a.py": ("from wbcore import b\n", "import circle: wbcore.a -> wbcore.b -> wbcore.a"),
        "wbcore/b.py": ("from student import s\n", "wbcore.b imports student"),
        "grader/g.py": ("import helper\n", "grader.g imports helper, a module of the tests"),
    }
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)

        def write(tree):
            for rel, text in tree.items():
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / rel).write_text(text)

        write(files)
        clean = problems(root)
        if clean:
            print(f"self-test FAILED: a clean tree has problems: {clean}")
            failures += 1
        for rel, (text, expected) in wrong.items():
            write(files)
            (root / "grader").mkdir(exist_ok=True)
            (root / "grader" / "__init__.py").write_text("")
            (root / rel).write_text(text)
            said = problems(root)
            if not any(expected in p for p in said):
                print(f"self-test FAILED: {rel} ({expected!r}) not found; said {said}")
                failures += 1
            (root / rel).unlink()
    print(f"self-test: {len(wrong)} made-up problem(s), {failures} missed")
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(
        description="Check that the workbook's Python is one set of packages: no sys.path "
                    "edits, no import circle, wbcore imports no other package, no package "
                    "imports the tests' modules.")
    ap.add_argument("--self-test", action="store_true",
                    help="check that each problem is found in made-up files")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    found = problems(ROOT)
    for p in found:
        print(f"PROBLEM {p}")
    print(f"python packages ({', '.join(PACKAGES)}): {len(found)} problem(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
