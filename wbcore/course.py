"""The workbook's sections and exercises, as workbook.toml lists them.

workbook.toml is the one list: CMake (through `python3 -m wbcore.course
--cmake`), ./workbook, the grader, the checks and the docs read it here. An
exercise is one file, <section>/<name>.cu, in starter/ and solutions/;
tests/checks/course_check.py proves that the list, the contracts and both
folders agree. The grader reads the list of its own checkout, so a
submission can neither add nor drop an exercise.
"""
import dataclasses
import pathlib
import re
import sys

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10 and older
    try:
        import tomli as tomllib
    except ModuleNotFoundError:
        tomllib = None

ROOT = pathlib.Path(__file__).resolve().parents[1]
LIST_FILE = "workbook.toml"
TODO_RE = re.compile(r"TODO\(book ([0-9.]+)\)")
KINDS = ("kernel", "host")
# The book's chapter the workbook follows and the number of its
# end-of-chapter exercises: book_exercises holds numbers 1 to
# BOOK_EXERCISE_COUNT, and `book-5.N` names the exercise that answers N.
BOOK_CHAPTER = 5
BOOK_EXERCISE_COUNT = 15
BOOK_NAME_PREFIX = "book-"


class CourseError(RuntimeError):
    """workbook.toml cannot be read, or says something impossible."""


class BookExerciseError(LookupError):
    """A `book-5.N` name that no exercise answers: `number` is N, or None
    where the name is not book-5.N with N from 1 to BOOK_EXERCISE_COUNT;
    `mapped` the numbers that the workbook answers, ascending. The student
    loop tells it in its own language from these fields."""

    def __init__(self, name, number, mapped):
        self.name, self.number, self.mapped = name, number, tuple(mapped)
        listed = ", ".join(map(str, self.mapped))
        if number is None:
            text = (f"'{name}' names no end-of-chapter exercise: write "
                    f"{BOOK_NAME_PREFIX}{BOOK_CHAPTER}.N with N from 1 to "
                    f"{BOOK_EXERCISE_COUNT}; mapped: {listed}")
        else:
            text = f"{name} is not in the workbook yet; mapped: {listed}"
        super().__init__(text)


@dataclasses.dataclass(frozen=True)
class Section:
    name: str
    book: str
    title: str
    intro: str = ""


@dataclasses.dataclass(frozen=True)
class Exercise:
    section: str
    name: str
    book: str = dataclasses.field(default="", compare=False)
    kind: str = dataclasses.field(default="kernel", compare=False)
    worked_example: bool = dataclasses.field(default=False, compare=False)
    hints: tuple = dataclasses.field(default=(), compare=False)
    method: tuple = dataclasses.field(default=(), compare=False)
    # The book's end-of-chapter exercises (numbers) the exercise answers;
    # empty for an exercise that follows a section's text.
    book_exercises: tuple = dataclasses.field(default=(), compare=False)

    @property
    def key(self):
        return f"{self.section}/{self.name}"

    def starter_file(self, root=ROOT):
        return pathlib.Path(root) / "starter" / self.section / f"{self.name}.cu"

    def solution_file(self, root=ROOT):
        return pathlib.Path(root) / "solutions" / self.section / f"{self.name}.cu"


_cache = {}


def _load(root=ROOT):
    path = pathlib.Path(root) / LIST_FILE
    key = (str(path), path.stat().st_mtime_ns if path.exists() else None)
    if key in _cache:
        return _cache[key]
    if tomllib is None:
        raise CourseError(f"reading {LIST_FILE} needs Python 3.11 or newer, or the tomli "
                          f"package on older ones: sudo apt-get install python3-tomli "
                          f"(or python3 -m pip install tomli)")
    try:
        data = tomllib.loads(path.read_text())
    except OSError as err:
        raise CourseError(f"cannot read {path}: {err.strerror}")
    except tomllib.TOMLDecodeError as err:
        raise CourseError(f"{path}: {err}")
    sections, exercises_ = [], []
    names = set()
    claimed = {}   # book exercise number: the exercise that answers it
    for i, s in enumerate(data.get("section", [])):
        where = f"{LIST_FILE}: section {i + 1}"
        for field in ("name", "book", "title"):
            if not isinstance(s.get(field), str) or not s[field]:
                raise CourseError(f"{where} needs a {field} (a string)")
        unknown = set(s) - {"name", "book", "title", "intro"}
        if unknown:
            raise CourseError(f"{where} ({s['name']}): unknown key(s) {', '.join(sorted(unknown))}")
        sections.append(Section(s["name"], s["book"], s["title"], s.get("intro", "").strip()))
    section_names = [s.name for s in sections]
    if len(set(section_names)) != len(section_names):
        raise CourseError(f"{LIST_FILE}: a section is listed twice")
    for i, e in enumerate(data.get("exercise", [])):
        where = f"{LIST_FILE}: exercise {i + 1} ({e.get('name', '?')})"
        for field in ("section", "name", "book"):
            if not isinstance(e.get(field), str) or not e[field]:
                raise CourseError(f"{where} needs a {field} (a string)")
        unknown = set(e) - {"section", "name", "book", "kind", "worked_example", "hints",
                            "method", "book_exercises"}
        if unknown:
            raise CourseError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
        if e["section"] not in section_names:
            raise CourseError(f"{where}: section '{e['section']}' is not a [[section]] of the list")
        kind = e.get("kind", "kernel")
        if kind not in KINDS:
            raise CourseError(f"{where}: kind must be one of {', '.join(KINDS)}, not '{kind}'")
        hints = e.get("hints", [])
        if not isinstance(hints, list) or not all(isinstance(h, str) and h.strip() for h in hints):
            raise CourseError(f"{where}: hints must be a list of non-empty strings")
        facts = e.get("method", [])
        if facts and kind != "kernel":
            raise CourseError(f"{where}: method facts are read from a kernel's machine code; "
                              f"a {kind} exercise has none")
        if facts:
            # The vocabulary is wbcore/method.py's (imported only where a
            # list uses it).
            from wbcore import method as wbmethod
            try:
                wbmethod.parse_facts(facts)
            except ValueError as err:
                raise CourseError(f"{where}: method: {err}")
        numbers = e.get("book_exercises", [])
        if not isinstance(numbers, list) or not all(
                isinstance(n, int) and not isinstance(n, bool)
                and 1 <= n <= BOOK_EXERCISE_COUNT for n in numbers):
            raise CourseError(f"{where}: book_exercises must be a list of the book's exercise "
                              f"numbers (integers 1 to {BOOK_EXERCISE_COUNT}), e.g. [4, 7]")
        # book-5.N must name one exercise.
        for n in numbers:
            if n in claimed:
                raise CourseError(f"{where}: book exercise {n} is already answered by "
                                  f"{claimed[n]}; give it to one exercise only")
            claimed[n] = f"{e['section']}/{e['name']}"
        if (e["section"], e["name"]) in names:
            raise CourseError(f"{where}: listed twice")
        names.add((e["section"], e["name"]))
        exercises_.append(Exercise(e["section"], e["name"], e["book"], kind,
                                   bool(e.get("worked_example", False)),
                                   tuple(h.strip() for h in hints),
                                   tuple(f.strip() for f in facts), tuple(numbers)))
    # Section by section in the list's order, each in teaching order.
    exercises_.sort(key=lambda x: section_names.index(x.section))
    _cache.clear()
    _cache[key] = (tuple(sections), tuple(exercises_))
    return _cache[key]


