"""Where a student stands: per section, which exercises pass, which one is
next (file and line of its TODO), and a hint for it."""
import collections
import json
import pathlib
import shutil
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET

from wbcore import build as wbbuild
from wbcore import course as wbex
from wbcore import ctest_listing
from wbcore import diagnosis as wbdiag
from wbcore import files as wbfiles
from wbcore import results as wbres
from . import pristine as wbpristine
from . import summary as wbsummary

from student import hints as wbhints
from student import i18n
from student import zh as wbzh
from student.i18n import t

# The default preset's build folder: CMakePresets.json alone names it.
BUILD = wbbuild.preset_binary_dir("default")
# `./workbook check` runs an exercise's tests in two CTest runs, by kind:
# the correctness tests first, whose verdicts are shown as soon as they are
# in, then the checks of how the kernel works (compute-sanitizer, Nsight
# Compute, its machine code) and, with --perf, the timed comparisons.
CHECKED_FIRST = ("host", "gpu")
CHECKED_LATER = ("sanitize", "profile", "method")
# The CMake target of what the student's loop needs (CMakeLists.txt):
# ./workbook and ./workbook check build it alone; ./workbook test builds all.
STUDENT_TARGET = "wb_student"


def ordered_exercises():
    """Exercises in teaching order, as workbook.toml lists them."""
    return wbex.exercises()


def run_starter_tests(label_regex, include_perf, junit, host_only=False, skip=()):
    """CTest's results of the starter's tests; `skip`: exercises whose tests
    are not started."""
    cmd = ["ctest", "--test-dir", str(BUILD), "-j", "4", "-L", "starter",
           "--output-junit", str(junit)]
    if label_regex:
        cmd += ["-L", label_regex]
    if host_only:
        cmd += ["-L", "^host$"]
    # One -LE, a test excluded when any of its labels matches: a skipped
    # exercise's own tests and the comparisons that time its kernel.
    excluded = [] if include_perf else ["perf"]
    for e in skip:
        excluded += [ctest_listing.exercise_label(e.name), ctest_listing.compares_label(e.name)]
    if excluded:
        cmd += ["-LE", "^(" + "|".join(excluded) + ")$"]
    log = BUILD / "test.log"
    print(t("status.running", log=log), flush=True)
    with open(log, "w") as out:
        subprocess.run(cmd, cwd=wbex.ROOT, env=wbbuild.env_with_cuda(),
                       stdout=out, stderr=subprocess.STDOUT)
    try:
        return wbres.load_junit(junit)
    except (OSError, ET.ParseError):
        return []


def summarize(results, listed):
    """{exercise key: Counter of results} and the first failure per key;
    `listed` ({test name: ListedTest}, the build's CTest listing) says which
    exercise each test belongs to."""
    per = collections.defaultdict(collections.Counter)
    first_failure = {}
    for r in results:
        test = listed.get(r.name)
        e = test.exercise if test else None
        key = e.key if e else None
        per[key][r.result] += 1
        if r.result == "failed" and key not in first_failure:
            first_failure[key] = r
    return per, first_failure


def state_of(counter):
    if counter["failed"]:
        return "todo"
    if counter["passed"] and not counter["skipped"]:
        return "done"
    if counter["passed"] or counter["skipped"]:
        return "not run"
    return "no tests"


MARK = {"done": "[x]", "todo": "[ ]", "not run": "[?]", "no tests": "[ ]"}

# What the last runs found per exercise ({exercise key: state}): status and
# check update it, watch prints the progress line and picks the next
# exercise from it. Only a cache of results already shown to the student;
# deleting it loses nothing a run of ./workbook does not bring back.
STATES = BUILD / "progress.json"


def load_states(path=None):
    try:
        states = json.loads(pathlib.Path(path or STATES).read_text())
    except (OSError, ValueError):
        return {}
    return states if isinstance(states, dict) else {}


def record_states(results, listed, path=None, untouched=()):
    """Add the states these results give their exercises to the record (an
    exercise still as shipped, in `untouched`, is to do); returns the whole
    record."""
    per, _ = summarize(results, listed)
    states = load_states(path)
    states.update({key: state_of(counter) for key, counter in per.items() if key})
    states.update({e.key: "todo" for e in untouched})
    wbfiles.atomic_write(path or STATES, json.dumps(states, indent=1, sort_keys=True) + "\n")
    return states


