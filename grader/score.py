"""Scoring: the outcomes of a submission's tests, grouped into the checks of
grader/points.toml, each turned into points.

Pure functions of their inputs (no build, no files), so they are unit tested
on made-up outcomes.
"""
import collections
import dataclasses

from wbcore import course as wbex
from wbcore import ctest_listing

PASSED, FAILED, NOT_RUN = "passed", "failed", "not run"
# States of a graded check, worst first where summaries pick one.
STATE_PASSED = "passed"
STATE_FAILED = "failed"
STATE_NOT_RUN = "not run"
STATE_NOT_AWARDED = "not awarded"   # a required check of the exercise did not pass
STATE_NOT_GRADED = "not graded"     # the exercise or its tests could not be built
STATE_NO_TESTS = "no tests"         # points.toml gives points the suite cannot award


@dataclasses.dataclass
class TestOutcome:
    """One CTest test of the submission: what happened and why."""
    name: str
    labels: tuple
    result: str          # PASSED, FAILED or NOT_RUN
    seconds: float = 0.0
    output: str = ""
    reason: str = ""     # a timeout, a crash, or why it was not run
    reused: bool = False  # from the result cache: an identical earlier run, not run again

    @property
    def short_name(self):
        """The name without 'starter.<section>.'."""
        parts = self.name.split(".", 2)
        return parts[2] if len(parts) == 3 else self.name


@dataclasses.dataclass
class Problem:
    """Why an exercise was not graded from the student's file."""
    state: str      # "compile error", "link error", "refused", "missing"
    message: str


@dataclasses.dataclass
class CheckResult:
    check: object        # grading_points.Check
    title: str
    score: float
    state: str
    tests: list
    message: str = ""    # compiler errors, why nothing ran, an unmet requirement
    failure_note: str = ""

    @property
    def name(self):
        return f"{self.check.owner}: {self.title}"

    @property
    def max_score(self):
        return self.check.points

    @property
    def seconds(self):
        return sum(t.seconds for t in self.tests)


def _group(points, outcomes, all_exercises):
    """{(section, exercise or None, kind): [outcomes]} and the names of the
    tests no kind covers. A test's section and exercise are those its labels
    name (wbcore/ctest_listing.py), as the build's CTest listing gave them."""
    groups = collections.defaultdict(list)
    unkinded = []
    for t in outcomes:
        kind = points.kind_of(t.labels, t.name)
        if kind is None:
            unkinded.append(t.name)
            continue
        e = ctest_listing.exercise_of(t.labels, all_exercises)
        section = ctest_listing.section_of(t.labels, all_exercises) or ""
        groups[(section, e.name if e else None, kind)].append(t)
    return groups, unkinded


def _raw_score(points_worth, tests, split):
    passed = sum(1 for t in tests if t.result == PASSED)
    if split == "proportional":
        return points_worth * passed / len(tests)
    return points_worth if passed == len(tests) else 0.0


def _state(tests):
    results = collections.Counter(t.result for t in tests)
    if results[FAILED]:
        return STATE_FAILED
    if results[NOT_RUN]:
        return STATE_NOT_RUN
    return STATE_PASSED


def _not_run_message(tests):
    reasons = []
    for t in tests:
        if t.result == NOT_RUN and t.reason and t.reason not in reasons:
            reasons.append(t.reason)
    return "NOT RUN: " + ("; ".join(reasons[:3]) if reasons else "the tests were not run")


def score(points, outcomes, problems=None, unavailable=None, all_exercises=None):
    """Grade every check of `points` from test outcomes.

    problems: {exercise key: Problem} for exercises graded 0 (did not compile
    or link, or missing from the submission).
    unavailable: {(section, label): reason} where a test executable or the
    kernel runner could not be built or listed, so its tests are unknown.

    Returns (results, ungraded, warnings): a CheckResult per check in
    points order, the names of tests no check gives points, and warnings
    about the points file (points for checks with no test).
    """
    problems = problems or {}
    unavailable = unavailable or {}
    all_exercises = wbex.exercises() if all_exercises is None else all_exercises
    groups, ungraded = _group(points, outcomes, all_exercises)
    graded_keys = set()
    results = []
    warnings = []
    for check in points.checks:
        kind = points.kinds[check.kind]
        key = (check.section, check.exercise, check.kind)
        graded_keys.add(key)
        tests = groups.get(key, [])
        result = CheckResult(check, kind.title, 0.0, STATE_PASSED, tests,
                             failure_note=kind.failure_note)
        problem = problems.get(check.owner) if check.exercise else None
        why_unknown = unavailable.get((check.section, kind.label))
        if problem is not None:
            result.state, result.message = STATE_NOT_GRADED, problem.message
        elif not tests and why_unknown:
            result.state, result.message = STATE_NOT_GRADED, why_unknown
        elif not tests:
            result.state = STATE_NO_TESTS
            result.message = (f"no test of this kind exists for {check.owner}: "
                              "grader/points.toml gives points the suite cannot award")
            warnings.append(f"{points.path}: {check.owner} {check.kind} is worth {check.points:g} "
                            "points but the suite has no such test")
        else:
            result.state = _state(tests)
            result.score = _raw_score(check.points, tests,
                                      points.kinds[check.kind].split or points.split)
            if result.state == STATE_NOT_RUN:
                result.message = _not_run_message(tests)
        results.append(result)
    _apply_requirements(points, results, groups)
    for key, tests in groups.items():
        if key not in graded_keys:
            ungraded += [t.name for t in tests]
    return results, sorted(ungraded), warnings


