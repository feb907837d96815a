"""Allocating points: tests to checks, proportional or all-or-nothing,
requirements, exercises that did not compile, tests that did not run."""
import unittest

from gradingtest import EXERCISES, POINTS_TEXT, ctest_labels, outcome, points
from grader import points as gp
from grader import score as gs

GPU = ctest_labels("layout", "gpu", "setRowReadCol")
SHARED = "starter.layout.Layout/GpuLayout.DeclaresItsSharedTile/setRowReadCol_{}"
CORRECT = "starter.layout.Layout/GpuLayout.SingleBlock/setRowReadCol_{}"


def by_check(results):
    return {(r.check.owner, r.check.kind): r for r in results}


class OwnerTest(unittest.TestCase):
    """A test counts for the exercise its `exercise=` label names, and for
    its section without one: the name is never read."""

    def score(self, outcomes):
        return by_check(gs.score(points(), outcomes, all_exercises=EXERCISES)[0])

    def test_the_label_decides_not_the_name(self):
        misleading = "starter.layout.Layout/GpuLayout.SingleBlock/setRowReadColPad_square"
        results = self.score([outcome(misleading, GPU, gs.PASSED)])
        self.assertEqual(results[("layout/setRowReadCol", "correctness")].score, 4)
        self.assertEqual(results[("layout/setRowReadColPad", "correctness")].state,
                         gs.STATE_NO_TESTS)

    def test_a_host_exercise_by_its_label(self):
        host = outcome("starter.reduction.HostEffectiveBandwidth.TimeIsInMilliseconds",
                       ctest_labels("reduction", "host", "effectiveBandwidth"), gs.PASSED)
        _, ungraded, _ = gs.score(points(), [host], all_exercises=EXERCISES)
        self.assertEqual(ungraded, [], "effectiveBandwidth's host tests are graded")

    def test_section_wide_test(self):
        wide = outcome("starter.layout.Layout/GpuLayout.SingleBlock/setRowReadCol_square",
                       ctest_labels("layout", "perf"), gs.PASSED)
        results = self.score([wide])
        self.assertEqual(results[("layout", "performance")].score, 3)