def progress_line(states, width=30):
    """"progress: [#######-------] 12 of 42 exercises pass"."""
    exs = ordered_exercises()
    done = sum(1 for e in exs if states.get(e.key) == "done")
    filled = round(width * done / len(exs)) if exs else 0
    return t("progress.line", bar="#" * filled + "-" * (width - filled), done=done,
             total=len(exs))


def next_exercise(states, after=None):
    """The exercise to work on next: the first one after `after` (else from
    the start) in teaching order that does not pass yet, wrapping around;
    None when all pass."""
    exs = ordered_exercises()
    start = 0
    if after is not None:
        keys = [e.key for e in exs]
        start = keys.index(after.key) + 1 if after.key in keys else 0
    for e in exs[start:] + exs[:start]:
        if states.get(e.key) != "done":
            return e
    return None


def failure_excerpt(result, lines=6):
    """The first failure of a test, indented for the "Next" block."""
    return "\n".join("      " + line for line in wbsummary.failure_lines(result, lines))


def print_progress(results, listed, gpu_ok, gpu_note, untouched=()):
    per, first_failure = summarize(results, listed)
    untouched_keys = {e.key for e in untouched}
    # Next, in teaching order: the first exercise with a failing test or, where
    # its tests could not run (no GPU), with a TODO left in its file.
    nxt = None
    books = {s.name: s.book for s in wbex.sections()}
    for section in wbex.section_names():
        exs = [e for e in ordered_exercises() if e.section == section]
        if not exs:
            continue
        done = sum(1 for e in exs if state_of(per[e.key]) == "done")
        print(t("status.section", section=section, book=books[section], done=done,
                total=len(exs), title=wbzh.section_title(section) or section))
        for e in exs:
            st = "todo" if e.key in untouched_keys else state_of(per[e.key])
            todo = wbex.first_todo(e.starter_file())
            note = ""
            if e.key in untouched_keys:
                note = t("status.note_not_attempted")
            elif st == "not run":
                note = t("status.note_gpu_not_run")
            elif todo:
                note = t("status.note_todo_left")
            print(f"  {MARK[st]} {e.name}{book_note(e)}{note}")
            if nxt is None and (st == "todo" or (st == "not run" and todo)):
                nxt = e
    if not gpu_ok:
        print(t("status.no_gpu", note=i18n.output_line(gpu_note)))
    if nxt is None:
        print(t("status.all_pass"))
        return
    todo = wbex.first_todo(nxt.starter_file())
    where = f"{nxt.starter_file().relative_to(wbex.ROOT)}"
    if todo:
        where += f":{todo[0]}"
    print(t("status.next", key=nxt.key, where=where))
    task = wbzh.todo(nxt) if todo and i18n.is_zh() else None
    if task:
        print(t("status.task", task=task))
    if nxt.key in first_failure:
        r = first_failure[nxt.key]
        print(t("status.first_failing", name=r.name, excerpt=failure_excerpt(r)))
    steps = wbzh.hints(nxt) if i18n.is_zh() else nxt.hints
    h = steps[0] if steps else None
    if h:
        print(t("status.hint", text=h.replace("\n", "\n        ")))
        if len(steps) > 1:
            print(t("status.hint_count", count=len(steps), name=nxt.name))
    print(t("status.test_alone", name=nxt.name))


def book_note(e):
    """' (book exercise 5.4, 5.7)' after an exercise that answers the book's
    end-of-chapter exercises (`./workbook check book-5.4` names it), else ''."""
    if not e.book_exercises:
        return ""
    return t("status.note_book", refs=", ".join(wbex.book_ref(n) for n in e.book_exercises))


