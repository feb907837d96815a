#!/usr/bin/env python3
"""The pristine starter: every exercise file as shipped, kept in
student/pristine_starter.json, which `./workbook reset` restores from.

Why a file of its own and not git: in a course repository the student
commits and pushes their work, so origin/HEAD and HEAD hold the student's
code, and a copy handed out without .git has no history at all. The
pristine text is therefore shipped beside the tools, in a place students do
not edit, with the SHA-256 of each file so a damaged or hand-edited record
is refused rather than restored. It changes only when a developer changes
starter/ and runs

  python3 -m student.pristine --update

and CI (.ci/run) fails when the record and starter/ disagree in a clean
clone (tests/checks/pristine_check.py).
"""
import argparse
import hashlib
import json
import pathlib
import sys

from wbcore import course as wbex
from wbcore import files as wbfiles

RECORD = pathlib.PurePosixPath("student") / "pristine_starter.json"
FORMAT = 1


class PristineError(RuntimeError):
    """The record is missing, unreadable, or does not hold an exercise."""


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def record_path(root=wbex.ROOT):
    return pathlib.Path(root) / RECORD


def relative_name(e):
    """An exercise file's name in the record: its path under starter/."""
    return f"{e.section}/{e.name}.cu"


def build_record(root=wbex.ROOT):
    """The record of starter/ as it is in `root` now."""
    files = {}
    for e in wbex.exercises(root):
        data = e.starter_file(root).read_bytes()
        files[relative_name(e)] = {"sha256": sha256(data), "text": data.decode("utf-8")}
    return {"format": FORMAT,
            "about": "The pristine starter that ./workbook reset restores. Written by "
                     "python3 -m student.pristine --update; do not edit by hand.",
            "files": files}


def write_record(root=wbex.ROOT):
    path = record_path(root)
    text = json.dumps(build_record(root), indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    wbfiles.atomic_write(path, text)
    return path


def load_record(root=wbex.ROOT):
    """{name under starter/: bytes} of the record, each checked against its
    hash. Raises PristineError naming what is wrong."""
    path = record_path(root)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise PristineError(f"cannot read the pristine starter {RECORD}: {err}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or not isinstance(
            doc.get("files"), dict):
        raise PristineError(f"{RECORD} is not a pristine-starter record of format {FORMAT}")
    contents = {}
    for name, entry in doc["files"].items():
        data = entry.get("text", "").encode("utf-8") if isinstance(entry, dict) else b""
        if not isinstance(entry, dict) or sha256(data) != entry.get("sha256"):
            raise PristineError(f"{RECORD}: the text of {name} does not match its SHA-256 "
                                "(edited by hand or damaged)")
        contents[name] = data
    return contents


def pristine_text(e, root=wbex.ROOT):
    """The pristine bytes of one exercise's starter file."""
    contents = load_record(root)
    try:
        return contents[relative_name(e)]
    except KeyError:
        raise PristineError(f"{RECORD} holds no starter/{relative_name(e)}; a developer "
                            "regenerates it with python3 -m student.pristine --update") from None


def untouched_exercises(root=wbex.ROOT):
    """The exercises (not the worked examples, which are complete) whose
    file is still the pristine starter, byte for byte: as shipped their
    tests fail (tests/checks/check_starter.py holds the starter to that),
    so the student's progress run need not start them. [] when the record
    cannot be read (every exercise is then tested)."""
    try:
        contents = load_record(root)
    except PristineError:
        return []
    untouched = []
    for e in wbex.exercises(root):
        path = e.starter_file(root)
        if e.worked_example or not path.is_file():
            continue
        if path.read_bytes() == contents.get(relative_name(e)):
            untouched.append(e)
    return untouched


def differences(root=wbex.ROOT):
    """Names under starter/ whose file differs from the record, or that one
    of them lacks (the record's and workbook.toml's exercises)."""
    contents = load_record(root)
    names = {relative_name(e): e for e in wbex.exercises(root)}
    changed = []
    for name in sorted(set(names) | set(contents)):
        path = pathlib.Path(root) / "starter" / name
        if name not in contents or name not in names or not path.exists() \
                or path.read_bytes() != contents[name]:
            changed.append(name)
    return changed


def main():
    ap = argparse.ArgumentParser(description="Write or check student/pristine_starter.json, "
                                             "the pristine starter ./workbook reset restores.")
    ap.add_argument("--update", action="store_true",
                    help="(developers) record starter/ as it is now as the pristine starter")
    args = ap.parse_args()
    if args.update:
        print(f"wrote {write_record().relative_to(wbex.ROOT)}")
        return 0
    try:
        changed = differences()
    except PristineError as err:
        print(err, file=sys.stderr)
        return 1
    print("starter/ is the pristine starter" if not changed else
          "differs from the pristine starter: " + ", ".join(changed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
