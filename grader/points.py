"""grader/points.toml: which tests are which kind of check, and what each
check of each exercise is worth.

The file is read with Python's tomllib (Python 3.11 or newer). Every mistake
in it is reported as a PointsError naming the file, the line and the key, so
an instructor who edits it is never left with a traceback.
"""
import dataclasses
import pathlib
import re
import sys

from wbcore import course as wbex

try:
    import tomllib
except ModuleNotFoundError:  # Python older than 3.11
    tomllib = None

POINTS_FILE = wbex.ROOT / "grader" / "points.toml"
SPLITS = ("proportional", "all_or_nothing")
MISSING_POLICIES = ("zero", "starter")
# Gradescope's visibility values; hidden checks use after_due_date.
VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")
HIDDEN_VISIBILITY = "after_due_date"
DEFAULTS_TABLE = "default"   # a section's points for each of its exercises
SECTION_TABLE = "section"    # a section's points for tests that name no exercise
KIND_KEYS = {"title", "label", "match", "requires", "hidden", "failure_note", "split"}


class PointsError(ValueError):
    """A mistake in the points file; the message says where."""


def require_tomllib():
    if tomllib is None:
        raise PointsError("reading grader/points.toml needs Python 3.11 or newer (for tomllib); "
                          f"this is Python {sys.version.split()[0]}")


@dataclasses.dataclass(frozen=True)
class Kind:
    """A kind of check: the tests carrying `label` whose name matches `match`."""
    name: str
    title: str
    label: str
    match: object  # a compiled regular expression, or None for every test of the label
    requires: tuple
    hidden: bool
    failure_note: str
    split: object = None  # "proportional" or "all_or_nothing"; None: [grading]'s

    def covers(self, labels, test_name):
        return self.label in labels and (self.match is None or bool(self.match.search(test_name)))


@dataclasses.dataclass(frozen=True)
class Check:
    """One graded line: the tests of one kind of one exercise, or of a whole
    section when exercise is None (tests whose names name no exercise)."""
    section: str
    exercise: object  # str or None
    kind: str
    points: float
    hidden: bool

    @property
    def owner(self):
        """'layout/setRowReadCol', or 'layout' for section-wide checks."""
        return f"{self.section}/{self.exercise}" if self.exercise else self.section


@dataclasses.dataclass
class Points:
    path: pathlib.Path
    split: str
    missing_exercise: str
    kinds: dict      # name -> Kind, in the file's order (the first that covers a test wins)
    checks: list     # every Check worth more than 0 points, in file order of sections

    def kind_of(self, labels, test_name):
        """The name of the first kind that covers a test, or None."""
        for kind in self.kinds.values():
            if kind.covers(labels, test_name):
                return kind.name
        return None

    def check_for(self, section, exercise, kind):
        for check in self.checks:
            if (check.section, check.exercise, check.kind) == (section, exercise, kind):
                return check
        return None

    @property
    def max_score(self):
        return sum(c.points for c in self.checks)


