"""The workbook's exercises as the repository defines them.

An exercise is one file, <section>/<name>.cu, present with the same name in
starter/ and solutions/. The list comes from solutions/ (the pristine
reference), so a submission can neither add nor drop one.
"""
import dataclasses
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
SECTIONS = ("layout", "reduction", "transpose")
BOOK_SECTIONS = {"layout": "5.2", "reduction": "5.3", "transpose": "5.4"}
TODO_RE = re.compile(r"TODO\(book ([0-9.]+)\)")


@dataclasses.dataclass(frozen=True)
class Exercise:
    section: str
    name: str

    @property
    def key(self):
        return f"{self.section}/{self.name}"

    def starter_file(self, root=ROOT):
        return pathlib.Path(root) / "starter" / self.section / f"{self.name}.cu"

    def solution_file(self, root=ROOT):
        return pathlib.Path(root) / "solutions" / self.section / f"{self.name}.cu"


def exercises(root=ROOT):
    """Every exercise, section by section, names sorted."""
    found = []
    for section in SECTIONS:
        folder = pathlib.Path(root) / "solutions" / section
        for path in sorted(folder.glob("*.cu")):
            found.append(Exercise(section, path.stem))
    return found


def find_exercise(text, root=ROOT):
    """Resolve 'setRowReadCol' or 'layout/setRowReadCol' to an Exercise.
    Raises LookupError with the choices when it is unknown or ambiguous."""
    all_ex = exercises(root)
    matches = [e for e in all_ex if text in (e.key, e.name)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise LookupError(f"no exercise called '{text}'. Exercises: "
                          + ", ".join(e.key for e in all_ex))
    raise LookupError(f"'{text}' is ambiguous: " + ", ".join(e.key for e in matches))


def first_todo(path):
    """(line number, text) of the first TODO in a starter file, or None."""
    try:
        for number, line in enumerate(pathlib.Path(path).read_text().splitlines(), 1):
            if TODO_RE.search(line):
                return number, line.strip().lstrip("/ ").strip()
    except OSError:
        return None
    return None


def hint(exercise, root=ROOT):
    """The hint for an exercise from starter/<section>/hints.md (the text
    under the heading '## <name>'), or None."""
    path = pathlib.Path(root) / "starter" / exercise.section / "hints.md"
    try:
        text = path.read_text()
    except OSError:
        return None
    m = re.search(rf"^## {re.escape(exercise.name)}\s*$(.*?)(?=^## |\Z)", text, re.S | re.M)
    return m.group(1).strip() if m else None


def exercise_of_test(test_name, all_ex):
    """The exercise a CTest test name belongs to, or None (section-wide
    tests such as performance comparisons). The exercise name must appear as
    a whole token of the name (tokens are separated by '/', '_' and '.'), or
    as a suite named after it with its kind in front (HostEffectiveBandwidth
    for effectiveBandwidth); the longest match wins, so setRowReadColPad is
    not mistaken for setRowReadCol."""
    parts = test_name.split(".", 2)
    if len(parts) < 3:
        return None
    section = parts[1]
    tokens = re.split(r"[/_.]", parts[2])
    suites = {re.sub(r"^(Host|Gpu|Perf)", "", t).lower() for t in tokens}
    best = None
    for e in all_ex:
        if e.section != section:
            continue
        if e.name in tokens or e.name.lower() in suites:
            if best is None or len(e.name) > len(best.name):
                best = e
    return best
