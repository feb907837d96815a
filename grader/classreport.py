"""The instructor's view of a graded class: class-report.html and
class-report.json beside the gradebook.

Read from what grading wrote (each submission's results.json, batch.json),
never from a build, so `workbook grade --report OUT` draws it again for
results graded earlier. On it: the distribution of the total and of each
section's score, per exercise and per check the share of the class that
earned the points, the most frequent failure messages of each check grouped
by shape, the performance pairs' measured ratios against their limit and
the references' ratio, the submissions that did not build, were refused or
timed out, the tests reused and run, and the time the batch took.

The data are computed by pure functions (class_data) and drawn separately
(charts, class_html), so the unit tests check the numbers without a browser.

Pictures: matplotlib, because it is well kept, draws from the data the same
page as the JSON holds (no chart drawn by hand in SVG here), and writes SVG
that is the same byte for byte from run to run once svg.hashsalt is fixed
and the date left out; each picture is inlined in the page, so it opens
offline from a file, without a server.
"""
import collections
import html
import importlib.util
import io
import json
import pathlib
import re
import statistics
import sys
import time

from wbcore import course as wbex
from . import records
from . import report as gr
from .html_kit import Markup, escaped, html_page, html_table

ROOT = pathlib.Path(__file__).resolve().parents[1]
REPORT_HTML = records.REPORT_HTML
REPORT_JSON = records.REPORT_JSON
REQUIREMENTS = "grader/requirements.txt"
NEEDED_PACKAGES = ("matplotlib", "copydetect")
INSTALL_HINT = ("class report needs matplotlib and copydetect: "
                f"python3 -m pip install -r {REQUIREMENTS}")
# Statuses that mean the submission was not (all) graded from its own code.
PROBLEM_STATUSES = ("error", "empty", "refused", "compile-errors", "timeout")
MESSAGES_SHOWN = 5           # failure shapes listed per check
MOST_MISSED_SHOWN = 10       # checks in the overview of the most missed
MESSAGE_CHARS = 300          # of one failure message, as grouped and shown
SVG_SALT = "workbook-class-report"


class MissingPackages(RuntimeError):
    """matplotlib or copydetect is not installed for this interpreter."""


def missing_packages(names=NEEDED_PACKAGES):
    return [n for n in names if importlib.util.find_spec(n) is None]


def require_packages():
    """Raises MissingPackages, saying what to install, when a package the
    reports need is missing."""
    missing = missing_packages()
    if missing:
        raise MissingPackages(f"{INSTALL_HINT} ({', '.join(missing)} not installed for "
                              f"{sys.executable})")


# ---- reading the graded class ----------------------------------------------

def submissions_folder(out_dir):
    """The folder the class was graded from, as the batch (batch.json) or
    the Slurm submission (slurm.json) recorded it; None when unknown."""
    folder = gr.load_batch_record(out_dir).get("folder")
    if not folder:
        folder = (records.load_slurm_record(out_dir) or {}).get("folder")
    return pathlib.Path(folder) if folder and pathlib.Path(folder).is_dir() else None


def class_names(out_dir, folder=None):
    """The submissions' names: the batch's entries when its folder is known
    (so one with no results.json is listed as not graded), else OUT's
    sub-folders."""
    out_dir = pathlib.Path(out_dir)
    if folder is not None and pathlib.Path(folder).is_dir():
        return [name for name, _ in records.batch_entries(folder, out_dir)]
    if not out_dir.is_dir():
        return []
    return [p.name for p in sorted(out_dir.iterdir())
            if p.is_dir() and not p.name.startswith(".") and p.name != records.SLURM_STATE_DIR]


def load_class(out_dir, names):
    """([(name, results.json document)] of the graded, [names not graded]),
    read exactly as write_gradebook reads them."""
    graded, missing = [], []
    for name in names:
        doc = gr.load_results(pathlib.Path(out_dir) / name / gr.RESULTS)
        if doc is None:
            missing.append(name)
        else:
            graded.append((name, doc))
    return graded, missing


# ---- the numbers --------------------------------------------------------------

_SEED_RE = re.compile(r"\b(seed)\s*[=:]?\s*\d+", re.I)
_HEX_RE = re.compile(r"\b0[xX][0-9a-fA-F]+\b")
_NUMBER_RE = re.compile(r"(?<![A-Za-z_0-9.])[-+]?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?")


