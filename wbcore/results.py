"""Reading CTest's JUnit reports (ctest --output-junit FILE)."""
import collections
import dataclasses
import xml.etree.ElementTree as ET


@dataclasses.dataclass
class TestResult:
    name: str
    result: str  # "passed", "failed" or "skipped"
    seconds: float
    output: str


def load_junit(path):
    root = ET.parse(path).getroot()
    results = []
    for case in root.iter("testcase"):
        status = case.get("status", "")
        failure = case.find("failure")
        if failure is None:
            failure = case.find("error")
        skipped = case.find("skipped")
        if failure is not None:
            result = "failed"
        elif skipped is not None or status in ("notrun", "disabled"):
            result = "skipped"
        elif status in ("run", "passed", ""):
            result = "passed"
        else:
            result = "failed"
        out = case.find("system-out")
        text = (out.text or "") if out is not None else ""
        if failure is not None and failure.get("message"):
            text = failure.get("message") + "\n" + text
        results.append(TestResult(case.get("name", ""), result,
                                  float(case.get("time", 0) or 0), text))
    return results


def counts(results):
    return collections.Counter(r.result for r in results)
