"""Shared fixtures of the grader's unit tests: the import path of the repository,
a small points file, archives built in memory, made-up test outcomes."""
import io
import pathlib
import tarfile
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[2]

from wbcore import course as wbex  # noqa: E402
from wbcore import ctest_listing  # noqa: E402
from grader import points as gp  # noqa: E402
from grader import score as gs  # noqa: E402

# Real exercises (their pristine starter files exist), two of them with
# names where one is a prefix of the other.
EXERCISES = [wbex.Exercise("layout", "setRowReadCol"), wbex.Exercise("layout", "setRowReadColPad"),
             wbex.Exercise("reduction", "effectiveBandwidth"),
             wbex.Exercise("reduction", "reduceSmem")]

POINTS_TEXT = """\
[grading]
split = "proportional"

[kinds.shared_memory]
title = "uses shared memory"
label = "gpu"
match = "DeclaresItsShared"
requires = ["correctness"]
failure_note = "The exercise must use shared memory."

[kinds.correctness]
label = "gpu"

[kinds.performance]
label = "perf"
hidden = true

[kinds.host]
label = "host"

[layout.default]
correctness = 4
shared_memory = 2

[layout.setRowReadColPad]
correctness = 6
hidden = ["shared_memory"]

[layout.section]
performance = 3

[reduction.default]
correctness = 2

[reduction.effectiveBandwidth]
correctness = 0
host = 5
"""


def points(text=POINTS_TEXT, split=None):
    if split:
        text = text.replace('split = "proportional"', f'split = "{split}"')
    return gp.parse(text, "points.toml", EXERCISES)


def ctest_labels(section, kind, exercise=None, impl="starter"):
    """A test's CTest labels as the discovery scripts set them: section,
    implementation, kind, and `exercise=<name>` for a test of one exercise
    (the grader reads the exercise from that label, never from the name)."""
    found = (section, impl, kind)
    return found + (ctest_listing.exercise_label(exercise),) if exercise else found


def outcome(name, labels, result, output="", reason="", seconds=0.5):
    return gs.TestOutcome(name, tuple(labels), result, seconds, output, reason)


def make_zip(entries, symlinks=()):
    """A zip archive (bytes) of {name: bytes}, plus symbolic-link members."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
        for name, target in symlinks:
            info = zipfile.ZipInfo(name)
            info.external_attr = (0o120777 << 16)
            archive.writestr(info, target)
    return buffer.getvalue()


def make_tar(entries, mode="w:gz", links=()):
    """A tar archive (bytes) of {name: bytes}, plus (name, target, type) links."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode) as archive:
        for name, data in entries.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        for name, target, kind in links:
            info = tarfile.TarInfo(name)
            info.type = kind
            info.linkname = target
            archive.addfile(info)
    return buffer.getvalue()