def message_shape(message):
    """A failure message with its numbers, hex values and seeds replaced by
    placeholders, so the same mistake at another size or seed groups with
    the first; digits inside names (sm_90, int2) stay."""
    text = " ".join(message.split())[:MESSAGE_CHARS]
    text = _SEED_RE.sub(r"\1 <seed>", text)
    text = _HEX_RE.sub("<hex>", text)
    return _NUMBER_RE.sub("<n>", text)


def failure_messages(doc, check_name):
    """The failure messages of one check of one submission: from what the
    grader recorded (extra_data.failures), else from the check's output."""
    recorded = doc["extra_data"].get("failures")
    if isinstance(recorded, dict) and isinstance(recorded.get(check_name), list):
        found = []
        for entry in recorded[check_name]:
            if not isinstance(entry, dict):
                continue
            lines = [str(x) for x in entry.get("lines") or [] if str(x).strip()]
            # GoogleTest's "file:line: Failure" says where, not what: the
            # lines after it say what.
            if len(lines) > 1 and lines[0].rstrip().endswith(": Failure"):
                lines = lines[1:]
            text = str(entry.get("reason") or "") or " / ".join(lines[:3])
            found.append(text or "(no message)")
        return found
    test = next((t for t in doc["tests"] if t.get("name") == check_name), None)
    first = next((line for line in (test or {}).get("output", "").splitlines() if line.strip()),
                 "")
    return [first] if first else ["(no message)"]


def _check_state(test):
    if test["score"] >= test["max_score"]:
        return "earned"
    return "not run" if test.get("output", "").startswith("NOT RUN") else "missed"


def _summary(values):
    if not values:
        return {"count": 0, "mean": None, "median": None, "min": None, "max": None}
    return {"count": len(values), "mean": round(statistics.fmean(values), 4),
            "median": round(statistics.median(values), 4), "min": min(values),
            "max": max(values)}


def _sections_of(doc):
    """{section: {score, max_score}} of a results.json, what is well formed of it."""
    found = doc["extra_data"].get("sections")
    return {s: v for s, v in found.items() if isinstance(v, dict)} if isinstance(found, dict) \
        else {}


def _book_exercises_of(doc):
    """The score of the book's end-of-chapter exercises as one set, or None
    where none of them was graded (the gradebook's book_exercises column)."""
    found = doc["extra_data"].get("book_exercises")
    if isinstance(found, dict) and found.get("max_score", 0) > 0:
        return found.get("score", 0)
    return None


def _submission_row(name, doc):
    extra = doc["extra_data"]
    return {"submission": name, "total": doc["score"], "max": extra.get("max_score", 0),
            "sections": {s: v.get("score", 0) for s, v in _sections_of(doc).items()},
            "book_exercises": _book_exercises_of(doc),
            "status": extra.get("status", "?"), "reason": extra.get("reason", ""),
            "seconds": doc.get("execution_time", 0),
            "tests_total": extra.get("tests_total", 0),
            "tests_reused": extra.get("tests_reused", 0)}


