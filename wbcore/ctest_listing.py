"""What CTest knows about each test of a build folder, from its labels.

The discovery scripts (cmake/WorkbookDiscover*.cmake, tests/mutants/)
label every test where they create it: its section (a section name of
workbook.toml), its kind (host, gpu, perf, profile, sanitize, mutant) and,
for a test of one exercise, `exercise=<name>`. Every tool reads that
mapping here, from `ctest --show-only=json-v1`, and never from a test's
name, so renaming a test cannot move it to another exercise, and the
grader, ./workbook and the checks cannot disagree about where it belongs.

  python3 -m wbcore.ctest_listing BUILD [--gtest-filter] [CTEST FILTERS ...]

prints the listed tests (name, section, exercise, kind), or with
--gtest-filter the GoogleTest filter that runs exactly their GoogleTest
tests in one process (for the tools that run a test executable directly).
"""
import dataclasses
import json
import subprocess
import sys

from wbcore import course as wbex

EXERCISE_LABEL = "exercise="
# A section-wide comparison's label for each exercise whose student kernel
# it times (WB_PERF_COMPARES, cmake/WorkbookDiscoverTests.cmake).
COMPARES_LABEL = "compares="
KINDS = ("host", "gpu", "perf", "profile", "sanitize", "method", "mutant")
# A failing stand-in the discovery scripts add for tests they could not list
# (an executable that was not built, a runner that cannot list its kernels).
PLACEHOLDER_LABEL = "placeholder"
# The run of an exercise's GPU tests in one process that each of them reads
# its verdict from (cmake/WorkbookDiscoverTests.cmake): a CTest fixture, not
# a check of its own, so no listing shows it and no result counts it.
BATCH_LABEL = "batch"
# The argument of wbcore/gtest_verdict.py that names the GoogleTest
# test a CTest test runs.
GTEST_ARGUMENT = "--test"
USAGE = "python3 -m wbcore.ctest_listing BUILD [--gtest-filter] [CTEST FILTERS ...]"


class ListingError(RuntimeError):
    """CTest could not list the tests, or a test's labels name an exercise
    workbook.toml does not list."""


@dataclasses.dataclass(frozen=True)
class ListedTest:
    name: str
    labels: tuple
    section: object    # str, or None for a test of no section (harness, bench, meta)
    exercise: object   # wbcore.course.Exercise, or None for a section-wide test
    kind: object       # one of KINDS, or None
    command: tuple = ()
    # Its 1-based place in CTest's own listing, the batch runs counted: the
    # number `ctest -I` selects it by under the same filters.
    ordinal: int = 0

    @property
    def placeholder(self):
        return PLACEHOLDER_LABEL in self.labels

    @property
    def gtest_name(self):
        """The GoogleTest test this CTest test runs (the verdict wrapper's
        --test argument), or None for a test that runs no GoogleTest test."""
        args = list(self.command)
        if GTEST_ARGUMENT in args[:-1]:
            return args[args.index(GTEST_ARGUMENT) + 1]
        return None

    @property
    def gtest_executable(self):
        """The GoogleTest executable the verdict wrapper runs (its command
        ends with `-- EXECUTABLE`), or None."""
        args = list(self.command)
        if self.gtest_name is not None and len(args) >= 2 and args[-2] == "--":
            return args[-1]
        return None


def exercise_label(name):
    """The label of the tests of exercise `name`; select them with
    `ctest -L '^exercise=NAME$'` (-L is a regular expression searched in
    each label, so unanchored it would also pick setRowReadColPad's tests
    for setRowReadCol)."""
    return f"{EXERCISE_LABEL}{name}"


def compares_label(name):
    """The label of the comparisons that time exercise `name`'s kernel."""
    return f"{COMPARES_LABEL}{name}"


def compared_keys(labels, all_exercises):
    """The keys ("section/name") of the exercises a comparison's
    `compares=` labels name, in its section."""
    section = section_of(labels, all_exercises)
    return [f"{section}/{label[len(COMPARES_LABEL):]}" for label in labels
            if label.startswith(COMPARES_LABEL)]


def section_of(labels, all_exercises):
    """The section a test's labels name, or None."""
    sections = {e.section for e in all_exercises}
    found = [label for label in labels if label in sections]
    return found[0] if found else None


def kind_of(labels):
    """The kind a test's labels name, or None."""
    return next((label for label in labels if label in KINDS), None)


