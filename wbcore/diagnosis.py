"""Diagnosis by known mistakes: a student's kernel that fails exactly the
checks a mutant fails is probably wrong in the same way.

Each mutant's check (tests/checks/mutant_check.py) records what it
checked and what failed in <build>/mutants/<mutant>.json: its exercise,
its file, and two lists of check names,
  "test:<GoogleTest name>"            a correctness test (gpu, or host for
                                      a host exercise),
  "sanitize:<kernel id>:<tool>"       one compute-sanitizer tool on a kernel,
  "profile:<kernel id>"               the profile check of a kernel,
  "method:<fact>"                     one method fact of the exercise
                                      (workbook.toml; tests/checks/method_check.py),
  "method_counters:<kernel id>"       the technique's counters of a kernel
                                      under Nsight Compute (profile_check.py),
"checked" (every check the mutant's run reached: all of its exercise's
correctness tests, then the tools until one caught it) and "failed". The
student's results (CTest's JUnit report, with the build's listing) give
the same names (student_checks).

Matching (matches): a mutant with at least one failed check matches when
the student's run reached every check the mutant failed and, on the
checks both runs reached, the student's failed checks are exactly the
mutant's. A mutant caught by a hang, or whose tests all passed and that no
tool caught, never matches. Records are read from the build folder, then
from tests/mutants/failures.json (the records of a GPU run, collected with
`python3 -m wbcore.diagnosis --collect BUILD`), the build's winning.

  python3 -m wbcore.diagnosis --collect BUILD > tests/mutants/failures.json
"""
import json
import pathlib
import re
import sys

from wbcore import course as wbex
from wbcore import files as wbfiles

ROOT = wbex.ROOT
RECORDS = "mutants"           # the folder of records in a build folder
SHIPPED = ROOT / "tests" / "mutants" / "failures.json"
ERRATA = ROOT / "docs" / "errata.md"
TOOLS = ("memcheck", "racecheck", "synccheck", "initcheck")


def record_path(build, mutant):
    return pathlib.Path(build) / RECORDS / f"{mutant}.json"


def write_record(build, record):
    """Write one mutant's record (a dict with mutant, section, exercise,
    file, checked, failed, killed_by) into the build folder."""
    wbfiles.atomic_write(record_path(build, record["mutant"]),
                         json.dumps(record, indent=1, sort_keys=True) + "\n")


def load_records(build, shipped=SHIPPED):
    """{mutant: record}: the shipped records, overridden by the build's."""
    records = {}
    try:
        for r in json.loads(pathlib.Path(shipped).read_text()):
            records[r["mutant"]] = r
    except (OSError, ValueError, KeyError, TypeError):
        pass
    folder = pathlib.Path(build) / RECORDS
    if folder.is_dir():
        for path in sorted(folder.glob("*.json")):
            try:
                r = json.loads(path.read_text())
                records[r["mutant"]] = r
            except (OSError, ValueError, KeyError, TypeError):
                continue
    return records


def matches(student_checked, student_failed, mutant_checked, mutant_failed):
    """Whether a student's run fails like a mutant's (see the module's
    docstring). All four are sets of check names."""
    mutant_failed = set(mutant_failed)
    if not mutant_failed or not mutant_failed <= set(student_checked):
        return False
    common = set(student_checked) & set(mutant_checked)
    return set(student_failed) & common == mutant_failed & common


def sanitize_verdicts(output, kernel):
    """{tool: failed?} from a sanitize check's output on kernel section/id."""
    verdicts = {}
    for tool in TOOLS:
        if re.search(rf"^FAILED {re.escape(kernel)}: (?:{tool} reports|under {tool} )",
                     output, re.M):
            verdicts[tool] = True
        elif re.search(rf"^{re.escape(kernel)}: {tool} clean$", output, re.M):
            verdicts[tool] = False
    return verdicts


def method_facts(exercise):
    """The texts of an exercise's method facts ("needs SHFL"), as the
    method check names them."""
    from wbcore import method as wbmethod
    return [f.text for f in wbmethod.exercise_facts(list(exercise.method))]