def _checks(graded):
    """Per exercise (or section-wide owner), its checks: points, the share
    of the class that earned them and the most frequent failure shapes."""
    # {check name: {submission: its results.json entry}}, in first-seen order.
    by_name = {}
    for name, doc in graded:
        for test in doc["tests"]:
            by_name.setdefault(test["name"], {})[name] = test
    order = list(by_name)
    count = len(graded)
    owners = collections.OrderedDict()
    for check_name in order:
        owner, _, title = check_name.partition(": ")
        tags = []
        states = collections.Counter()
        points = []
        shapes = collections.OrderedDict()
        worth = 0
        left_out = 0
        for name, doc in graded:
            test = by_name[check_name].get(name)
            if test is None:
                continue
            worth = max(worth, test["max_score"])
            tags = tags or list(test.get("tags", []))
            state = _check_state(test)
            if state == "missed" and _untouched(doc, owner):
                state = "not attempted"
            states[state] += 1
            points.append(test["score"])
            if state == "missed":
                # A submission graded 0 as a whole (empty, an error, a
                # timeout) carries its one reason in every check; it is
                # listed once among the problems, not in every check here.
                whole = f"NOT GRADED: {doc['extra_data'].get('reason', '')}"
                messages = [m for m in failure_messages(doc, check_name) if m != whole]
                if not messages:
                    left_out += 1
                for message in messages:
                    entry = shapes.setdefault(message_shape(message),
                                              {"count": 0, "submissions": [], "example": message})
                    entry["count"] += 1
                    if name not in entry["submissions"]:
                        entry["submissions"].append(name)
        top = sorted(shapes.items(), key=lambda kv: (-len(kv[1]["submissions"]), -kv[1]["count"]))
        check = {"name": check_name, "title": title, "section": tags[0] if tags else "",
                 "kind": tags[1] if len(tags) > 1 else "", "max": worth,
                 "earned": states["earned"], "missed": states["missed"],
                 "not_attempted": states["not attempted"], "not_run": states["not run"],
                 "share": round(states["earned"] / count, 4) if count else None,
                 "mean_points": round(statistics.fmean(points), 4) if points else None,
                 "failures": [{"shape": shape, "count": e["count"],
                               "submissions": len(e["submissions"]),
                               "example": e["example"][:MESSAGE_CHARS]}
                              for shape, e in top[:MESSAGES_SHOWN]],
                 "failure_shapes": len(shapes),
                 "missed_as_a_whole": left_out}
        owners.setdefault(owner, []).append(check)
    exercises = []
    for owner, checks in owners.items():
        full = 0
        for name, _ in graded:
            mine = [by_name[c["name"]][name] for c in checks if name in by_name[c["name"]]]
            full += bool(mine) and all(t["score"] >= t["max_score"] for t in mine)
        exercises.append({"owner": owner, "section": checks[0]["section"] or owner.split("/")[0],
                          "max": round(sum(c["max"] for c in checks), 4),
                          "full_marks": full,
                          "share": round(full / count, 4) if count else None,
                          "checks": checks})
    return exercises


def _untouched(doc, owner):
    """Whether a submission left a check's owner as the starter gives it: an
    exercise in its untouched_files, or a section all of whose TODO
    exercises are (its section-wide checks then ran only given code).
    Results from before untouched_files was recorded: never."""
    untouched = doc["extra_data"].get("untouched_files")
    if not isinstance(untouched, list):
        return False
    if "/" in owner:
        return owner in untouched
    to_do = [e.key for e in wbex.exercises() if e.section == owner and not e.worked_example]
    return bool(to_do) and all(key in untouched for key in to_do)


def _covers_section(doc, section):
    """Whether every exercise file of a section that a submission handed in
    is the reference solution (its perf ratios are then the references')."""
    keys = [e.key for e in wbex.exercises() if e.section == section]
    have = set(doc["extra_data"].get("reference_files") or [])
    return bool(keys) and all(k in have for k in keys)


def _perf(graded):
    """Per performance test: the class's measured ratios against the limit,
    and the references' ratio where the reference solutions are in the
    batch."""
    pairs = collections.OrderedDict()
    for name, doc in graded:
        for record in doc["extra_data"].get("perf") or []:
            if not isinstance(record, dict) or not record.get("test"):
                continue
            key = (record.get("section", ""), record["test"])
            pair = pairs.setdefault(key, {"section": key[0], "test": key[1], "need": None,
                                          "limit": None, "slow": None, "fast": None,
                                          "ratios": [], "not_measured": 0, "references": []})
            ratio = record.get("ratio")
            if not isinstance(ratio, (int, float)):
                pair["not_measured"] += 1
                continue
            for field in ("need", "limit", "slow", "fast"):
                pair[field] = pair[field] or record.get(field)
            entry = {"submission": name, "ratio": ratio, "result": record.get("result")}
            if _covers_section(doc, key[0]):
                pair["references"].append(entry)
            else:
                pair["ratios"].append(entry)
    found = []
    for pair in pairs.values():
        refs = pair.pop("references")
        if refs:
            pair["reference"] = {
                "ratio": round(statistics.median(r["ratio"] for r in refs), 4),
                "source": f"measured in this batch: the median of {len(refs)} submission(s) "
                          f"whose {pair['section']} files are the reference solutions",
                "measured_on": [r["submission"] for r in refs]}
        else:
            pair["reference"] = {
                "ratio": None,
                "source": "not measured: no submission of this batch hands in the reference "
                          f"solutions of {pair['section']} (grade the solutions with the class, "
                          "e.g. the demo class's 'solutions', to have them on the same GPU)"}
        pair["summary"] = _summary([r["ratio"] for r in pair["ratios"]])
        found.append(pair)
    return found