def status(include_perf=False):
    if not wbbuild.configure_and_build(quiet=True, target=STUDENT_TARGET, say=t):
        return 1
    gpu_ok, gpu_note = wbbuild.gpu_present()
    try:
        listed = ctest_listing.by_name(ctest_listing.list_tests(BUILD, ["-L", "^starter$"]))
    except ctest_listing.ListingError as err:
        print(t("cli.error", err=i18n.output_line(str(err))), file=sys.stderr)
        return 1
    # An exercise still as shipped fails its tests (the starter check holds
    # it to that): they are not started, which on a GPU saves most of a
    # first run (each sanitizer run of a TODO kernel takes seconds), and it
    # is shown as not attempted.
    untouched = wbpristine.untouched_exercises()
    results = run_starter_tests(None, include_perf, BUILD / "progress.xml", host_only=not gpu_ok,
                                skip=untouched)
    skipped = {e.key for e in untouched}
    if not gpu_ok:
        # Without a GPU each GPU check would start only to report itself
        # skipped: some 800 processes, a fifth of a first run on two cores.
        # They are not started, and count as skipped, with the reason.
        ran = {r.name for r in results}
        results += [wbres.TestResult(name, "skipped", 0.0, f"not run: {gpu_note}")
                    for name, t in listed.items()
                    if name not in ran and t.kind != "host" and (include_perf or t.kind != "perf")
                    and not (t.exercise and t.exercise.key in skipped)]
    record_states(results, listed, untouched=untouched)
    print_progress(results, listed, gpu_ok, gpu_note, untouched)
    return 0


def check(name, include_perf=False):
    if not wbbuild.configure_and_build(quiet=True, target=STUDENT_TARGET, say=t):
        return 1
    one_exercise = name not in wbex.section_names()
    if not one_exercise:
        selector = ["-L", f"^{name}$"]
    else:
        try:
            e = find_exercise(name)
        except LookupError as err:
            print(t("cli.error", err=err), file=sys.stderr)
            return 2
        # The exercise's tests carry its label (wbcore/ctest_listing.py), and
        # the section's comparisons that time its kernel `compares=<name>`
        # (cmake/WorkbookDiscoverTests.cmake); repeated -L options must all
        # match, and one matches a test when any of its labels does.
        selector = ["-L", f"^{e.section}$", "-L",
                    f"^({ctest_listing.exercise_label(e.name)}|compares={e.name})$"]
    log = BUILD / "check.log"
    cmd = ["ctest", "--test-dir", str(BUILD), "-j", "4", "-L", "starter", "--output-on-failure",
           "--no-tests=ignore"] + selector
    if one_exercise:
        # The section's sanitizer and profile batches run every kernel of
        # the section; for one exercise its own check measuring its kernel
        # alone is faster (each check measures alone what no batch kept).
        cmd += ["-FS", r"\.(sanitize|profile)\.batch$"]
    slower = CHECKED_LATER + (("perf",) if include_perf else ())
    print(t("check.running", name=name, log=log), flush=True)
    # The listing (about a second) is read while the tests run.
    listing = {}
    reader = threading.Thread(target=_read_listing, args=(listing,))
    reader.start()
    results, listed, rc = [], None, 0
    with open(log, "w") as out:
        for junit, kinds in ((BUILD / "check-correctness.xml", CHECKED_FIRST),
                             (BUILD / "check.xml", slower)):
            junit.unlink(missing_ok=True)
            run = cmd + ["-L", "^(" + "|".join(kinds) + ")$", "--output-junit", str(junit)]
            out.flush()
            rc = subprocess.run(run, cwd=wbex.ROOT, env=wbbuild.env_with_cuda(),
                                stdout=out, stderr=subprocess.STDOUT).returncode or rc
            if listed is None:
                reader.join()
                if "error" in listing:
                    print(t("cli.error", err=i18n.output_line(str(listing["error"]))),
                          file=sys.stderr)
                    return 1
                listed = listing["tests"]
            try:
                found = wbres.load_junit(junit)
            except (OSError, ET.ParseError):
                print(t("check.no_results", log=log), file=sys.stderr)
                return rc or 1
            # Each run's verdicts as soon as they are in: the correctness
            # tests' within seconds, before the slower checks start.
            if found:
                print("\n".join(wbsummary.group_lines(found, listed)), flush=True)
            results += found
    if not results:
        print(t("check.no_match", name=name, log=log))
        return rc
    record_states(results, listed)
    print("\n".join(wbsummary.closing_lines(results)))
    if include_perf:
        timed = [r.name for r in results if listed.get(r.name) and listed[r.name].kind == "perf"]
        print(t("check.perf_ran", count=len(timed),
                names=", ".join(n.split(".", 2)[-1] for n in timed) or "-"))
    hints = known_mistakes(results, listed)
    if hints:
        print("\n".join(hints))
    return 1 if any(r.result == "failed" for r in results) else rc


