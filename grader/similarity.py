"""The similarity report: similarity.html and similarity.json beside the
gradebook. Evidence for a person to read, never a score change.

Per exercise, every pair of submissions' exercise files is compared with
copydetect (winnowing over pygments' tokens, which lexes CUDA; names become
one placeholder, so renamed variables still match). Code a student was
given does not count: the pristine starter's file is boilerplate. The
reference solution (solutions/<section>/<exercise>.cu) and the section's
worked examples (complete in the starter) are compared with each file on
their own, and a file that matches them is flagged once as such; their code
is boilerplate too for the pairs, so a class that hands in the reference
gives one flag per student, not one pair per two students.
"""
import copy
import dataclasses
import io
import itertools
import json
import pathlib
import re

from wbcore import course as wbex
from . import records
from . import report as gr
from . import submission as gsub
from .html_kit import Markup, escaped, html_page, html_table

SIMILARITY_HTML = records.SIMILARITY_HTML
SIMILARITY_JSON = records.SIMILARITY_JSON
# The noise threshold: matches shorter than this many characters of
# filtered code (each name one character) are ignored. copydetect's default.
NOISE_CHARS = 25
# A pair is listed when one file's own code (not given, not the reference)
# is at least this share of the other's. Chosen from the demo class
# (demo_class.py --class-size N --plant-copy; test_similarity.py and
# grade_class_report.py check it): the planted copy (renamed variables, two
# statements swapped) scores 0.82 and 1.0 against its original, while
# distinct work on one exercise (the other own kernels, mutants of the
# reference) stays at or below 0.16 in a class of 30. 0.6 leaves room on
# both sides: a copy edited further still shows, and two students who
# solved it the same plain way do not. (Mutants of one exercise, written by
# one author in one style, score up to 0.98 against each other: the demo
# class gives each exercise's mutants to one student at most.)
DEFAULT_THRESHOLD = 0.6
# A pair needs at least this much shared own code as well: two files whose
# only change to the reference is one identical line are 100% alike in
# that line, which is no evidence of copying.
MIN_SHARED_CHARS = 4 * NOISE_CHARS
CLOSEST_KEPT = 5            # highest pairs below the threshold, for context
# What the lexer is given, so that no file holds the report up: pygments'
# CUDA lexer takes time quadratic in a run of whitespace after a function's
# parameters (32,000 newlines: 42 s; a million, hours) and in a `#define`
# line of many `/**/` (60 KB: 19 s). copydetect drops comments and
# whitespace anyway, so the lexer is given the code without its comments
# (each one space) and with runs of whitespace cut to WHITESPACE_RUN_MAX
# characters; the report shows the file with those runs cut, the spans
# mapped back to it. Code past COMPARED_MAX_BYTES (the largest exercise file
# is under 3 KB) is not compared at all but listed for a person to read:
# comments or blank lines cannot push a copy there.
WHITESPACE_RUN_MAX = 64
COMPARED_MAX_BYTES = 16 << 10
EVIDENCE_NOTE = ("This report is evidence for a person to read, never a score change: the "
                 "grades in gradebook.csv do not depend on it. Similar code can have innocent "
                 "causes (the given starter, the book, an office hour); read the matching "
                 "spans before concluding anything.")


@dataclasses.dataclass
class Fingerprints:
    """A file's winnowed k-gram hashes minus the boilerplate's."""
    name: str
    text: str                    # as shown: the file, runs of whitespace cut
    fingerprint: object          # copydetect.CodeFingerprint, of the code lexed
    where: list = None           # where each character lexed is in `text`

    @property
    def empty(self):
        return not self.fingerprint.hashes


def _cut_runs(text):
    return re.sub(r"\s{%d,}" % (WHITESPACE_RUN_MAX + 1),
                  lambda m: m.group(0)[:WHITESPACE_RUN_MAX], text)


