"""What a batch writes in its output folder and how it names each
submission's folder: the file names of the gradebook, the batch record, the
reports and the Slurm state, the folders of the submissions (output_folder,
batch_entries), and the records read back (a graded submission's
results.json, the Slurm record). The batch, the Slurm path and the reports
all read these from here; this module imports no other part of the grader
but the report writer's file names."""
import hashlib
import json
import os
import pathlib
import re

from . import report as gr
from . import submission as gsub

# The reports of a graded class (grader/classreport.py, grader/similarity.py).
REPORT_HTML = "class-report.html"
REPORT_JSON = "class-report.json"
SIMILARITY_HTML = "similarity.html"
SIMILARITY_JSON = "similarity.json"
# The Slurm path's state folder and record (grader/slurm.py).
SLURM_STATE_DIR = "slurm"
SLURM_RECORD = "slurm.json"


class Entry(tuple):
    """One submission of a batch: the pair (folder, path), where folder is
    the name of its folder under OUT (output_folder), plus .name, the
    submission's own name, which its results and the gradebook show."""

    def __new__(cls, folder, path, name):
        entry = super().__new__(cls, (folder, path))
        entry.name = name
        return entry


# Characters a submission's folder name keeps as they are: letters and
# digits of any script, and _ . - + @. Never '~', which marks a mapped name.
FOLDER_UNSAFE = re.compile(r"[^\w.+@-]")
FOLDER_DIGEST = 16      # hex digits of the name's SHA-256 in a mapped folder name


def batch_outputs():
    """The names a batch (or its reports, or the Slurm path) writes in OUT
    beside the submissions' folders, lower case."""
    return {n.lower() for n in (gr.GRADEBOOK, gr.BATCH_RECORD, REPORT_HTML, REPORT_JSON,
                                SIMILARITY_HTML, SIMILARITY_JSON, SLURM_STATE_DIR,
                                SLURM_RECORD)}


def output_folder(name, reserved=None):
    """The folder under OUT of the submission called `name`: the name itself
    where it is a plain folder name (letters, digits, _ . - + @, not
    starting with '.' or '-', at most 200 bytes) that the batch does not
    write itself (gradebook.csv, slurm/...: batch_outputs(), in any case);
    else the name with every other character as '_', '~' and the first
    FOLDER_DIGEST hex digits of the name's SHA-256. A plain name has no '~',
    so it never meets a mapped one, and a name maps to the same folder in
    every run (resume)."""
    reserved = batch_outputs() if reserved is None else reserved
    raw = name.encode("utf-8", "surrogateescape")
    if (not FOLDER_UNSAFE.search(name) and not name.startswith((".", "-"))
            and name.lower() not in reserved and len(raw) <= 200):
        return name
    base = FOLDER_UNSAFE.sub("_", name).lstrip(".-")[:40] or "_"
    return f"{base}~{hashlib.sha256(raw).hexdigest()[:FOLDER_DIGEST]}"


def batch_entries(folder, out_dir):
    """[Entry(folder, path)] of the submissions in a folder: each directory
    or file, except hidden ones and the output folder itself. Two entries
    with one name (alice/ and alice.zip) keep their full names. Each gets a
    folder of its own under OUT (output_folder); the local batch, the Slurm
    path and the reports all list submissions here."""
    folder = pathlib.Path(folder)
    out_real = os.path.realpath(out_dir)
    paths = [p for p in sorted(folder.iterdir())
             if not p.name.startswith(".") and os.path.realpath(p) != out_real]
    names = [gsub.submission_name(p) for p in paths]
    names = [p.name if names.count(n) > 1 else n for n, p in zip(names, paths)]
    reserved = batch_outputs()
    entries, taken = [], set()
    for name, path in zip(names, paths):
        chosen = output_folder(name, reserved)
        # Two names whose digests agree (never met by chance) still get two folders.
        candidate, n = chosen, 1
        while candidate.lower() in taken:
            n += 1
            candidate = f"{chosen}~{n}"
        taken.add(candidate.lower())
        entries.append(Entry(candidate, path, name))
    return entries


def finished(out_dir, name):
    """The results.json of an already graded submission, or None. Those with
    status 'error' count as unfinished: the error may be the grader's."""
    doc = gr.load_results(pathlib.Path(out_dir) / name / gr.RESULTS)
    if doc is None or doc["extra_data"].get("status") == "error":
        return None
    return doc


def load_slurm_record(out):
    """OUT/slurm.json as the Slurm path wrote it, or None."""
    try:
        doc = json.loads((pathlib.Path(out) / SLURM_RECORD).read_text(encoding="utf-8"))
        return doc if isinstance(doc, dict) and isinstance(doc.get("rounds"), list) else None
    except (OSError, ValueError):
        return None