def method_verdicts(output, exercise):
    """{"method:<fact>": failed?} from a failed method check's output, whose
    line `failed facts: A | B` names the facts that did not hold; {} when
    it names none (the module could not be read)."""
    m = re.search(r"^\s*failed facts: (.+)$", output, re.M)
    if not m:
        return {}
    failed = {f.strip() for f in m.group(1).split("|")}
    return {f"method:{fact}": fact in failed for fact in method_facts(exercise)}


def student_checks(results, listed, exercise):
    """(checked, failed): the check names of the exercise's results that
    passed or failed (skipped ones say nothing)."""
    checked, failed = set(), set()
    for r in results:
        t = listed.get(r.name)
        if t is None or t.exercise != exercise or r.result not in ("passed", "failed"):
            continue
        bad = r.result == "failed"
        if ".method_counters." in r.name:
            names = {f"method_counters:{r.name.rsplit('.method_counters.', 1)[-1]}": bad}
        elif t.kind in ("gpu", "host") and t.gtest_name:
            names = {f"test:{t.gtest_name}": bad}
        elif t.kind == "sanitize":
            kernel_id = r.name.rsplit(".sanitize.", 1)[-1]
            verdicts = sanitize_verdicts(r.output, f"{exercise.section}/{kernel_id}")
            names = {f"sanitize:{kernel_id}:{tool}": v for tool, v in verdicts.items()}
        elif t.kind == "profile":
            names = {f"profile:{r.name.rsplit('.profile.', 1)[-1]}": bad}
        elif t.kind == "method":
            names = method_verdicts(r.output, exercise) if r.result == "failed" else {
                f"method:{fact}": False for fact in method_facts(exercise)}
        else:
            continue
        for name, is_bad in names.items():
            checked.add(name)
            if is_bad:
                failed.add(name)
    return checked, failed


def bug_line(path):
    """The `// bug:` comment of a mutant file, its continuation lines joined."""
    try:
        lines = pathlib.Path(path).read_text().splitlines()
    except OSError:
        return ""
    words, inside = [], False
    for line in lines:
        if line.startswith("// bug:"):
            inside = True
            words.append(line[len("// bug:"):].strip())
        elif inside and line.startswith("//") and not line.startswith("// expect:"):
            words.append(line[2:].strip())
        else:
            break
    return " ".join(w for w in words if w)


def errata_entry(mutant_ref, errata=ERRATA):
    """The title of the docs/errata.md entry that names the mutant
    (<section>/<exercise>__<bug>), or None."""
    try:
        text = pathlib.Path(errata).read_text()
    except OSError:
        return None
    for block in re.split(r"^## ", text, flags=re.M)[1:]:
        title, _, body = block.partition("\n")
        if re.search(rf"\b{re.escape(mutant_ref)}\b", body):
            return title.strip()
    return None


def known_mistakes(results, listed, exercise, records):
    """The records (tests/mutants/failures.json) of the exercise's mutants
    whose failures the student's match, by name."""
    checked, failed = student_checks(results, listed, exercise)
    if not failed:
        return []
    found = []
    for name in sorted(records):
        r = records[name]
        if r.get("section") != exercise.section or r.get("exercise") != exercise.name:
            continue
        if matches(checked, failed, r.get("checked", ()), r.get("failed", ())):
            found.append(r)
    return found


def diagnose(results, listed, exercise, records, root=ROOT):
    """Lines for ./workbook check: each mutant of the exercise whose
    failures the student's match, with its errata entry where one names it."""
    lines = []
    for r in known_mistakes(results, listed, exercise, records):
        path = root / r["file"]
        bug = bug_line(path) or r.get("bug", "")
        lines.append(f"  {exercise.key} fails like a known mistake, {r['file']}: {bug}")
        entry = errata_entry(f"{exercise.section}/{path.stem}")
        if entry:
            lines.append(f"    errata: \"{entry}\" (docs/errata.md)")
    return lines


def collect(build):
    """The build's records as one JSON list (for tests/mutants/failures.json)."""
    records = load_records(build, shipped="/nonexistent")
    return json.dumps([records[k] for k in sorted(records)], indent=1, sort_keys=True)


def main(argv):
    if len(argv) == 3 and argv[1] == "--collect":
        print(collect(argv[2]))
        return 0
    print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