def class_data(out_dir, names, batch_record=None):
    """Everything the class report shows, as plain data (class-report.json)."""
    graded, not_graded = load_class(out_dir, names)
    rows = [_submission_row(name, doc) for name, doc in graded]
    sections = [s for s in wbex.section_names()
                if any(s in _sections_of(doc) for _, doc in graded)]
    max_score = max((r["max"] for r in rows), default=0)
    section_max = {}
    for _, doc in graded:
        for s, v in _sections_of(doc).items():
            section_max[s] = max(section_max.get(s, 0), v.get("max_score", 0))
    problems = [{"submission": r["submission"], "status": r["status"], "reason": r["reason"]}
                for r in rows if r["status"] in PROBLEM_STATUSES]
    problems += [{"submission": n, "status": "not graded",
                  "reason": "no valid results.json (the batch has not reached it, was "
                            "interrupted, or its grading failed)"} for n in not_graded]
    batch_record = batch_record or {"runs": []}
    runs = batch_record.get("runs", [])
    tests_total = sum(r["tests_total"] for r in rows)
    tests_reused = sum(r["tests_reused"] for r in rows)
    return {
        "title": "Class report",
        "submissions": rows,
        "not_graded": not_graded,
        "max_score": max_score,
        "totals": _summary([r["total"] for r in rows]),
        "sections": [{"section": s, "book": wbex.book_of(s), "worth": section_max.get(s, 0),
                      **_summary([r["sections"].get(s, 0) for r in rows])}
                     for s in sections],
        "book_exercises": any(r["book_exercises"] is not None for r in rows),
        "exercises": _checks(graded),
        "perf": _perf(graded),
        "problems": problems,
        "tests": {"total": tests_total, "reused": tests_reused, "run": tests_total - tests_reused},
        "time": {"grading_seconds": round(sum(r["seconds"] for r in rows), 1),
                 "batch_runs": runs,
                 "batch_wall_seconds": round(sum(r.get("seconds", 0) for r in runs), 1)},
    }


# ---- pictures -----------------------------------------------------------------

def _pyplot():
    """matplotlib's pyplot on the Agg backend (no display), set up so the
    same data give the same SVG bytes."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"svg.hashsalt": SVG_SALT, "svg.fonttype": "none",
                         "font.size": 9, "figure.dpi": 72})
    return plt


def svg_figure(fig, chart_id, title):
    """A figure as inline <svg>: no XML header, a <title> and role="img"
    for screen readers, and its ids prefixed with chart_id, so several
    pictures in one page never share an id."""
    plt = _pyplot()
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None}, bbox_inches="tight")
    plt.close(fig)
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg"):]
    ids = set(re.findall(r'\bid="([^"]+)"', svg))
    svg = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{chart_id}-{m.group(1)}"', svg)
    svg = re.sub(r'(url\(#|href="#)([^")]+)',
                 lambda m: m.group(1) + (f"{chart_id}-{m.group(2)}" if m.group(2) in ids
                                         else m.group(2)), svg)
    label = html.escape(title)
    return re.sub(r"<svg\b", f'<svg role="img" aria-labelledby="{chart_id}-title"', svg,
                  count=1).replace(">", f'><title id="{chart_id}-title">{label}</title>', 1)


def _histogram(ax, values, worth, xlabel):
    bins = max(1, min(20, int(worth) if worth >= 1 else 1))
    ax.hist(values, bins=bins, range=(0, worth or 1), color="#3b6ea8", edgecolor="white")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("submissions")
    ax.yaxis.get_major_locator().set_params(integer=True)


def charts(data):
    """{chart id: (title, inline svg)} of the class report's pictures."""
    plt = _pyplot()
    found = {}
    totals = [r["total"] for r in data["submissions"]]
    if totals:
        title = f"Total scores of {len(totals)} submissions (of {data['max_score']:g} points)"
        fig, ax = plt.subplots(figsize=(7, 2.8))
        _histogram(ax, totals, data["max_score"], "total points")
        ax.set_title(title)
        found["totals"] = (title, svg_figure(fig, "totals", title))
    if data["sections"] and totals:
        title = "Scores per section"
        columns = 3
        rows_ = (len(data["sections"]) + columns - 1) // columns
        fig, axes = plt.subplots(rows_, columns, figsize=(9, 2.4 * rows_), squeeze=False)
        for ax, s in zip(axes.flat, data["sections"]):
            values = [r["sections"].get(s["section"], 0) for r in data["submissions"]]
            _histogram(ax, values, s["worth"], "points")
            ax.set_title(f"{s['section']} (book {s['book']}, of {s['worth']:g})")
        for ax in list(axes.flat)[len(data["sections"]):]:
            ax.set_visible(False)
        fig.tight_layout()
        found["sections"] = (title, svg_figure(fig, "sections", title))
    exercises = [e for e in data["exercises"] if e["max"] > 0 and e["share"] is not None]
    if exercises:
        title = "Share of the class with full points, per exercise"
        fig, ax = plt.subplots(figsize=(7, 0.22 * len(exercises) + 0.8))
        labels = [e["owner"] for e in exercises][::-1]
        ax.barh(labels, [100 * e["share"] for e in exercises][::-1], color="#3b6ea8")
        ax.set_xlim(0, 100)
        ax.set_xlabel("% of submissions")
        ax.set_title(title)
        found["exercises"] = (title, svg_figure(fig, "exercises", title))
    measured = [p for p in data["perf"] if p["ratios"] or p["reference"]["ratio"] is not None]
    for i, pair in enumerate(measured):
        title = f"{pair['section']}: {pair['test']}, measured ratios"
        fig, ax = plt.subplots(figsize=(7, 1.9))
        ratios = [r["ratio"] for r in pair["ratios"]]
        ax.plot(ratios, [0] * len(ratios), "o", alpha=0.6, color="#3b6ea8", label="class")
        if pair["limit"] is not None:
            ax.axvline(pair["limit"], color="#b03030", linestyle="--",
                       label=f"limit ({pair['need']} {pair['limit']:g}x)")
        if pair["reference"]["ratio"] is not None:
            ax.axvline(pair["reference"]["ratio"], color="#2a8a2a",
                       label=f"reference {pair['reference']['ratio']:g}x")
        ax.set_yticks([])
        ax.set_xlabel(f"{pair['slow'] or 'slow'} time / {pair['fast'] or 'fast'} time")
        ax.set_title(title)
        ax.legend(loc="upper right", fontsize=7)
        found[f"perf{i}"] = (title, svg_figure(fig, f"perf{i}", title))
    return found


