#!/usr/bin/env python3
"""The class report and the similarity report, end to end: grades a small
made-up class with a planted copy (grader/demo_class.py --class-size 5
--plant-copy: five students with distinct work and a copier who took the
first one's reduceSmem, renamed its variables and swapped two statements;
one student's layout exercise does not compile), in batch mode, and checks:

  - the similarity report names the planted pair first, and no other pair
    is above the threshold;
  - the class page's table of submissions, and class-report.json, hold the
    gradebook's numbers; the student that does not compile is listed with
    its reason; the tests reused and run add up;
  - `workbook grade --report OUT` draws both reports again, the same (the
    pictures' SVG and the similarity scores are reproducible).

--open DIR instead opens DIR/class-report.html (written by a run with
--keep DIR) in a headless Chromium and checks that its pictures render:
the DOM after load holds them as <svg> elements with their titles, and a
screenshot is not blank. Exit 77 (skipped) where no browser is installed.

Without the GPU checks (--no-gpu, unless --gpu). The build folders in
--work are reused (those of grading.end_to_end). Exit 0 pass, 1 fail, 77
skipped (Python older than 3.11, matplotlib or copydetect missing, no
browser for --open).
"""
import argparse
import csv
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

if sys.version_info < (3, 11):
    print(f"skipped: the grader needs Python 3.11 or newer (tomllib); this is "
          f"{sys.version.split()[0]}")
    sys.exit(77)

ROOT = pathlib.Path(__file__).resolve().parents[2]
from grader import classreport as gcr  # noqa: E402
from grader import demo_class  # noqa: E402
from grader import report as gr  # noqa: E402
from grader import similarity as gsim  # noqa: E402
from wbcore import course as wbex  # noqa: E402
from classgrading import Checker, Tables, grade  # noqa: E402

STUDENTS = 5                     # and the copier: six submissions
BROKEN = ("student-03", "layout/setRowReadCol")
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
SUBMISSIONS_CAPTION = "Every submission, as in the gradebook"


def make_class(folder):
    names = demo_class.make_class(folder, STUDENTS, True, demo_class.available_mutants(),
                                  seed=5)
    victim = folder / BROKEN[0] / "starter" / f"{BROKEN[1]}.cu"
    victim.write_text(victim.read_text() + "\nthis line is not CUDA;\n")
    return names


def check_similarity(out, check):
    data = json.loads((out / gsim.SIMILARITY_JSON).read_text())
    pairs = [(p["exercise"], p["a"], p["b"], p["similarity"]) for p in data["pairs"]]
    print(f"similarity: pairs above {data['threshold']}: {pairs}; closest below: "
          f"{[(p['a'], p['b'], p['similarity']) for p in data['closest_below_threshold']]}")
    check.expect(pairs[:1] and pairs[0][:3] == ("reduction/reduceSmem", "copier", "student-01"),
                 f"the planted pair is not named first: {pairs}")
    check.expect(len(pairs) == 1, f"pairs other than the planted one are above the threshold: "
                 f"{pairs[1:]}")
    page = (out / gsim.SIMILARITY_HTML).read_text()
    body = page[page.index("<body>"):]
    check.expect("never a score change" in body[:800],
                 "the similarity page does not open by saying it is no score change")


def check_class_page(out, check):
    with open(out / gr.GRADEBOOK, newline="") as handle:
        book = list(csv.reader(handle))
    header, lines = book[0], {row[0]: row for row in book[1:]}
    data = json.loads((out / gcr.REPORT_JSON).read_text())
    parser = Tables()
    parser.feed((out / gcr.REPORT_HTML).read_text())
    table = parser.tables.get(SUBMISSIONS_CAPTION)
    if not check.expect(table, f"the class page has no table '{SUBMISSIONS_CAPTION}'"):
        return
    check.expect(table[0] == header, f"the page's columns {table[0]} are not the gradebook's "
                 f"{header}")
    on_page = {row[0]: row for row in table[1:]}
    check.expect(on_page == lines, "the page's submissions differ from the gradebook's:\n"
                 f"page {on_page}\ngradebook {lines}")
    for row in data["submissions"]:
        line = lines.get(row["submission"])
        check.expect(line is not None and f"{row['total']:g}" == line[1],
                     f"class-report.json: {row['submission']} total {row['total']:g}, "
                     f"gradebook {line[1] if line else None}")
    broken = [p for p in data["problems"] if p["submission"] == BROKEN[0]]
    check.expect(broken and broken[0]["status"] == "compile-errors"
                 and BROKEN[1] in broken[0]["reason"],
                 f"{BROKEN[0]} (does not compile) is not listed with its reason: "
                 f"{data['problems']}")
    tests = data["tests"]
    check.expect(tests["total"] > 0 and tests["run"] + tests["reused"] == tests["total"],
                 f"tests reused and run do not add up: {tests}")
    check.expect(data["time"]["batch_runs"], "the batch's wall-clock time is not recorded")
    check.expect(data["totals"]["count"] == len(lines), "the totals' count is not the class's")


