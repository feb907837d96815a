"""How grade_forgeries.py picks and splits the forgeries: the ones the GPU
checks bear on, and one group per GPU where forgeries that name each other
stay together."""
import json
import pathlib
import subprocess
import sys
import tempfile
import unittest

import grade_forgeries as gf   # beside this file: unittest's discovery puts it on the path


def forgery(stem, expect, base="solutions", also=None):
    f = {"stem": stem, "expect": expect, "base": base}
    if also:
        f["also"] = also
    return f


SAMPLE = [
    forgery("a__refused", "refused open"),
    forgery("b__limit", "limit"),
    forgery("c__zero", "zero method"),
    forgery("d__below_c", "below c__zero"),
    forgery("e__same_as_base", "same-as base", base="starter"),
    forgery("f__below_base", "below base"),
    forgery("g__same_as_d", "same-as d__below_c"),
    forgery("h__refused_with_c", "refused x", also="c__zero"),
    forgery("i__zero", "zero correctness", base="starter"),
]


class ForgeryBatchOrder(unittest.TestCase):
    def test_the_batch_changes_base_once_and_grades_the_pristine_ones_last(self):
        # The batch grades in name order; a slot recompiles every exercise
        # file where the base changes, so each base's forgeries are together.
        names = sorted([gf.submission_name(f) for f in SAMPLE] + list(gf.PRISTINE.values()))
        bases = [next((f["base"] for f in SAMPLE if gf.submission_name(f) == n), "pristine")
                 for n in names]
        changes = sum(1 for a, b in zip(bases, bases[1:]) if a != b)
        self.assertEqual(changes, 2, list(zip(names, bases)))
        self.assertEqual(bases[-2:], ["pristine", "pristine"])


class ForgeryGroups(unittest.TestCase):
    def test_refused_and_limit_alone_need_no_gpu(self):
        stems = [f["stem"] for f in gf.needs_gpu(SAMPLE)]
        self.assertNotIn("a__refused", stems)
        self.assertNotIn("b__limit", stems)
        self.assertEqual(stems, ["c__zero", "d__below_c", "e__same_as_base", "f__below_base",
                                 "g__same_as_d", "i__zero"])

    def test_a_gpu_forgery_brings_what_it_names(self):
        picked = gf.needs_gpu([forgery("x__refused", "refused y"),
                               forgery("z__below_x", "below x__refused")])
        self.assertEqual([f["stem"] for f in picked], ["x__refused", "z__below_x"])

    def test_groups_cover_every_forgery_once_and_keep_links_together(self):
        for count in (1, 2, 3, 4, 9):
            groups = [[f["stem"] for f in gf.group(SAMPLE, i, count)] for i in range(count)]
            every = sorted(s for g in groups for s in g)
            self.assertEqual(every, sorted(f["stem"] for f in SAMPLE), count)
            linked = {"c__zero", "d__below_c", "g__same_as_d", "h__refused_with_c"}
            holding = [g for g in groups if linked & set(g)]
            self.assertEqual(len(holding), 1, f"{count} groups: {groups}")
            self.assertTrue(linked <= set(holding[0]))

    def test_groups_balance_their_cost(self):
        found = [forgery(f"s{i}", "below base") for i in range(4)] + \
                [forgery(f"t{i}", "same-as base", base="starter") for i in range(6)]
        groups = [gf.group(found, i, 2) for i in range(2)]
        costs = [sum(gf.BASE_COST[f["base"]] for f in g) for g in groups]
        self.assertLessEqual(abs(costs[0] - costs[1]), gf.BASE_COST["solutions"])


def results(folder, name, score, points):
    path = folder / name / "results.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"score": score, "extra_data": {"status": "ok"},
                                "tests": [{"name": n, "score": s} for n, s in points.items()]}))


class CompareWithAnotherRunsAlone(unittest.TestCase):
    """--compare: a group that grades nothing alone holds its pristine
    submissions to another group's grades alone."""

    def compare(self, batch, alone):
        return subprocess.run([sys.executable, str(pathlib.Path(gf.__file__)), "--work", "w",
                               "--compare", str(batch), str(alone)],
                              capture_output=True, text=True, timeout=60)

    def test_same_grades_pass_and_a_difference_fails(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            for run in ("alone", "same", "other"):
                results(tmp / run, "9-starter", 8, {"a: host": 8})
            results(tmp / "alone", "9-solutions", 450, {"a: host": 3, "b: correctness": 3})
            results(tmp / "same", "9-solutions", 450, {"a: host": 3, "b: correctness": 3})
            results(tmp / "other", "9-solutions", 447, {"a: host": 3, "b: correctness": 0})
            same = self.compare(tmp / "same", tmp / "alone")
            self.assertEqual(same.returncode, 0, same.stdout + same.stderr)
            other = self.compare(tmp / "other", tmp / "alone")
            self.assertEqual(other.returncode, 1, other.stdout + other.stderr)
            self.assertIn("9-solutions: 447 (ok) in the batch, 450 (ok) alone", other.stdout)
            self.assertIn("b: correctness earned 0 in the batch, 3 alone", other.stdout)
            nothing = self.compare(tmp / "same", tmp / "missing")
            self.assertEqual(nothing.returncode, 1, nothing.stdout + nothing.stderr)


    def test_the_pristine_solutions_must_earn_full_marks(self):
        import classgrading
        def doc(points):
            return {"tests": [{"name": n, "score": s, "max_score": 3} for n, s in points.items()]}
        full, short = classgrading.Checker(), classgrading.Checker()
        gf.solutions_at_full_marks({"9-solutions": doc({"a: host": 3, "b: perf": 3})}, full)
        gf.solutions_at_full_marks({"9-solutions": doc({"a: host": 3, "b: perf": 1.5})}, short)
        self.assertEqual(full.failures, [])
        self.assertEqual(len(short.failures), 1)
        self.assertIn("b: perf (1.5 of 3)", short.failures[0])


if __name__ == "__main__":
    unittest.main()