def lexable(text):
    """(code, where): `text` without its comments (each one space) and with
    runs of whitespace cut to WHITESPACE_RUN_MAX, in one pass; where[i] is
    the index in `text` of code[i]. String and character literals are kept
    as they are, so a "//" in one starts no comment."""
    out, where = [], []
    i, n = 0, len(text)
    run = 0

    def put(ch, at):
        nonlocal run
        if ch.isspace():
            run += 1
            if run > WHITESPACE_RUN_MAX:
                return
        else:
            run = 0
        out.append(ch)
        where.append(at)

    while i < n:
        ch = text[i]
        if ch == "/" and text.startswith("//", i):
            end = i + 2
            while end < n and not (text[end] == "\n" and text[end - 1] != "\\"):
                end += 1
            put(" ", i)
            i = end
        elif ch == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            put(" ", i)
            i = n if end < 0 else end + 2
        elif ch in "\"'":
            put(ch, i)
            i += 1
            while i < n and text[i] != ch and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n:
                    put(text[i], i)
                    i += 1
                put(text[i], i)
                i += 1
            if i < n and text[i] == ch:
                put(ch, i)
                i += 1
        else:
            put(ch, i)
            i += 1
    return "".join(out), where


def _fingerprint(name, text, key):
    """copydetect's fingerprint of the code of `text` (lexable). Every
    k-gram is kept (window 1):
    Python salts str hashes per process, so winnowing's choice of minima,
    and with it the scores, would change from run to run; exercise files
    are small, so keeping them all costs nothing."""
    from copydetect import CodeFingerprint
    shown = _cut_runs(text)
    code, where = lexable(shown)
    return Fingerprints(name, shown, CodeFingerprint(f"{key}.cu", NOISE_CHARS, 1,
                                                     language="cuda", fp=io.StringIO(code)),
                        where)


def _shown_spans(found, slices):
    """copydetect's [start, end) slices of the code lexed, as spans of the
    text shown."""
    if not len(slices):
        return []
    where, spans = found.where, []
    for start, end in zip(*slices):
        start, end = int(start), int(end)
        if end <= start or start >= len(where):
            continue
        spans.append([where[start], where[min(end, len(where)) - 1] + 1])
    return spans


def _without(found, boilerplate):
    """The fingerprints less the hashes of `boilerplate` (code given or
    known), without lexing again. Removed here rather than by copydetect,
    whose removal assumes each hash occurs once in a file."""
    from copydetect.utils import get_token_coverage
    fp = copy.copy(found.fingerprint)
    fp.hashes = fp.hashes - boilerplate
    fp.hash_idx = {h: i for h, i in fp.hash_idx.items() if h in fp.hashes}
    fp.token_coverage = get_token_coverage(fp.hash_idx, NOISE_CHARS, len(fp.filtered_code))
    return Fingerprints(found.name, found.text, fp, found.where)


def _hashes(text, key):
    return frozenset(_fingerprint("", text, key).fingerprint.hashes)


def compare(a, b):
    """(similarity, similarity of a, of b, shared chars, spans of a, spans of
    b): each file's share of its own code found in the other, the larger as
    the pair's; spans are [start, end) character ranges of the texts shown."""
    from copydetect import compare_files
    if a.empty or b.empty:
        return 0.0, 0.0, 0.0, 0, [], []
    shared, (sim_a, sim_b), (slices_a, slices_b) = compare_files(a.fingerprint, b.fingerprint)
    spans_a, spans_b = _shown_spans(a, slices_a), _shown_spans(b, slices_b)
    sim_a, sim_b = min(1.0, float(sim_a)), min(1.0, float(sim_b))
    return max(sim_a, sim_b), sim_a, sim_b, int(shared), spans_a, spans_b


def _text(data):
    return data.decode("utf-8", "replace") if isinstance(data, bytes) else str(data)


def read_class(folder, out_dir, names):
    """({submission: {exercise key: text}}, [{submission, reason}] of those
    whose files could not be read), read as the grader reads them."""
    files, skipped = {}, []
    all_exercises = wbex.exercises()
    if folder is None:
        return files, [{"submission": "(all)", "reason": "the submissions' folder is unknown "
                        "(batch.json and slurm.json name none, or one that is gone): give it "
                        "with --batch FOLDER"}]
    by_name = dict(records.batch_entries(folder, out_dir))
    for name in names:
        path = by_name.get(name)
        if path is None:
            skipped.append({"submission": name, "reason": f"not in {folder}"})
            continue
        try:
            sub = gsub.read(path, all_exercises)
        except gsub.SubmissionError as err:
            skipped.append({"submission": name, "reason": str(err)})
            continue
        files[name] = {k: _text(v) for k, v in sub.contents.items()}
    return files, skipped


