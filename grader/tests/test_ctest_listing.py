"""The CTest listing reader (wbcore/ctest_listing.py), on a sample of what
`ctest --show-only=json-v1` printed for a real build of the workbook
(ctest_listing_sample.json: a few tests of each sort, paths shortened): each
test's section, exercise and kind come from its labels, a section-wide test
has no exercise, and a label naming an exercise the list lacks is an error."""
import copy
import json
import pathlib
import unittest

from wbcore import course as wbex
from wbcore import ctest_listing

SAMPLE = pathlib.Path(__file__).resolve().parent / "ctest_listing_sample.json"
EXERCISES = wbex.exercises()


def sample():
    return json.loads(SAMPLE.read_text())


def described(document=None):
    tests = ctest_listing.parse(sample() if document is None else document, EXERCISES)
    return {t.name: t for t in tests}


def summary(test):
    return (test.section, test.exercise.key if test.exercise else None, test.kind)


class ListingTest(unittest.TestCase):
    def test_each_test_by_its_labels(self):
        tests = described()
        expected = {
            "solutions.layout.Layout/GpuLayout.SingleBlock/setRowReadColPad_square":
                ("layout", "layout/setRowReadColPad", "gpu"),
            "starter.reduction.Reduction/GpuReduction.RandomSizeSweep/reduceSmem":
                ("reduction", "reduction/reduceSmem", "gpu"),
            "starter.reduction.HostEffectiveBandwidth.TimeIsInMilliseconds":
                ("reduction", "reduction/effectiveBandwidth", "host"),
            "starter.transpose.sanitize.transposeSmemPad":
                ("transpose", "transpose/transposeSmemPad", "sanitize"),
            "mutant.layout.setRowReadColPad__never_terminates":
                ("layout", "layout/setRowReadColPad", "mutant"),
        }
        for name, found in expected.items():
            self.assertEqual(summary(tests[name]), found, name)

    def test_section_wide_and_sectionless_tests(self):
        tests = described()
        self.assertEqual(summary(tests["starter.layout.PerfLayout.SquareRowRowBeatsColCol"]),
                         ("layout", None, "perf"), "a performance comparison: no exercise")
        self.assertEqual(summary(tests["model.transpose.HostTransposeMaps.TileBytes"]),
                         ("transpose", None, "host"))
        self.assertEqual(summary(tests["workbook.course_is_complete"]), (None, None, "host"))

    def test_the_order_is_ctests(self):
        names = [t.name for t in ctest_listing.parse(sample(), EXERCISES)]
        self.assertEqual(names, [t["name"] for t in sample()["tests"]])

    def test_the_googletest_test_behind_a_ctest_test(self):
        tests = described()
        host = tests["starter.reduction.HostEffectiveBandwidth.TimeIsInMilliseconds"]
        self.assertEqual(host.gtest_name, "HostEffectiveBandwidth.TimeIsInMilliseconds")
        self.assertTrue(host.gtest_executable.endswith(
            "wb_starter_reduction_effectiveBandwidth_tests"))
        self.assertIsNone(tests["starter.transpose.sanitize.transposeSmemPad"].gtest_name)
        self.assertEqual(
            ctest_listing.gtest_filter([host, tests["starter.transpose.sanitize.transposeSmemPad"],
                                        host]),
            "HostEffectiveBandwidth.TimeIsInMilliseconds")

    def test_an_unknown_exercise_is_an_error(self):
        document = copy.deepcopy(sample())
        test = next(t for t in document["tests"] if t["name"].startswith("starter.reduction.Host"))
        labels = next(p for p in test["properties"] if p["name"] == "LABELS")
        labels["value"] = [v if not v.startswith("exercise=") else "exercise=effectiveLatency"
                           for v in labels["value"]]
        with self.assertRaisesRegex(ctest_listing.ListingError,
                                    f"{test['name']}.*effectiveLatency"):
            described(document)

    def test_an_exercise_of_another_section_is_an_error(self):
        document = copy.deepcopy(sample())
        test = next(t for t in document["tests"] if t["name"].startswith("starter.reduction.Host"))
        labels = next(p for p in test["properties"] if p["name"] == "LABELS")
        labels["value"] = [v if not v.startswith("exercise=") else "exercise=setRowReadCol"
                           for v in labels["value"]]
        with self.assertRaisesRegex(ctest_listing.ListingError, "section reduction"):
            described(document)

    def test_a_listing_that_is_not_json(self):
        with self.assertRaises(ctest_listing.ListingError):
            ctest_listing.parse("Test project /build\n", EXERCISES)

    def test_the_placeholder_label(self):
        document = {"tests": [{"name": "starter.layout.NOT_BUILT", "properties": [
            {"name": "LABELS", "value": ["layout", "starter", "placeholder"]}]}]}
        (test,) = ctest_listing.parse(document, EXERCISES)
        self.assertTrue(test.placeholder)
        self.assertEqual(summary(test), ("layout", None, None))


if __name__ == "__main__":
    unittest.main()