class AllocationTest(unittest.TestCase):
    def score(self, outcomes, split=None, **kwargs):
        return gs.score(points(split=split), outcomes, all_exercises=EXERCISES, **kwargs)

    def test_proportional_split(self):
        outcomes = [outcome(CORRECT.format(s), GPU, r) for s, r in
                    (("square", gs.PASSED), ("rect", gs.FAILED), ("tall", gs.PASSED),
                     ("wide", gs.PASSED))]
        result = by_check(self.score(outcomes)[0])[("layout/setRowReadCol", "correctness")]
        self.assertAlmostEqual(result.score, 4 * 3 / 4)
        self.assertEqual(result.state, gs.STATE_FAILED)

    def test_all_or_nothing_split(self):
        outcomes = [outcome(CORRECT.format("square"), GPU, gs.PASSED),
                    outcome(CORRECT.format("rect"), GPU, gs.FAILED)]
        result = by_check(self.score(outcomes, "all_or_nothing")[0])[
            ("layout/setRowReadCol", "correctness")]
        self.assertEqual(result.score, 0)
        outcomes[1].result = gs.PASSED
        result = by_check(self.score(outcomes, "all_or_nothing")[0])[
            ("layout/setRowReadCol", "correctness")]
        self.assertEqual(result.score, 4)

    def test_a_kind_with_its_own_split(self):
        # [kinds.correctness] split = "all_or_nothing" under a proportional
        # [grading]: the kind's own split decides, as for kinds.method.
        text = POINTS_TEXT.replace('[kinds.correctness]\nlabel = "gpu"',
                                   '[kinds.correctness]\nlabel = "gpu"\nsplit = "all_or_nothing"')
        self.assertNotEqual(text, POINTS_TEXT)
        outcomes = [outcome(CORRECT.format("square"), GPU, gs.PASSED),
                    outcome(CORRECT.format("rect"), GPU, gs.FAILED)]
        results = by_check(gs.score(gp.parse(text, "points.toml", EXERCISES), outcomes,
                                    all_exercises=EXERCISES)[0])
        self.assertEqual(results[("layout/setRowReadCol", "correctness")].score, 0)
        self.assertAlmostEqual(by_check(self.score(outcomes)[0])[
            ("layout/setRowReadCol", "correctness")].score, 2)

    def test_the_method_points_are_all_or_nothing(self):
        self.assertEqual(gp.load().kinds["method"].split, "all_or_nothing")

    def test_requirement_withholds_points_until_correct(self):
        outcomes = [outcome(CORRECT.format("square"), GPU, gs.FAILED),
                    outcome(SHARED.format("square"), GPU, gs.PASSED)]
        result = by_check(self.score(outcomes)[0])[("layout/setRowReadCol", "shared_memory")]
        self.assertEqual(result.score, 0)
        self.assertEqual(result.state, gs.STATE_NOT_AWARDED)
        self.assertIn("correctness", result.message)
        outcomes[0].result = gs.PASSED
        result = by_check(self.score(outcomes)[0])[("layout/setRowReadCol", "shared_memory")]
        self.assertEqual(result.score, 2)

    def test_not_run_is_not_failed(self):
        outcomes = [outcome(CORRECT.format("square"), GPU, gs.NOT_RUN, reason="no GPU here")]
        result = by_check(self.score(outcomes)[0])[("layout/setRowReadCol", "correctness")]
        self.assertEqual((result.score, result.state), (0, gs.STATE_NOT_RUN))
        self.assertIn("NOT RUN: no GPU here", result.message)

    def test_problem_scores_zero_with_its_message(self):
        outcomes = [outcome(CORRECT.format("square"), GPU, gs.PASSED)]
        problems = {"layout/setRowReadCol": gs.Problem("compile error", "COMPILE ERROR: x")}
        results = by_check(self.score(outcomes, problems=problems)[0])
        for kind in ("correctness", "shared_memory"):
            self.assertEqual(results[("layout/setRowReadCol", kind)].score, 0)
            self.assertEqual(results[("layout/setRowReadCol", kind)].message, "COMPILE ERROR: x")
        self.assertEqual(results[("layout", "performance")].state, gs.STATE_NO_TESTS)

    def test_unavailable_tests_and_points_without_tests(self):
        results, _, warnings = self.score(
            [], unavailable={("layout", "gpu"): "the layout tests could not be built"})
        results = by_check(results)
        self.assertEqual(results[("layout/setRowReadCol", "correctness")].state,
                         gs.STATE_NOT_GRADED)
        self.assertEqual(results[("reduction/reduceSmem", "correctness")].state, gs.STATE_NO_TESTS)
        self.assertTrue(any("reduction/reduceSmem correctness" in w for w in warnings))

    def test_section_wide_and_ungraded_tests(self):
        perf = ctest_labels("layout", "perf")
        outcomes = [outcome("starter.layout.PerfLayout.A", perf, gs.PASSED),
                    outcome("starter.layout.PerfLayout.B", perf, gs.FAILED),
                    outcome("starter.layout.sanitize.square_setRowReadCol",
                            ctest_labels("layout", "sanitize", "setRowReadCol"), gs.PASSED)]
        results, ungraded, _ = self.score(outcomes)
        self.assertAlmostEqual(by_check(results)[("layout", "performance")].score, 1.5)
        self.assertEqual(ungraded, ["starter.layout.sanitize.square_setRowReadCol"])

    def test_totals(self):
        outcomes = [outcome(CORRECT.format("square"), GPU, gs.PASSED)]
        results, _, _ = self.score(outcomes)
        grade = gs.Grade("alice", "ok", "", results)
        self.assertEqual(grade.score, 4)
        self.assertEqual(grade.max_score, points().max_score)
        self.assertEqual(grade.sections()["layout"], [4, 4 + 2 + 6 + 2 + 3])
        self.assertEqual(list(grade.sections()), ["layout", "reduction"])

    def test_zero_results(self):
        results = gs.zero_results(points(), gs.STATE_NOT_GRADED, "NOT GRADED: empty")
        self.assertEqual(len(results), len(points().checks))
        self.assertTrue(all(r.score == 0 and r.message == "NOT GRADED: empty" for r in results))


if __name__ == "__main__":
    unittest.main()