def _references(exercise):
    """[(what, text)]: the reference solution and the section's worked
    examples other than the exercise itself."""
    found = []
    for label, path in [("the reference solution", exercise.solution_file())] + [
            (f"the worked example {w.key}", w.starter_file()) for w in wbex.exercises()
            if w.section == exercise.section and w.worked_example and w.key != exercise.key]:
        try:
            found.append((label, path.read_text(encoding="utf-8", errors="replace")))
        except OSError:
            pass
    return found


def similarity_data(files, skipped=(), threshold=DEFAULT_THRESHOLD):
    """Everything the similarity report shows, as plain data."""
    pairs, closest, flags, per_exercise = [], [], [], []
    skipped = list(skipped)
    for ex in wbex.exercises():
        if ex.worked_example:
            continue   # complete in the starter: nothing of the student's
        try:
            starter = ex.starter_file().read_text(encoding="utf-8", errors="replace")
        except OSError:
            starter = ""
        given = _hashes(starter, ex.key)
        references = [_without(_fingerprint(what, text, ex.key), given)
                      for what, text in _references(ex)]
        known = given.union(*(r.fingerprint.hashes for r in references))
        handed = []
        for name, mine in sorted(files.items()):
            if ex.key not in mine or mine[ex.key] == starter:
                continue
            size = len(lexable(_cut_runs(mine[ex.key]))[0].encode("utf-8"))
            if size > COMPARED_MAX_BYTES:
                skipped.append({"submission": name, "reason": (
                    f"{ex.key}: not compared, {size} bytes of code without comments (more "
                    f"than {COMPARED_MAX_BYTES >> 10} KiB, where an exercise file is a few "
                    f"KB): read it yourself")})
                continue
            handed.append(_fingerprint(name, mine[ex.key], ex.key))
        for mine in handed:
            # One flag per file: its closest match among the reference and
            # the worked examples (the reference first on a tie: it is
            # often close to the worked example it starts from). Either
            # file's share counts, as for pairs: the reference handed in
            # with as much unused code added is half the file's code, but
            # the whole of the reference's.
            alone = _without(mine, given)
            best = None
            for ref in references:
                share, _, _, shared, _, _ = compare(alone, ref)
                if share >= threshold and shared >= MIN_SHARED_CHARS and (
                        best is None or share > best["similarity"]):
                    best = {"exercise": ex.key, "submission": mine.name, "matches": ref.name,
                            "similarity": round(share, 4), "shared_chars": shared}
            if best:
                flags.append(best)
        own = [_without(mine, known) for mine in handed]
        compared = 0
        for a, b in itertools.combinations(own, 2):
            compared += 1
            sim, sim_a, sim_b, shared, spans_a, spans_b = compare(a, b)
            entry = {"exercise": ex.key, "a": a.name, "b": b.name, "similarity": round(sim, 4),
                     "similarity_a": round(sim_a, 4), "similarity_b": round(sim_b, 4),
                     "shared_chars": shared}
            if sim >= threshold and shared >= MIN_SHARED_CHARS:
                pairs.append(dict(entry, spans_a=spans_a, spans_b=spans_b,
                                  text_a=a.text, text_b=b.text))
            elif sim > 0:
                closest.append(entry)
        per_exercise.append({"exercise": ex.key, "files": len(handed), "pairs": compared})
    def order(p):
        return -p["similarity"], -p["shared_chars"], p["exercise"], p["a"], p["b"]
    pairs.sort(key=order)
    closest.sort(key=order)
    flags.sort(key=lambda f: (f["exercise"], f["submission"], f["matches"]))
    return {"title": "Similarity report", "note": EVIDENCE_NOTE, "threshold": threshold,
            "noise_chars": NOISE_CHARS, "min_shared_chars": MIN_SHARED_CHARS,
            "submissions": len(files), "exercises": per_exercise, "pairs": pairs,
            "closest_below_threshold": closest[:CLOSEST_KEPT], "reference_matches": flags,
            "skipped": list(skipped)}