def exercise_of(labels, all_exercises):
    """The Exercise a test's `exercise=` label names, or None for a
    section-wide test. An exercise that is not in the list (or not in the
    test's section) is a ListingError: the test would be worth nothing."""
    names = [label[len(EXERCISE_LABEL):] for label in labels if label.startswith(EXERCISE_LABEL)]
    if not names:
        return None
    if len(names) > 1:
        raise ListingError(f"labels {', '.join(labels)} name more than one exercise")
    section = section_of(labels, all_exercises)
    matches = [e for e in all_exercises
               if e.name == names[0] and (section is None or e.section == section)]
    if not matches:
        where = f" in section {section}" if section else ""
        raise ListingError(f"labels {', '.join(labels)}: workbook.toml lists no exercise "
                           f"'{names[0]}'{where}")
    if len(matches) > 1:
        raise ListingError(f"labels {', '.join(labels)}: exercise '{names[0]}' is in several "
                           "sections and the labels name none")
    return matches[0]


def describe(name, labels, all_exercises, command=(), ordinal=0):
    """A ListedTest from a test's name and labels."""
    labels = tuple(labels)
    try:
        exercise = exercise_of(labels, all_exercises)
    except ListingError as err:
        raise ListingError(f"test {name}: {err}") from None
    return ListedTest(name, labels, section_of(labels, all_exercises), exercise,
                      kind_of(labels), tuple(command), ordinal)


def parse(document, all_exercises=None):
    """[ListedTest] in CTest's order from the text (or the parsed object) of
    `ctest --show-only=json-v1`, the batch runs left out (BATCH_LABEL)."""
    all_exercises = wbex.exercises() if all_exercises is None else all_exercises
    if isinstance(document, (str, bytes)):
        try:
            document = json.loads(document)
        except ValueError as err:
            raise ListingError(f"ctest's test list is not JSON ({err})") from None
    if not isinstance(document, dict) or not isinstance(document.get("tests", []), list):
        raise ListingError("ctest's test list has no list of tests")
    tests = []
    for ordinal, test in enumerate(document.get("tests", []), 1):
        labels = ()
        for prop in test.get("properties", []):
            if prop.get("name") == "LABELS":
                labels = tuple(prop.get("value") or ())
        if BATCH_LABEL in labels:
            continue
        tests.append(describe(test.get("name", ""), labels, all_exercises,
                              test.get("command") or (), ordinal))
    return tests


def ctest_command(build, filters=()):
    """The command that lists the tests of `build` that `filters` (ctest's
    own -L, -LE, -R, -E, -I arguments) select."""
    return ["ctest", "--test-dir", str(build), "-N", "--show-only=json-v1", *map(str, filters)]


def list_tests(build, filters=(), all_exercises=None, run=None, timeout=600):
    """[ListedTest] of the tests of build folder `build` that `filters`
    select, in CTest's order. `run(command, timeout)` runs the listing and
    returns (exit status, standard output, standard error); by default a
    plain subprocess (the grader passes its own, which it can interrupt)."""
    command = ctest_command(build, filters)
    if run is None:
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        except (OSError, subprocess.TimeoutExpired) as err:
            raise ListingError(f"ctest could not list the tests: {err}") from None
        status, output, errors = done.returncode, done.stdout, done.stderr
    else:
        status, output, errors = run(command, timeout)
    if status != 0:
        raise ListingError(f"ctest could not list the tests:\n{(errors or output)[-3000:]}")
    return parse(output, all_exercises)


def by_name(tests):
    """{test name: ListedTest}."""
    return {t.name: t for t in tests}


def gtest_filter(tests):
    """A --gtest_filter value that runs exactly the GoogleTest tests of
    `tests` (each name escapes nothing: GoogleTest's names hold no ':' and
    its wildcards '*' and '?' never occur in them)."""
    return ":".join(dict.fromkeys(t.gtest_name for t in tests if t.gtest_name))


def main(argv):
    args = argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(f"usage: {USAGE}", file=sys.stderr)
        return 2
    build, rest = args[0], args[1:]
    as_filter = "--gtest-filter" in rest
    filters = [a for a in rest if a != "--gtest-filter"]
    try:
        tests = list_tests(build, filters)
    except (ListingError, wbex.CourseError) as err:
        print(f"ctest_listing: {err}", file=sys.stderr)
        return 1
    if as_filter:
        print(gtest_filter(tests))
        return 0
    for t in tests:
        print(f"{t.name}\t{t.section or '-'}\t{t.exercise.name if t.exercise else '-'}\t"
              f"{t.kind or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