def sections(root=ROOT):
    """Every section, in the book's order."""
    return list(_load(root)[0])


def section_names(root=ROOT):
    return [s.name for s in sections(root)]


def book_of(section, root=ROOT):
    """The book's section number of a section, or '?'."""
    return next((s.book for s in sections(root) if s.name == section), "?")


def exercises(root=ROOT):
    """Every exercise, section by section, each section in teaching order."""
    return list(_load(root)[1])


def book_exercise_map(root=ROOT):
    """{end-of-chapter exercise number: the Exercise that answers it}."""
    return {n: e for e in exercises(root) for n in e.book_exercises}


def book_ref(number):
    """How the book numbers an end-of-chapter exercise: 5.15."""
    return f"{BOOK_CHAPTER}.{number}"


def find_book_exercise(text, root=ROOT):
    """Resolve 'book-5.15' to the Exercise that answers the book's
    end-of-chapter exercise 15; raises BookExerciseError."""
    mapped = book_exercise_map(root)
    m = re.fullmatch(rf"{BOOK_NAME_PREFIX}{BOOK_CHAPTER}\.([0-9]+)", text)
    number = int(m.group(1)) if m else None
    if number is not None and not 1 <= number <= BOOK_EXERCISE_COUNT:
        number = None
    if number not in mapped:
        raise BookExerciseError(text, number, sorted(mapped))
    return mapped[number]


def find_exercise(text, root=ROOT):
    """Resolve 'setRowReadCol', 'layout/setRowReadCol' or 'book-5.2' to an
    Exercise. Raises LookupError with the choices when it is unknown or
    ambiguous (BookExerciseError for a book-5.N name)."""
    # No exercise is called book-...: names are C identifiers.
    if text.startswith(BOOK_NAME_PREFIX):
        return find_book_exercise(text, root)
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


def cmake_listing(root=ROOT):
    """The list as CMake statements: WB_SECTIONS, and per section
    WB_<section>_EXERCISES, WB_<section>_HOST_EXERCISES and
    WB_<section>_BOOK."""
    lines = ["# Written by wbcore/course.py from workbook.toml; do not edit."]
    secs = sections(root)
    lines.append("set(WB_SECTIONS " + " ".join(s.name for s in secs) + ")")
    for s in secs:
        exs = [e for e in exercises(root) if e.section == s.name]
        lines.append(f"set(WB_{s.name}_BOOK \"{s.book}\")")
        lines.append(f"set(WB_{s.name}_EXERCISES " + " ".join(e.name for e in exs) + ")")
        lines.append(f"set(WB_{s.name}_HOST_EXERCISES "
                     + " ".join(e.name for e in exs if e.kind == "host") + ")")
        lines.append(f"set(WB_{s.name}_WORKED_EXAMPLES "
                     + " ".join(e.name for e in exs if e.worked_example) + ")")
        lines.append(f"set(WB_{s.name}_METHOD_EXERCISES "
                     + " ".join(e.name for e in exs if e.method) + ")")
    return "\n".join(lines) + "\n"


def main(argv):
    if argv[1:] == ["--sections"]:
        print(" ".join(s.name for s in sections()))
        return 0
    if argv[1:2] == ["--cmake"] and len(argv) == 3:
        try:
            text = cmake_listing()
        except CourseError as err:
            print(f"workbook.toml: {err}", file=sys.stderr)
            return 1
        out = pathlib.Path(argv[2])
        if not out.exists() or out.read_text() != text:
            out.write_text(text)
        return 0
    print("usage: python3 -m wbcore.course --cmake OUTPUT.cmake | --sections", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