def marked(text, spans):
    """The file's text, escaped, with the matching spans in <mark>."""
    out, at = [], 0
    for start, end in sorted(spans):
        start = max(start, at)
        if end <= start:
            continue
        out.append(escaped(text[at:start]) + "<mark>" + escaped(text[start:end]) + "</mark>")
        at = end
    out.append(escaped(text[at:]))
    return "".join(out)


def similarity_html(data):
    parts = [f"<h1>{escaped(data['title'])}</h1>",
             f'<p class="note"><strong>{escaped(data["note"])}</strong></p>',
             f"<p>{data['submissions']} submission(s) compared, exercise by exercise, with "
             "copydetect (winnowing over tokens, names replaced by one placeholder); the "
             "pristine starter's code does not count, nor does code of the reference solution "
             "or the worked examples (a file that matches those is listed once, below). Pairs "
             f"are listed from a similarity of {data['threshold']:g} (the share of one file's "
             f"own code found in the other) with at least {data['min_shared_chars']} "
             "characters of filtered code in common.</p>"]
    parts.append("<h2>Pairs above the threshold</h2>")
    if not data["pairs"]:
        parts.append("<p>None.</p>")
    else:
        parts.append(html_table(
            "Pairs of submissions, most similar first",
            ["#", "exercise", "submission", "submission", "similarity", "shared characters"],
            [[i + 1, p["exercise"], p["a"], p["b"], f"{p['similarity']:.2f}", p["shared_chars"]]
             for i, p in enumerate(data["pairs"])], numeric=(0, 4, 5)))
    for i, p in enumerate(data["pairs"]):
        parts.append(f"<h3>{i + 1}. {escaped(p['exercise'])}: {escaped(p['a'])} and "
                     f"{escaped(p['b'])} ({p['similarity']:.2f})</h3>")
        parts.append(html_table(
            f"Matching spans of {p['exercise']}, side by side",
            [f"{p['a']} ({p['similarity_a']:.2f} of its own code)",
             f"{p['b']} ({p['similarity_b']:.2f} of its own code)"],
            [[Markup(f"<pre>{marked(p['text_a'], p['spans_a'])}</pre>"),
              Markup(f"<pre>{marked(p['text_b'], p['spans_b'])}</pre>")]]))
    parts.append("<h2>Files that match the reference solution or a worked example</h2>")
    # One row per submission and kind of match: a class that hands in the
    # reference would otherwise fill a screen per student.
    grouped = {}
    for f in data["reference_matches"]:
        grouped.setdefault((f["submission"], f["matches"]), []).append(f)
    parts.append(html_table(
        "Exercise files whose own code is mostly the reference's or a worked example's, per "
        "submission (similarity in brackets)",
        ["submission", "matches", "files", "exercises"],
        [[name, what, len(found), ", ".join(f"{f['exercise']} ({f['similarity']:.2f})"
                                            for f in found)]
         for (name, what), found in sorted(grouped.items())], numeric=(2,))
        if grouped else "<p>None.</p>")
    if data["closest_below_threshold"]:
        parts.append(html_table(
            "The closest pairs below the threshold, for scale",
            ["exercise", "submission", "submission", "similarity", "shared characters"],
            [[p["exercise"], p["a"], p["b"], f"{p['similarity']:.2f}", p["shared_chars"]]
             for p in data["closest_below_threshold"]], numeric=(3, 4)))
    if data["skipped"]:
        parts.append(html_table("Submissions not compared", ["submission", "why"],
                                [[s["submission"], s["reason"]] for s in data["skipped"]]))
    return html_page(data["title"], "\n".join(parts))


def write_similarity_report(out_dir, folder, names, threshold=DEFAULT_THRESHOLD):
    """similarity.json and similarity.html in out_dir; returns the data."""
    files, skipped = read_class(pathlib.Path(folder) if folder else None, out_dir, names)
    data = similarity_data(files, skipped, threshold)
    gr.atomic_write(pathlib.Path(out_dir) / SIMILARITY_JSON, json.dumps(data, indent=2) + "\n")
    gr.atomic_write(pathlib.Path(out_dir) / SIMILARITY_HTML, similarity_html(data))
    return data