# ---- the page -----------------------------------------------------------------

def figure(found, chart_id):
    if chart_id not in found:
        return ""
    title, svg = found[chart_id]
    return f"<figure>\n{svg}\n<figcaption>{escaped(title)}</figcaption>\n</figure>"


def _word(text):
    """Text kept on one line in a table cell."""
    return Markup(f'<span class="word">{escaped(text)}</span>')


def _long_name(name):
    """A test's name (PerfLayout.SquarePaddingSpeedsUpColumnRead): one long
    word that may break only after its dots, not between any two letters."""
    head, dot, tail = name.rpartition(".")
    return Markup(f"{_word(head + dot)}<wbr>{_word(tail)}") if dot else _word(name)


def _points(value):
    return "" if value is None else f"{value:g}"


def _average(value):
    """A mean or a median on the page: two decimals are enough to read
    (class-report.json keeps four); scores themselves are shown as the
    gradebook shows them (_points)."""
    return "" if value is None else f"{round(value, 2):g}"


def _percent(share):
    return "" if share is None else f"{100 * share:.0f}%"


def class_html(data, found):
    """The class report's page from class_data and charts."""
    parts = [f"<h1>{escaped(data['title'])}</h1>"]
    t = data["totals"]
    parts.append(
        f"<p>{len(data['submissions'])} submission(s) graded"
        + (f", {len(data['not_graded'])} not graded" if data["not_graded"] else "")
        + (f"; total of {data['max_score']:g} points: mean {_average(t['mean'])}, median "
           f"{_average(t['median'])}, lowest {_points(t['min'])}, highest {_points(t['max'])}"
           if t["count"] else "") + ". The numbers are those of gradebook.csv; "
        "class-report.json holds them all.</p>")
    # The book's end-of-chapter exercises as one set, where any was graded:
    # the gradebook's column after the sections.
    book = data.get("book_exercises", False)
    parts.append("<h2>Scores</h2>")
    parts.append(figure(found, "totals"))
    parts.append(html_table(
        "Every submission, as in the gradebook",
        ["submission", "total", "max"] + [s["section"] for s in data["sections"]]
        + (["book_exercises"] if book else []) + ["status", "reason"],
        [[r["submission"], _points(r["total"]), _points(r["max"])]
         + [_points(r["sections"].get(s["section"])) for s in data["sections"]]
         + ([_points(r.get("book_exercises"))] if book else [])
         + [r["status"], r["reason"]] for r in data["submissions"]],
        numeric=range(1, 3 + len(data["sections"]) + (1 if book else 0))))
    parts.append("<h2>Sections</h2>")
    parts.append(figure(found, "sections"))
    parts.append(html_table(
        "Section scores", ["section", "book", "of", "mean", "median", "lowest", "highest"],
        [[s["section"], s["book"], _points(s["worth"]), _average(s["mean"]), _average(s["median"]),
          _points(s["min"]), _points(s["max"])] for s in data["sections"]],
        numeric=(2, 3, 4, 5, 6)))
    parts.append("<h2>Exercises and checks</h2>")
    parts.append(figure(found, "exercises"))
    rows = []
    for ex in data["exercises"]:
        for c in ex["checks"]:
            rows.append([ex["owner"], c["title"], _points(c["max"]),
                         f"{c['earned']} ({_percent(c['share'])})", c["missed"],
                         c["not_attempted"], c["not_run"], _average(c["mean_points"])])
    parts.append(html_table(
        "Per check: how many submissions earned its points, missed them, missed them with "
        "the exercise left as the starter gives it (not attempted), or did not run it (no "
        "GPU, or no permission for Nsight Compute)",
        ["exercise", "check", "points", "earned full points", "missed", "not attempted",
         "not run", "mean points"], rows, numeric=(2, 3, 4, 5, 6, 7)))
    parts.append("<h2>Most frequent failures</h2>")
    parts.append("<p>Failure messages grouped by shape: numbers, hex values and seeds are "
                 "replaced by &lt;n&gt;, &lt;hex&gt; and &lt;seed&gt;, so one mistake at several "
                 "sizes counts once per submission. Only attempts count: an exercise left "
                 "as the starter gives it fails on its TODO, which says nothing new. A "
                 "submission graded 0 as a whole (see "
                 "<a href=\"#problems\">Not built, refused, timed out</a>) counts as missing "
                 "every check, but its one reason is not repeated here.</p>")
    failing = [(ex, c) for ex in data["exercises"] for c in ex["checks"] if c["failures"]]
    if not failing:
        parts.append("<p>No check failed on an attempted exercise.</p>")
    else:
        # The overview answers "what does the class miss most, and why" at a
        # glance; each check's full grouping follows, folded, in book order.
        most = sorted(failing, key=lambda ec: (-ec[1]["missed"],
                                               -ec[1]["failures"][0]["submissions"]))
        parts.append(html_table(
            f"The {min(len(most), MOST_MISSED_SHOWN)} checks most often missed, with their most "
            "frequent message",
            ["check", "missed", "submissions with this message", "message (shape)"],
            [[c["name"], c["missed"], c["failures"][0]["submissions"],
              Markup(f"<code>{escaped(c['failures'][0]['shape'])}</code>")]
             for _, c in most[:MOST_MISSED_SHOWN]], numeric=(1, 2)))
        parts.append(f"<p>Every failing check ({len(failing)}), in book order; open one to "
                     "read its messages:</p>")
    for ex, c in failing:
        caption = (f"{c['name']}: {c['missed']} submission(s) missed it, "
                   f"{c['failure_shapes']} shape(s) of message")
        parts.append(f"<details>\n<summary>{escaped(caption)}</summary>\n" + html_table(
            caption,
            ["submissions", "failing tests", "message (shape)", "one example"],
            [[f["submissions"], f["count"], Markup(f"<code>{escaped(f['shape'])}</code>"),
              Markup(f"<pre>{escaped(f['example'])}</pre>")] for f in c["failures"]],
            numeric=(0, 1)) + "\n</details>")
    parts.append("<h2>Performance pairs</h2>")
    measured = [p for p in data["perf"] if p["ratios"] or p["reference"]["ratio"] is not None]
    unmeasured = len(data["perf"]) - len(measured)
    if not data["perf"]:
        parts.append("<p>No performance test in these results.</p>")
    elif not measured:
        parts.append(f"<p>None of the {len(data['perf'])} performance tests measured a ratio "
                     "(they did not run: graded without a GPU, or they failed before timing)."
                     "</p>")
    # Two pictures to a row where the page is wide enough: a class has
    # twenty-odd pairs, and one per row made the page a long scroll.
    pictures = [figure(found, f"perf{i}") for i, _ in enumerate(measured)]
    if any(pictures):
        parts.append('<div class="figures">\n' + "\n".join(p for p in pictures if p)
                     + "\n</div>")
    if measured:
        parts.append(html_table(
            "Measured ratios of the class against the limit, and the references' ratio",
            ["test", "limit", "measured", "median", "lowest", "highest", "not measured",
             "reference ratio"],
            [[_long_name(p["test"]),
              _word(f"{p['need']} {p['limit']:g}x") if p["limit"] is not None else "",
              p["summary"]["count"], _average(p["summary"]["median"]),
              _points(p["summary"]["min"]), _points(p["summary"]["max"]), p["not_measured"],
              _points(p["reference"]["ratio"]) if p["reference"]["ratio"] is not None
              else "not measured"]
             for p in measured], numeric=(2, 3, 4, 5, 6, 7)))
        parts.append("<p>The reference ratio is the median over this batch's submissions whose "
                     "files of that section are the reference solutions, timed on the same GPU "
                     "(class-report.json names them); \"not measured\" where the batch has none: "
                     "grade the solutions with the class to have it.</p>")
        if unmeasured:
            parts.append(f"<p>{unmeasured} more performance test(s) measured no ratio in any "
                         "submission.</p>")
    parts.append('<h2 id="problems">Not built, refused, timed out</h2>')
    parts.append(html_table("Submissions not graded (all) from their own code, with the reason",
                            ["submission", "status", "reason"],
                            [[p["submission"], p["status"], p["reason"]]
                             for p in data["problems"]])
                 if data["problems"] else "<p>None: every submission built and finished.</p>")
    parts.append("<h2>Tests and time</h2>")
    tm, ts = data["time"], data["tests"]
    runs = tm["batch_runs"]
    parts.append(
        f"<p>{ts['total']} test outcomes: {ts['run']} run, {ts['reused']} reused from earlier "
        f"identical runs (the result cache). Grading took {tm['grading_seconds']:g} s summed over "
        "the submissions" + (f"; the batch took {tm['batch_wall_seconds']:g} s of wall-clock "
                             f"time in {len(runs)} run(s)" if runs else
                             "; no batch.json, so the wall-clock time is unknown (graded before "
                             "it was recorded, or with Slurm)")
        + (f"; this report took {tm['report_seconds']:g} s" if "report_seconds" in tm else "")
        + ".</p>")
    return html_page(data["title"], "\n".join(p for p in parts if p))



