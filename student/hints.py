"""Hints that come in steps: `./workbook hint NAME` shows an exercise's first
hint, asking again shows the next, and once every step has been shown it says
so and repeats the last. `--step N` shows step N directly.

How far a student has got is kept per exercise in a small JSON file,
`.workbook-hints.json` in the repository root (git-ignored), mapping
"section/name" to the number of steps shown. It lives beside the sources
rather than in build/ because deleting the build folder is the usual cure for
a broken build and should not send a student back to hint 1; and it is a
dot-file next to `.workbook-pristine`, the other piece of per-checkout state.
The grader reads only exercise files, so it never sees it. The environment
variable WB_HINT_STATE names another file instead (the tests use a temporary
one).
"""
import json
import os
import pathlib
import sys

from wbcore import course as wbex
from wbcore import files as wbfiles
from student import i18n
from student import zh as wbzh
from student.i18n import t

STATE_ENV = "WB_HINT_STATE"
STATE_FILE = ".workbook-hints.json"


def state_path():
    override = os.environ.get(STATE_ENV)
    return pathlib.Path(override) if override else wbex.ROOT / STATE_FILE


def load_state(path):
    """{exercise key: steps shown}; an unreadable or damaged file counts as
    empty (it only holds hint positions, nothing worth failing over)."""
    try:
        data = json.loads(pathlib.Path(path).read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, int) and v > 0}


def save_state(path, state):
    path = pathlib.Path(path)
    try:
        wbfiles.atomic_write(path, json.dumps(state, indent=1, sort_keys=True) + "\n")
    except OSError as err:
        print(t("hint.record_failed", path=path, err=err.strerror), file=sys.stderr)


def choose_step(shown, count, step=None):
    """(step to show, steps shown afterwards, True when every step had been
    shown already). `shown` is how many steps were shown before; `step` is an
    explicit --step, 1-based."""
    if step is not None:
        return step, max(shown, step), False
    if shown >= count:
        return count, count, True
    return shown + 1, shown + 1, False


def show(e, step=None, path=None):
    """Print the next (or the given) hint step of exercise `e`; return an
    exit status."""
    path = state_path() if path is None else pathlib.Path(path)
    todo = wbex.first_todo(e.starter_file())
    where = f"{e.starter_file().relative_to(wbex.ROOT)}{':' + str(todo[0]) if todo else ''}"
    steps = wbzh.hints(e) if i18n.is_zh() else e.hints
    count = len(steps)
    task = wbzh.todo(e) if todo and i18n.is_zh() else None
    if count == 0:
        print(t("hint.where", key=e.key, where=where))
        print(t("hint.none_written", section=e.section))
        return 0
    if step is not None and not 1 <= step <= count:
        print(t("hint.step_range_many" if count > 1 else "hint.step_range_one",
                name=e.name, count=count), file=sys.stderr)
        return 2
    state = load_state(path)
    shown = min(state.get(e.key, 0), count)
    number, now_shown, repeat = choose_step(shown, count, step)
    if now_shown != state.get(e.key, 0):
        state[e.key] = now_shown
        save_state(path, state)
    note = ""
    if repeat:
        note = t("hint.note_only_one") if count == 1 else t("hint.note_all_shown")
    print(t("hint.header", key=e.key, where=where, number=number, count=count, note=note))
    if task:
        print(t("hint.task", task=task))
    print(steps[number - 1])
    if repeat and count > 1:
        print(t("hint.all_shown", count=count, name=e.name))
    elif number < count and step is None:
        print(t("hint.stuck", name=e.name, next=number + 1, count=count))
    elif number == count and count > 1 and step is None:
        print(t("hint.last"))
    return 0
