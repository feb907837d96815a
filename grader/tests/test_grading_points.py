"""The points file: defaults, overrides, hidden checks, and errors that say
which key on which line is wrong."""
import unittest

from gradingtest import EXERCISES, POINTS_TEXT, points
from grader import points as gp


class PointsFileTest(unittest.TestCase):
    def checks(self, pts):
        return {(c.owner, c.kind): (c.points, c.hidden) for c in pts.checks}

    def test_defaults_overrides_and_section_checks(self):
        checks = self.checks(points())
        self.assertEqual(checks[("layout/setRowReadCol", "correctness")], (4.0, False))
        self.assertEqual(checks[("layout/setRowReadColPad", "correctness")], (6.0, False))
        self.assertEqual(checks[("layout/setRowReadColPad", "shared_memory")], (2.0, True))
        self.assertEqual(checks[("layout/setRowReadCol", "shared_memory")], (2.0, False))
        self.assertEqual(checks[("layout", "performance")], (3.0, True),
                         "kinds.performance is hidden")
        self.assertEqual(checks[("reduction/effectiveBandwidth", "host")], (5.0, False))
        self.assertNotIn(("reduction/effectiveBandwidth", "correctness"), checks,
                         "a check worth 0 points is no check")
        self.assertEqual(points().max_score, 4 + 2 + 6 + 2 + 3 + 5 + 2)

    def test_kind_matching_takes_the_first_kind_that_covers_a_test(self):
        pts = points()
        self.assertEqual(pts.kind_of(("layout", "starter", "gpu"),
                                     "starter.layout.X/GpuLayout.DeclaresItsSharedTile/a"),
                         "shared_memory")
        self.assertEqual(pts.kind_of(("gpu",), "starter.layout.X/GpuLayout.SingleBlock/a"),
                         "correctness")
        self.assertIsNone(pts.kind_of(("sanitize",), "starter.layout.sanitize.a"))

    def test_split_and_missing_policy(self):
        self.assertEqual(points().split, "proportional")
        self.assertEqual(points(split="all_or_nothing").split, "all_or_nothing")
        self.assertEqual(points().missing_exercise, "zero")

    def test_the_repository_points_file_is_valid(self):
        pts = gp.load()
        self.assertGreater(pts.max_score, 0)
        kinds = {c.kind for c in pts.checks}
        self.assertIn("shared_memory", kinds, "the shared-memory checks must carry weight")
        self.assertIn("random_sizes", kinds, "the random-size checks must carry weight")


class PointsErrorTest(unittest.TestCase):
    def error(self, text):
        with self.assertRaises(gp.PointsError) as caught:
            gp.parse(text, "points.toml", EXERCISES)
        return str(caught.exception)

    def test_unknown_kind_names_key_and_line(self):
        text = POINTS_TEXT.replace("correctness = 6", "corectness = 6")
        message = self.error(text)
        line = text.splitlines().index("corectness = 6") + 1
        self.assertIn(f"line {line}", message)
        self.assertIn("layout.setRowReadColPad.corectness", message)
        self.assertIn("not a kind of check", message)

    def test_negative_points(self):
        message = self.error(POINTS_TEXT.replace("host = 5", "host = -5"))
        self.assertIn("reduction.effectiveBandwidth.host", message)
        self.assertIn("must not be negative", message)

    def test_points_must_be_numbers(self):
        self.assertIn("must be a number", self.error(POINTS_TEXT.replace("host = 5", 'host = "5"')))
        self.assertIn("must be a number",
                      self.error(POINTS_TEXT.replace("host = 5", "host = true")))

    def test_unknown_exercise_and_section(self):
        message = self.error(POINTS_TEXT + "\n[layout.setRowReadRoww]\ncorrectness = 1\n")
        self.assertIn("layout.setRowReadRoww", message)
        self.assertIn("not an exercise of layout", message)
        self.assertIn(f"line {len(POINTS_TEXT.splitlines()) + 2}", message)
        self.assertIn("neither", self.error(POINTS_TEXT + "\n[scan.default]\ncorrectness = 1\n"))

    def test_syntax_error_has_its_line(self):
        message = self.error(POINTS_TEXT.replace("correctness = 4", "correctness = = 4"))
        self.assertIn("not valid TOML", message)
        self.assertIn("line", message)

    def test_bad_kind_definitions(self):
        self.assertIn("regular expression",
                      self.error(POINTS_TEXT.replace('match = "DeclaresItsShared"',
                                                     'match = "(("')))
        self.assertIn("kinds.shared_memory.requires",
                      self.error(POINTS_TEXT.replace('requires = ["correctness"]',
                                                     'requires = ["speed"]')))
        self.assertIn("kinds.correctness.label",
                      self.error(POINTS_TEXT.replace('[kinds.correctness]\nlabel = "gpu"',
                                                     '[kinds.correctness]\ntitle = "x"')))
        self.assertIn("split", self.error(POINTS_TEXT.replace('"proportional"', '"half"')))
        self.assertIn("kinds.correctness.split",
                      self.error(POINTS_TEXT.replace('[kinds.correctness]\nlabel = "gpu"',
                                                     '[kinds.correctness]\nlabel = "gpu"\n'
                                                     'split = "half"')))
        self.assertIn("hidden", self.error(POINTS_TEXT.replace('hidden = ["shared_memory"]',
                                                               'hidden = ["speed"]')))

    def test_missing_file(self):
        with self.assertRaisesRegex(gp.PointsError, "cannot read the points file"):
            gp.load("/nonexistent/points.toml", EXERCISES)


if __name__ == "__main__":
    unittest.main()
