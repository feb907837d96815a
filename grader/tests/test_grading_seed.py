"""One seed for every test of a grading, where the instructor gives one
(grader/grade.py resolve_seed): --seed, else WB_SEED; it reaches the tests
(WB_SEED), the Slurm tasks (--seed in their arguments), the result cache's
key, results.json and summary.txt. Without either, none is fixed: each test
draws its own, so no student can learn the inputs of the next grading."""
import contextlib
import io
import os
import pathlib
import tempfile
import unittest
from unittest import mock

from gradingtest import EXERCISES, points
from grader import cache as gc
from grader import report as gr
from grader import score as gs
from test_grading_slurm import grade_cli


class SeedTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.work = pathlib.Path(self._tmp.name) / "work"
        environ = {k: v for k, v in os.environ.items() if k != "WB_SEED"}
        self._env = mock.patch.dict(os.environ, environ, clear=True)
        self._env.start()

    def tearDown(self):
        self._env.stop()
        self._tmp.cleanup()

    def args(self, *extra):
        return grade_cli.parse_args(["sub", "--work", str(self.work), *extra])

    def test_no_seed_is_fixed_unless_one_is_given(self):
        args = self.args()
        self.assertIsNone(grade_cli.resolve_seed(args))
        self.assertNotIn("WB_SEED", os.environ)
        self.assertNotIn("--seed", " ".join(grade_cli.grading_argv(args)))
        self.assertFalse(self.work.exists())   # nothing kept for a later grading

    def test_the_option_then_the_environment_go_first(self):
        os.environ["WB_SEED"] = "17"
        self.assertEqual(grade_cli.resolve_seed(self.args()), 17)
        self.assertEqual(grade_cli.resolve_seed(self.args("--seed", "5")), 5)
        self.assertEqual(os.environ["WB_SEED"], "5")

    def test_bad_seeds_are_named(self):
        for bad in ("-1", "x", str(2 ** 64), "1.5"):
            with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()) as err:
                self.args("--seed", bad)
            self.assertIn("is not a seed", err.getvalue())
        os.environ["WB_SEED"] = "seven"
        with self.assertRaisesRegex(grade_cli.SeedError, "WB_SEED: 'seven' is not a seed"):
            grade_cli.resolve_seed(self.args())

    def test_the_slurm_tasks_get_the_same_seed(self):
        args = grade_cli.parse_args(["--batch", "c", "--out", "o", "--slurm",
                                     "--work", str(self.work), "--seed", "99"])
        seed = grade_cli.resolve_seed(args)
        again = grade_cli.parse_args(grade_cli.grading_argv(args) + ["--batch", "c", "--out", "o"])
        self.assertEqual(again.seed, seed)

    def test_the_cache_keys_on_the_seed(self):
        keys = {gc.context(True, "gpu", (), versions={}, environ={"WB_SEED": s})
                for s in ("1", "2")}
        self.assertEqual(len(keys), 2)

    def test_results_and_summary_name_the_seed(self):
        results, _, _ = gs.score(points(), [], all_exercises=EXERCISES)
        grade = gs.Grade("ann", "ok", "", results, seed=2 ** 63 + 1)
        doc = gr.results_document(grade, "proportional")
        # A string: JSON readers that hold numbers as doubles keep it whole.
        self.assertEqual(doc["extra_data"]["seed"], str(2 ** 63 + 1))
        self.assertEqual(gr.validate_results(doc), [])
        self.assertIn(f"WB_SEED={2 ** 63 + 1}", gr.summary_text(grade))


if __name__ == "__main__":
    unittest.main()