def check_not_attempted(submissions, out, check):
    """Each results.json names the TODO exercises its submission left as the
    starter gives them (compared here byte for byte, independently), and the
    class report counts those checks as not attempted, apart from mistakes."""
    to_do = [e for e in wbex.exercises() if not e.worked_example]
    for folder in sorted(p for p in submissions.iterdir() if p.is_dir()):
        doc = json.loads((out / folder.name / gr.RESULTS).read_text())
        expected = sorted(
            e.key for e in to_do
            if not (folder / "starter" / f"{e.key}.cu").is_file()
            or (folder / "starter" / f"{e.key}.cu").read_bytes() == e.starter_file().read_bytes())
        check.expect(doc["extra_data"].get("untouched_files") == expected,
                     f"{folder.name}: untouched_files {doc['extra_data'].get('untouched_files')}, "
                     f"the folder says {expected}")
    data = json.loads((out / gcr.REPORT_JSON).read_text())
    checks = [c for ex in data["exercises"] for c in ex["checks"]]
    check.expect(any(c["not_attempted"] for c in checks),
                 "no check is counted as not attempted in a class that leaves exercises as given")
    for c in checks:
        counted = c["earned"] + c["missed"] + c["not_attempted"] + c["not_run"]
        check.expect(counted == data["totals"]["count"],
                     f"{c['name']}: earned, missed, not attempted and not run add up to "
                     f"{counted}, not the class's {data['totals']['count']}")


def stable(text):
    """A report without the seconds it took to draw itself."""
    return re.sub(r'this report took [0-9.]+ s|"report_seconds": [0-9.]+', "", text)


def check_report_again(out, check):
    before = {n: stable((out / n).read_text()) for n in (gcr.REPORT_HTML, gcr.REPORT_JSON,
                                                        gsim.SIMILARITY_HTML,
                                                        gsim.SIMILARITY_JSON)}
    cmd = [sys.executable, str(ROOT / "grader" / "grade.py"), "--report", str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    print(done.stdout + done.stderr)
    check.expect(done.returncode == 0, f"--report exited {done.returncode}")
    for name, text in before.items():
        check.expect(stable((out / name).read_text()) == text,
                     f"{name} differs when drawn again from the same results")


def find_browser():
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


def open_in_browser(folder):
    """Renders the class page in headless Chromium; 0 pass, 1 fail, 77 skip."""
    page = pathlib.Path(folder).resolve() / gcr.REPORT_HTML
    if not page.is_file():
        print(f"FAIL: {page} is missing (grading.class_report writes it)")
        return 1
    browser = find_browser()
    if browser is None:
        print(f"skipped: no browser to open the class page ({', '.join(BROWSERS)} not found; "
              "sudo apt-get install chromium)")
        return 77
    check = Checker()
    expected = len(re.findall(r"<svg\b", page.read_text()))
    with tempfile.TemporaryDirectory(prefix="wb-browser-") as profile:
        base = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                f"--user-data-dir={profile}", "--window-size=1200,2400"]
        env = dict(os.environ, HOME=profile)
        try:
            dom = subprocess.run(base + ["--dump-dom", page.as_uri()], capture_output=True,
                                 text=True, timeout=180, env=env)
            shot = pathlib.Path(profile) / "page.png"
            subprocess.run(base + [f"--screenshot={shot}", page.as_uri()], capture_output=True,
                           timeout=180, env=env)
        except subprocess.TimeoutExpired:
            print("FAIL: the browser did not finish within 180 s")
            return 1
        svgs = re.findall(r"<svg\b[^>]*>\s*<title\b[^>]*>([^<]*)</title>", dom.stdout)
        print(f"{browser}: the DOM after load holds {len(svgs)} titled <svg> of {expected}: "
              f"{svgs}")
        check.expect(expected >= 3 and len(svgs) == expected,
                     f"the browser's DOM holds {len(svgs)} titled pictures, the page {expected}")
        check.expect("<h1>Class report</h1>" in dom.stdout, "the DOM has no class report heading")
        colours = screenshot_colours(shot)
        print(f"screenshot: {colours} colours")
        check.expect(colours is None or colours > 8, f"the screenshot is blank ({colours} "
                     "colours)")
    return 1 if check.failures else 0


def screenshot_colours(path):
    """How many colours a screenshot has (None without Pillow to read it)."""
    try:
        from PIL import Image
    except ImportError:
        return None
    try:
        with Image.open(path) as image:
            return len(image.convert("RGB").getcolors(maxcolors=1 << 20) or [])
    except OSError:
        return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", type=pathlib.Path,
                    help="build folders for the grading builds (kept and reused)")
    ap.add_argument("--cmake-arg", action="append", default=[], metavar="ARG",
                    help="passed on to the grader (e.g. -DCMAKE_CUDA_ARCHITECTURES=90)")
    ap.add_argument("--gpu", action="store_true", help="run the GPU checks too (needs a GPU)")
    ap.add_argument("--keep", type=pathlib.Path,
                    help="copy the graded class (reports, gradebook, results) into this folder")
    ap.add_argument("--open", type=pathlib.Path, metavar="DIR",
                    help="only open DIR/class-report.html in a headless browser")
    args = ap.parse_args()
    if args.open is not None:
        return open_in_browser(args.open)
    if args.work is None:
        ap.error("--work is required (unless --open)")
    missing = gcr.missing_packages()
    if missing:
        print(f"skipped: {gcr.INSTALL_HINT} ({', '.join(missing)} missing for {sys.executable})")
        return 77
    check = Checker()
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="wb-class-report-"))
    try:
        submissions, out = tmp / "submissions", tmp / "graded"
        make_class(submissions)
        status, output = grade(submissions, out, args, "--jobs=1")
        check.expect(status == 0, f"grading the batch exited {status}")
        check.expect("class report: " in output and "similarity report: " in output,
                     "the batch did not say where its reports are")
        for name in (gcr.REPORT_HTML, gcr.REPORT_JSON, gsim.SIMILARITY_HTML,
                     gsim.SIMILARITY_JSON):
            check.expect((out / name).is_file(), f"{name} was not written")
        if not check.failures:
            check_similarity(out, check)
            check_class_page(out, check)
            check_not_attempted(submissions, out, check)
            check_report_again(out, check)
        if args.keep:
            shutil.rmtree(args.keep, ignore_errors=True)
            shutil.copytree(out, args.keep)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return check.exit_status("class report: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