def _read_listing(into):
    """The starter's CTest listing by name into `into["tests"]`, or the
    ListingError into `into["error"]` (run beside the tests, in a thread)."""
    try:
        into["tests"] = ctest_listing.by_name(ctest_listing.list_tests(BUILD, ["-L", "^starter$"]))
    except ctest_listing.ListingError as err:
        into["error"] = err


def known_mistakes(results, listed, build=BUILD):
    """For each exercise with a failing test, the mutants it fails like
    (wbcore/diagnosis.py: the mutants' records from the last run of the
    suite's mutant checks in this build, or shipped)."""
    failing = []
    for r in results:
        test = listed.get(r.name)
        if r.result == "failed" and test and test.exercise and test.exercise not in failing:
            failing.append(test.exercise)
    if not failing:
        return []
    records = wbdiag.load_records(build)
    lines = []
    for e in failing:
        if i18n.is_zh():
            lines += diagnose_zh(results, listed, e, records)
        else:
            lines += wbdiag.diagnose(results, listed, e, records)
    return lines


ERRATA_ZH = wbex.ROOT / "docs" / "errata.zh.md"


def diagnose_zh(results, listed, exercise, records, root=wbex.ROOT, errata=ERRATA_ZH):
    """wbcore/diagnosis.py's diagnose in Chinese: the same matching, the
    mistake told from workbook.zh.toml and the entry of the Chinese errata."""
    lines = []
    for r in wbdiag.known_mistakes(results, listed, exercise, records):
        path = root / r["file"]
        ref = f"{exercise.section}/{path.stem}"
        bug = wbzh.mistake(ref) or wbdiag.bug_line(path) or r.get("bug", "")
        lines.append(t("diagnosis.known", key=exercise.key, file=r["file"], bug=bug))
        entry = wbdiag.errata_entry(ref, errata=errata)
        if entry:
            lines.append(t("diagnosis.errata", entry=entry,
                           page=pathlib.Path(errata).relative_to(root).as_posix()))
    return lines


def find_exercise(text):
    """wbcore.course.find_exercise, its LookupError told in the language in
    use."""
    try:
        return wbex.find_exercise(text)
    except wbex.BookExerciseError as err:
        mapped = ", ".join(map(str, err.mapped))
        if err.number is None:
            raise LookupError(t("check.book_malformed", name=text, mapped=mapped,
                                form=f"{wbex.BOOK_NAME_PREFIX}{wbex.book_ref('N')}",
                                count=wbex.BOOK_EXERCISE_COUNT)) from None
        raise LookupError(t("check.book_not_yet", name=text, mapped=mapped)) from None
    except LookupError:
        all_ex = wbex.exercises()
        matches = [e for e in all_ex if text in (e.key, e.name)]
        if not matches:
            raise LookupError(t("check.no_exercise", name=text,
                                choices=", ".join(e.key for e in all_ex))) from None
        raise LookupError(t("check.ambiguous", name=text,
                            choices=", ".join(e.key for e in matches))) from None


def exercise_of(path):
    """The exercise whose starter file `path` is (starter/<section>/<name>.cu), or None."""
    if path.suffix != ".cu":
        return None
    try:
        return wbex.find_exercise(f"{path.parent.name}/{path.stem}")
    except LookupError:
        return None


def _starter_mtimes(root):
    """{path: modification time} of the files under root; an editor's
    half-written or vanished file is skipped this time round."""
    times = {}
    for p in root.rglob("*"):
        try:
            if p.is_file():
                times[p] = p.stat().st_mtime_ns
        except OSError:
            pass
    return times