# ---- writing both reports ---------------------------------------------------------

def write_class_report(out_dir, names, batch_record=None):
    """class-report.json and class-report.html in out_dir; returns the data."""
    started = time.monotonic()
    data = class_data(out_dir, names, batch_record)
    found = charts(data)
    data["time"]["report_seconds"] = round(time.monotonic() - started, 2)
    gr.atomic_write(pathlib.Path(out_dir) / REPORT_JSON, json.dumps(data, indent=2) + "\n")
    gr.atomic_write(pathlib.Path(out_dir) / REPORT_HTML, class_html(data, found))
    return data


def write_reports(out_dir, folder=None, threshold=None, log=print):
    """The class report and the similarity report of a graded class, from
    its results in out_dir and its submissions in `folder` (default: the one
    the batch recorded). When a package is missing, raises MissingPackages
    saying what to install, before writing anything."""
    require_packages()
    from . import similarity as gsim
    out_dir = pathlib.Path(out_dir)
    folder = pathlib.Path(folder) if folder is not None else submissions_folder(out_dir)
    names = class_names(out_dir, folder)
    started = time.monotonic()
    data = write_class_report(out_dir, names, gr.load_batch_record(out_dir))
    log(f"class report: {out_dir / REPORT_HTML} ({len(data['submissions'])} graded, "
        f"{time.monotonic() - started:.1f} s)")
    started = time.monotonic()
    found = gsim.write_similarity_report(
        out_dir, folder, names, gsim.DEFAULT_THRESHOLD if threshold is None else threshold)
    log(f"similarity report: {out_dir / gsim.SIMILARITY_HTML} ({len(found['pairs'])} pair(s) "
        f"above {found['threshold']:g}, {len(found['reference_matches'])} file(s) matching the "
        f"reference or a worked example; {time.monotonic() - started:.1f} s)")
    for skipped in found["skipped"][:3]:
        log(f"similarity report: not compared: {skipped['submission']}: {skipped['reason']}")