def line_of(text, table, key=None):
    """The line number of `key` in `[table]` (or of the table's header when
    key is None), or None. tomllib reports no positions for valid TOML, so
    semantic errors find their line this way."""
    wanted = [part.strip().strip('"\'') for part in table.split(".")] if table else []
    current = []
    for number, line in enumerate(text.splitlines(), 1):
        header = re.match(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$", line)
        if header:
            current = [part.strip().strip('"\'') for part in header.group(1).split(".")]
            if key is None and current == wanted:
                return number
            continue
        if key is not None and current == wanted and re.match(
                rf"""^\s*["']?{re.escape(key)}["']?\s*=""", line):
            return number
    return None


class _Reader:
    """Validation helpers that know the file's text, for error positions."""

    def __init__(self, path, text):
        self.path = path
        self.text = text

    def fail(self, table, key, message):
        # The key's own line, else the header of the table it names, else
        # the header of the table it is in.
        line = (line_of(self.text, table, key)
                or line_of(self.text, ".".join(p for p in (table, key) if p))
                or line_of(self.text, table))
        where = f"{self.path}" + (f", line {line}" if line else "")
        name = ".".join(p for p in (table, key) if p)
        raise PointsError(f"{where}: {name}: {message}")

    def string(self, table, data, key, default=None, choices=None):
        value = data.get(key, default)
        if value is None:
            self.fail(table, key, "is required")
        if not isinstance(value, str):
            self.fail(table, key, f"must be a string, not {value!r}")
        if choices and value not in choices:
            self.fail(table, key, f"must be one of {', '.join(choices)}; got {value!r}")
        return value

    def number(self, table, key, value):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail(table, key, f"must be a number of points, not {value!r}")
        if value < 0:
            self.fail(table, key, f"must not be negative; got {value}")
        return float(value)

    def table(self, table, key, value):
        if not isinstance(value, dict):
            self.fail(table, key, f"must be a table ([{table}.{key}]), not {value!r}")
        return value


def _read_kinds(reader, data):
    raw = data.get("kinds")
    if not isinstance(raw, dict) or not raw:
        reader.fail("", "kinds", "the file must define at least one [kinds.<name>] table")
    kinds = {}
    for name, spec in raw.items():
        table = f"kinds.{name}"
        spec = reader.table("kinds", name, spec)
        for key in spec:
            if key not in KIND_KEYS:
                reader.fail(table, key, f"unknown key (known: {', '.join(sorted(KIND_KEYS))})")
        match = None
        if "match" in spec:
            pattern = reader.string(table, spec, "match")
            try:
                match = re.compile(pattern)
            except re.error as err:
                reader.fail(table, "match", f"is not a valid regular expression: {err}")
        requires = spec.get("requires", [])
        if not isinstance(requires, list) or not all(isinstance(r, str) for r in requires):
            reader.fail(table, "requires", "must be a list of kind names")
        hidden = spec.get("hidden", False)
        if not isinstance(hidden, bool):
            reader.fail(table, "hidden", "must be true or false")
        split = (reader.string(table, spec, "split", choices=SPLITS) if "split" in spec
                 else None)
        kinds[name] = Kind(name=name, title=reader.string(table, spec, "title", default=name),
                           label=reader.string(table, spec, "label"), match=match,
                           requires=tuple(requires), hidden=hidden,
                           failure_note=reader.string(table, spec, "failure_note", default=""),
                           split=split)
    for kind in kinds.values():
        for needed in kind.requires:
            if needed not in kinds or needed == kind.name:
                reader.fail(f"kinds.{kind.name}", "requires",
                            f"'{needed}' is not another kind (kinds: {', '.join(kinds)})")
    return kinds


def _read_hidden(reader, table, spec, kinds):
    """The kinds a points table marks hidden: `hidden = true` (all of them)
    or `hidden = ["kind", ...]`."""
    hidden = spec.get("hidden", [])
    if hidden is True:
        return set(kinds)
    if hidden is False:
        return set()
    if not isinstance(hidden, list) or not all(h in kinds for h in hidden):
        reader.fail(table, "hidden", "must be true, false or a list of kind names "
                    f"({', '.join(kinds)})")
    return set(hidden)


def _read_points_table(reader, table, spec, kinds):
    """{kind: points} and the hidden kinds of one points table."""
    points = {}
    for key, value in spec.items():
        if key == "hidden":
            continue
        if key not in kinds:
            reader.fail(table, key, f"is not a kind of check (kinds: {', '.join(kinds)})")
        points[key] = reader.number(table, key, value)
    return points, _read_hidden(reader, table, spec, kinds)


def _read_section(reader, section, spec, kinds, section_exercises, worked=()):
    spec = reader.table("", section, spec)
    defaults, default_hidden = _read_points_table(
        reader, f"{section}.{DEFAULTS_TABLE}",
        reader.table(section, DEFAULTS_TABLE, spec.get(DEFAULTS_TABLE, {})), kinds)
    checks = []
    for key in spec:
        if key not in (DEFAULTS_TABLE, SECTION_TABLE) and key not in section_exercises:
            reader.fail(section, key, f"is not an exercise of {section} (exercises: "
                        f"{', '.join(section_exercises)}; or '{DEFAULTS_TABLE}', "
                        f"'{SECTION_TABLE}')")
    for name in section_exercises:
        own, own_hidden = _read_points_table(
            reader, f"{section}.{name}", reader.table(section, name, spec.get(name, {})), kinds)
        if name in worked:
            # Complete in the starter (workbook.toml says so): nothing to earn.
            if any(points > 0 for points in own.values()):
                reader.fail(section, name, "is a worked example (workbook.toml): it earns "
                            "no points; remove its points")
            continue
        merged = dict(defaults, **own)
        hidden = own_hidden if "hidden" in spec.get(name, {}) else default_hidden
        for kind, points in merged.items():
            if points > 0:
                checks.append(Check(section, name, kind, points,
                                    kinds[kind].hidden or kind in hidden))
    wide, wide_hidden = _read_points_table(
        reader, f"{section}.{SECTION_TABLE}",
        reader.table(section, SECTION_TABLE, spec.get(SECTION_TABLE, {})), kinds)
    for kind, points in wide.items():
        if points > 0:
            checks.append(Check(section, None, kind, points,
                                kinds[kind].hidden or kind in wide_hidden))
    return checks


def parse(text, path=POINTS_FILE, all_exercises=None):
    """Points from the text of a points file. Raises PointsError."""
    require_tomllib()
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise PointsError(f"{path}: not valid TOML: {err}") from None
    reader = _Reader(path, text)
    all_exercises = wbex.exercises() if all_exercises is None else all_exercises
    by_section, worked = {}, set()
    for e in all_exercises:
        by_section.setdefault(e.section, []).append(e.name)
        if e.worked_example:
            worked.add(e.name)
    grading = reader.table("", "grading", data.get("grading", {}))
    for key in grading:
        if key not in ("split", "missing_exercise"):
            reader.fail("grading", key, "unknown key (known: split, missing_exercise)")
    split = reader.string("grading", grading, "split", default="proportional", choices=SPLITS)
    missing = reader.string("grading", grading, "missing_exercise", default="zero",
                            choices=MISSING_POLICIES)
    kinds = _read_kinds(reader, data)
    checks = []
    for key, spec in data.items():
        if key in ("grading", "kinds"):
            continue
        if key not in by_section:
            reader.fail("", key, "is neither [grading], [kinds.*] nor a section with exercises "
                        f"({', '.join(by_section)})")
        checks += _read_section(reader, key, spec, kinds, by_section[key], worked)
    return Points(path=pathlib.Path(path), split=split, missing_exercise=missing, kinds=kinds,
                  checks=checks)


def load(path=POINTS_FILE, all_exercises=None):
    path = pathlib.Path(path)
    require_tomllib()
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise PointsError(f"cannot read the points file {path}: {err.strerror}") from None
    return parse(text, path, all_exercises)