def watch(name=None, interval=1.0, run_check=None, starter=None, states_path=None):
    """Check the exercise being worked on whenever a file under starter/ is
    saved (polled every `interval` seconds), print the progress line, and
    move on to the next exercise once it passes (rustlings' loop). A saved
    file of another exercise is checked too and becomes the one watched.
    Ctrl-C stops. With no name: the next exercise that does not pass yet.

    run_check(name) runs the checks (default: check, printing its account);
    starter and states_path replace starter/ and the progress record (the
    tests give their own)."""
    import time
    run_check = run_check or check
    starter = pathlib.Path(starter or wbex.ROOT / "starter")
    try:
        current = find_exercise(name) if name else next_exercise(load_states(states_path))
    except LookupError as err:
        print(t("cli.error", err=err), file=sys.stderr)
        return 2

    def check_current():
        print(t("watch.checking", key=current.key,
                path=current.starter_file().relative_to(wbex.ROOT)), flush=True)
        rc = run_check(current.name)
        states = load_states(states_path)
        print(progress_line(states), flush=True)
        if rc != 0 or states.get(current.key) != "done":
            print(t("watch.waiting", name=current.name), flush=True)
            return current
        following = next_exercise(states, after=current)
        if following is None:
            print(t("watch.all_pass"), flush=True)
            return current
        todo = wbex.first_todo(following.starter_file())
        where = str(following.starter_file().relative_to(wbex.ROOT))
        print(t("watch.next", name=current.name, key=following.key,
                where=where + (f":{todo[0]}" if todo else "")), flush=True)
        return following

    try:
        seen = _starter_mtimes(starter)
        if current is None:
            print(t("watch.all_pass_anyway"), flush=True)
        else:
            current = check_current()
        while True:
            time.sleep(interval)
            now = _starter_mtimes(starter)
            # Only exercise files count: an editor's swap and backup files
            # (.swp, ~, .bak) change without the student saving anything.
            saved = sorted(((p, exercise_of(p)) for p, m in now.items() if seen.get(p) != m),
                           key=lambda pe: now[pe[0]])
            saved = [(p, e) for p, e in saved if e is not None]
            seen = now
            if not saved:
                continue
            # The file saved last says which exercise is being worked on.
            path, current = saved[-1]
            print(t("watch.saved", file=f"{path.parent.name}/{path.name}"), flush=True)
            current = check_current()
    except KeyboardInterrupt:
        print(t("watch.stopped"))
        return 0


def show_hint(name, step=None):
    """The next hint step for an exercise (student/hints.py keeps the steps
    shown), or step `step`; by default for the next exercise with a TODO left."""
    if name:
        try:
            e = find_exercise(name)
        except LookupError as err:
            print(t("cli.error", err=err), file=sys.stderr)
            return 2
    else:
        pending = [e for e in ordered_exercises() if wbex.first_todo(e.starter_file())]
        if not pending:
            print(t("hint.no_todo"))
            return 0
        e = pending[0]
    return wbhints.show(e, step)


def reset(name, assume_yes=False):
    """Restore one exercise's starter file from the pristine record
    (student/pristine.py says why not from git), keeping the student's
    version as .bak."""
    try:
        e = find_exercise(name)
    except LookupError as err:
        print(t("cli.error", err=err), file=sys.stderr)
        return 2
    rel = e.starter_file().relative_to(wbex.ROOT).as_posix()
    try:
        pristine = wbpristine.pristine_text(e)
    except wbpristine.PristineError as err:
        print(t("reset.cannot", rel=rel, err=err), file=sys.stderr)
        return 1
    target = e.starter_file()
    if target.exists() and target.read_bytes() == pristine:
        print(t("reset.already", rel=rel))
        return 0
    if not assume_yes:
        answer = input(t("reset.ask", rel=rel))
        if answer.strip().lower() not in i18n.YES:
            print(t("reset.unchanged"))
            return 1
    backup = target.with_suffix(".cu.bak")
    if target.exists():
        shutil.copyfile(target, backup)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(pristine)
    print(t("reset.done_backup", rel=rel, backup=backup.name) if backup.exists()
          else t("reset.done", rel=rel))
    return 0
