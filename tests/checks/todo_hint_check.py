#!/usr/bin/env python3
"""Checks that the starter's TODOs set the task and the hints teach it.

Every exercise that is not a worked example must have at least two hint
steps in workbook.toml, and each TODO block of its starter file (the
`TODO(book X.Y)` comment line and the comment lines right after it) must be
short: at most MAX_TODO_LINES lines, naming the contract header and saying
roughly how many lines the answer takes, a number that must stay close to
the reference solution's count. Worked examples have exactly one hint.

  todo_hint_check.py                         check the repository (CTest runs this)
  todo_hint_check.py --stats [REV]           TODO block sizes now (and at REV)
  todo_hint_check.py --code-unchanged-since REV
                                             with comments stripped, every
                                             starter file is as it was at REV
"""
import argparse
import pathlib
import re
import statistics
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
from wbcore import course  # noqa: E402

MAX_TODO_LINES = 6
ROUGHLY_RE = re.compile(r"roughly (\d+) lines", re.I)
# The exercises' functions: kernels and the host exercises' return types.
FUNCTION_RE = re.compile(r"^(?:__global__ void|double|int|cudaError_t) (\w+)\(")


def todo_blocks(text):
    """[(line number, [comment lines])] for each TODO(book X.Y) block."""
    lines = text.splitlines()
    blocks = []
    for i, line in enumerate(lines):
        if course.TODO_RE.search(line):
            block = []
            for following in lines[i:]:
                if not following.strip().startswith("//"):
                    break
                block.append(following.strip())
            blocks.append((i + 1, block))
    return blocks


def body_line_counts(text):
    """Lines of code in each function body of a solution, in file order:
    not blank, not a comment, not a lone brace."""
    lines = text.splitlines()
    counts = []
    i = 0
    while i < len(lines):
        if FUNCTION_RE.match(lines[i]):
            j = i
            while not lines[j].rstrip().endswith("{"):
                j += 1
            depth, body, k = 0, [], j
            for k in range(j, len(lines)):
                depth += lines[k].count("{") - lines[k].count("}")
                if k > j:
                    body.append(lines[k].strip())
                if depth == 0:
                    break
            code = [b for b in body[:-1] if b and not b.startswith("//") and b not in ("{", "}")]
            counts.append(len(code))
            i = k
        i += 1
    return counts


def close_enough(claimed, actual):
    return abs(claimed - actual) <= max(2, round(0.25 * actual))


def problems(root=ROOT):
    root = pathlib.Path(root)
    found = []
    for e in course.exercises(root):
        if e.worked_example:
            if len(e.hints) != 1:
                found.append(f"{e.key}: a worked example has exactly one hint, not {len(e.hints)}")
            continue
        if len(e.hints) < 2:
            found.append(f"{e.key}: {len(e.hints)} hint step(s); an exercise needs at least 2")
        if len(e.hints) > 4:
            found.append(f"{e.key}: {len(e.hints)} hint steps; keep it to 4 at most")
        starter, solution = e.starter_file(root), e.solution_file(root)
        if not starter.exists():
            continue  # course_check.py reports missing files
        blocks = todo_blocks(starter.read_text())
        counts = body_line_counts(solution.read_text()) if solution.exists() else []
        contract = f"chapters/{e.section}/{e.section}.cuh"
        for n, (line, block) in enumerate(blocks):
            where = f"{starter.relative_to(root)}:{line}"
            text = " ".join(b.lstrip("/ ").strip() for b in block)
            if len(block) > MAX_TODO_LINES:
                found.append(f"{where}: the TODO block has {len(block)} comment lines "
                             f"(at most {MAX_TODO_LINES}; the steps belong in the hints)")
            if contract not in text:
                found.append(f"{where}: the TODO does not point to the contract {contract}")
            m = ROUGHLY_RE.search(text)
            if not m:
                found.append(f"{where}: the TODO does not say roughly how many lines the answer takes")
            elif n < len(counts) and not close_enough(int(m.group(1)), counts[n]):
                found.append(f"{where}: the TODO says roughly {m.group(1)} lines, but the "
                             f"reference has {counts[n]}")
    return found


# --- comments only -------------------------------------------------------

def strip_comments(text):
    """C++ source without its comments, blank lines and trailing spaces.
    String and character literals are kept whole."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            out.append(" ")
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    lines = ("".join(out)).splitlines()
    return "\n".join(l.rstrip() for l in lines if l.strip())


def code_changes_since(rev, root=ROOT):
    root = pathlib.Path(root)
    changed = []
    for path in sorted((root / "starter").glob("*/*.cu")):
        rel = path.relative_to(root).as_posix()
        old = subprocess.run(["git", "show", f"{rev}:{rel}"], cwd=root, capture_output=True,
                             text=True)
        if old.returncode != 0:
            changed.append(f"{rel}: not in {rev}")
            continue
        if strip_comments(old.stdout) != strip_comments(path.read_text()):
            changed.append(f"{rel}: its code differs from {rev}")
    return changed


def stats(texts):
    sizes = [len(b) for t in texts for _, b in todo_blocks(t)]
    if not sizes:
        return "no TODO blocks"
    return (f"{len(sizes)} TODO blocks, median {statistics.median(sizes)} lines, "
            f"max {max(sizes)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stats", nargs="?", const="", metavar="REV",
                    help="print TODO block sizes now, and at REV if given")
    ap.add_argument("--code-unchanged-since", metavar="REV",
                    help="check that the starter's code (comments stripped) is as at REV")
    ap.add_argument("--root", default=str(ROOT), help=argparse.SUPPRESS)
    args = ap.parse_args()
    root = pathlib.Path(args.root)
    if args.stats is not None:
        files = sorted((root / "starter").glob("*/*.cu"))
        if args.stats:
            old = [subprocess.run(["git", "show", f"{args.stats}:{p.relative_to(root).as_posix()}"],
                                  cwd=root, capture_output=True, text=True).stdout for p in files]
            print(f"at {args.stats}: {stats(old)}")
        print(f"now: {stats([p.read_text() for p in files])}")
        return 0
    if args.code_unchanged_since:
        changed = code_changes_since(args.code_unchanged_since, root)
        for c in changed:
            print("  " + c)
        n = len(list((root / "starter").glob("*/*.cu")))
        print(f"{len(changed)} of {n} starter files differ from {args.code_unchanged_since} "
              "once comments are stripped")
        return 1 if changed else 0
    found = problems(root)
    if found:
        print(f"{len(found)} problem(s) with the TODOs and hints:")
        for f in found:
            print("  " + f)
        return 1
    print(f"every exercise has 2 to 4 hint steps (worked examples one), and every starter "
          f"TODO block is at most {MAX_TODO_LINES} lines, names its contract and an honest "
          "line count")
    return 0


if __name__ == "__main__":
    sys.exit(main())