def _apply_requirements(points, results, groups):
    """A kind with `requires` earns its points only when every test of the
    required kinds of the same exercise passed (a check that passes on an
    empty kernel, such as 'declares no static shared memory', must not pay
    for a kernel that does nothing)."""
    for result in results:
        check = result.check
        kind = points.kinds[check.kind]
        if not kind.requires or result.state in (STATE_NOT_GRADED, STATE_NO_TESTS):
            continue
        unmet = []
        for needed in kind.requires:
            tests = groups.get((check.section, check.exercise, needed), [])
            if any(t.result != PASSED for t in tests):
                unmet.append(points.kinds[needed].title)
        if unmet and result.score > 0:
            result.score = 0.0
            result.state = STATE_NOT_AWARDED
            result.message = ("NOT AWARDED: this check earns its points only once the "
                              f"exercise's {' and '.join(unmet)} checks all pass")


def zero_results(points, state, message):
    """Every check at 0 for the same reason (an empty submission, a
    submission that could not be read or built)."""
    return [CheckResult(c, points.kinds[c.kind].title, 0.0, state, [], message,
                        points.kinds[c.kind].failure_note) for c in points.checks]


# A submission's status in the gradebook, most serious first: the first that
# applies is the one reported.
STATUSES = ("error", "empty", "refused", "compile-errors", "timeout", "ok")


@dataclasses.dataclass
class Grade:
    """Everything graded about one submission."""
    submission: str
    status: str
    reason: str
    results: list                 # CheckResult per check of points.toml
    notes: list = dataclasses.field(default_factory=list)      # for the student
    gpu_missing: str = ""         # why GPU checks were not run, "" with a GPU
    seconds: float = 0.0
    ungraded: list = dataclasses.field(default_factory=list)   # tests worth no points
    warnings: list = dataclasses.field(default_factory=list)   # for the instructor
    tests_total: int = 0          # tests of the submission's suite
    tests_reused: int = 0         # of them, outcomes reused from identical earlier runs
    reference_files: list = dataclasses.field(default_factory=list)  # exercise keys whose
    # file is the reference solution, byte for byte (the class report's reference ratios)
    untouched_files: list = dataclasses.field(default_factory=list)  # TODO exercises left
    # as given (absent, or the pristine starter): the class report counts them apart
    seed: int = None              # of the tests' random inputs (WB_SEED), where one was fixed
    confined: bool = True         # student code compiled and run in the sandbox (not --unconfined)

    @property
    def score(self):
        return sum(r.score for r in self.results)

    @property
    def max_score(self):
        return sum(r.max_score for r in self.results)

    def sections(self):
        """{section: [score, max]} in book order."""
        totals = {}
        for r in self.results:
            entry = totals.setdefault(r.check.section, [0.0, 0.0])
            entry[0] += r.score
            entry[1] += r.max_score
        return {s: totals[s] for s in wbex.section_names() if s in totals}

    def book_exercises(self):
        """(score, max, numbers) over the checks of the exercises that answer
        the book's end-of-chapter exercises (workbook.toml's book_exercises),
        numbers ascending: an instructor who assigns the book's exercises
        reads them as one set. The same checks' points as in sections(),
        not added to the total; max is 0 where no such check was graded."""
        answering = {e.key: e.book_exercises for e in wbex.exercises() if e.book_exercises}
        score, worth, numbers = 0.0, 0.0, set()
        for r in self.results:
            if r.check.exercise and r.check.owner in answering:
                score += r.score
                worth += r.max_score
                numbers.update(answering[r.check.owner])
        return score, worth, sorted(numbers)
