#!/usr/bin/env python3
"""The forgery submissions (grader/tests/forgeries/) must earn nothing they
try to forge, and no submission may change another's grade.

Builds one submission per forgery file (its base, the pristine starter or the
reference solutions, with that one exercise file replaced), plus the pristine
starter and the solutions themselves. Grades them twice:

  1. as one batch with the result cache on, the forgeries first (so anything
     they could leave in the cache is there when the pristine ones are
     graded);
  2. as one batch with --no-cache, where each submission is graded exactly as
     it would be alone.

Then checks every forgery's expectation (see forgeries/README.md) and that
every submission's score, status and every check's points are the same in
both batches. Without a GPU (or without --gpu) the GPU checks are NOT RUN;
the expectations that need them ('zero', 'below') are then not judged.
Exit 0 pass, 1 fail, 77 skipped (Python older than 3.11).
"""
import argparse
import json
import pathlib
import re
import shutil
import sys
import tempfile

if sys.version_info < (3, 11):
    print(f"skipped: the grader needs Python 3.11 or newer (tomllib); this is "
          f"{sys.version.split()[0]}")
    sys.exit(77)

FORGERIES = pathlib.Path(__file__).resolve().parent / "forgeries"
from wbcore import course as wbex  # noqa: E402
from grader import report as gr  # noqa: E402
from classgrading import Checker, grade  # noqa: E402

HEADER_RE = re.compile(r"^// (forgery|exercise|base|also|expect|must-not-show): (.*)$", re.M)
# Lines of a must-not-show file shorter than this are not looked for (a
# short line, such as a lone brace, may appear anywhere).
SHOWN_LINE_MIN = 8
# Batch order is by name: the forgeries first, the pristine submissions last.
PRISTINE = {"starter": "9-starter", "solutions": "9-solutions"}


def forgeries():
    """[{stem, forgery, exercise, base, expect, path}] from the files' first lines."""
    found = []
    for path in sorted(FORGERIES.glob("*.cu")):
        fields = dict(HEADER_RE.findall(path.read_text()))
        missing = {"forgery", "exercise", "base", "expect"} - set(fields)
        if missing:
            raise SystemExit(f"{path}: the header lacks {', '.join(sorted(missing))}")
        if fields["base"] not in PRISTINE:
            raise SystemExit(f"{path}: 'base: {fields['base']}' is neither of "
                             f"{', '.join(PRISTINE)}")
        fields.update(stem=path.stem, path=path)
        found.append(fields)
    by_stem = {f["stem"]: f for f in found}
    for f in found:
        if "also" in f and f["also"] not in by_stem:
            raise SystemExit(f"{f['path']}: 'also: {f['also']}' names no forgery file")
        f["also_file"] = by_stem[f["also"]] if "also" in f else None
    return found


# The expectations that say more where the GPU checks ran: "zero" and
# "below" are judged only there, and "same-as" compares scores that the GPU
# checks are part of. "refused" and "limit" forgeries never run: the CPU
# says all there is.
GPU_EXPECTATIONS = ("zero", "below", "same-as")


BASE_COST = {"starter": 1, "solutions": 3}


def referents(forgery):
    """The stems of the other forgeries this one's expectations or second
    file name: they must be graded in the same run."""
    named = {forgery["also"]} if "also" in forgery else set()
    for clause in forgery["expect"].split(" and "):
        kind, _, what = clause.strip().partition(" ")
        if kind in ("same-as", "below") and what and what != "base":
            named.add(what)
    return named


def needs_gpu(found):
    """The forgeries whose expectations the GPU checks bear on, with the
    forgeries they name."""
    by_stem = {f["stem"]: f for f in found}
    wanted = {f["stem"] for f in found
              if any(clause.strip().split(" ")[0] in GPU_EXPECTATIONS
                     for clause in f["expect"].split(" and "))}
    todo = list(wanted)
    while todo:
        for stem in referents(by_stem[todo.pop()]) - wanted:
            wanted.add(stem)
            todo.append(stem)
    return [f for f in found if f["stem"] in wanted]


def group(found, index, count):
    """Group `index` of `count` (0-based) of the forgeries: those that name
    each other stay together; the sets, costliest first, each go to the
    group that costs least so far. Each group is graded on a GPU of its own
    (tests/gpu-suite.sh --forgery-gpus)."""
    by_stem = {f["stem"]: f for f in found}
    # What a forgery costs to grade, roughly: one on the starter reuses the
    # starter's results but for its own file's, whose TODO kernels fail at
    # once; one on the solutions runs its section's batches and timed tests.
    cost = {s: (BASE_COST.get(f["base"], 1)) for s, f in by_stem.items()}
    linked = {s: {s} for s in by_stem}
    for f in found:
        for other in referents(f) & set(by_stem):
            merged = linked[f["stem"]] | linked[other]
            for s in merged:
                linked[s] = merged

    def weight(members):
        return sum(cost[s] for s in members)
    sets = sorted({frozenset(v) for v in linked.values()}, key=lambda s: (-weight(s), sorted(s)))
    groups = [[] for _ in range(count)]
    for members in sets:
        min(groups, key=lambda g: (weight(g), len(g))).extend(sorted(members))
    chosen = set(groups[index])
    return [f for f in found if f["stem"] in chosen]


# The forgeries on the starter sort before those on the solutions: a grading
# slot recompiles only the exercise files that differ from the submission it
# graded before, so the batch switches base once (each switch recompiles
# every exercise file: about two minutes on two cores) instead of at every
# change of base in the forgeries' alphabetical order.
BASE_ORDER = {"starter": "a", "solutions": "b"}


def submission_name(forgery):
    return f"1{BASE_ORDER[forgery['base']]}-{forgery['stem']}"


def referent_name(stem):
    """The submission name of the forgery file `stem` (a referent of another's
    expectation), or a name no submission has where there is no such file."""
    named = [f for f in forgeries() if f["stem"] == stem]
    return submission_name(named[0]) if named else f"1-{stem}"


def make_class(folder, found):
    all_ex = wbex.exercises()
    source = {"starter": wbex.Exercise.starter_file, "solutions": wbex.Exercise.solution_file}
    for base, name in PRISTINE.items():
        for e in all_ex:
            target = folder / name / "starter" / f"{e.key}.cu"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source[base](e), target)
    for f in found:
        name = submission_name(f)
        shutil.copytree(folder / PRISTINE[f["base"]], folder / name)
        shutil.copyfile(f["path"], folder / name / "starter" / f"{f['exercise']}.cu")
        other = f["also_file"]
        if other is not None:  # a forgery of two files: the other one's file too
            shutil.copyfile(other["path"], folder / name / "starter" / f"{other['exercise']}.cu")


def load(out, names):
    docs = {}
    for name in names:
        try:
            docs[name] = json.loads((out / name / gr.RESULTS).read_text())
        except (OSError, ValueError):
            docs[name] = None
    return docs


def exercise_checks(doc, key):
    return [t for t in doc["tests"] if t["name"].startswith(key + ":")]


def nothing_shown(f, out, check):
    """No line of the forgery's must-not-show file (a file it includes that
    lies outside what an exercise may see) is in its summary.txt or
    results.json, in either batch."""
    secret = f.get("must-not-show")
    if not secret:
        return
    try:
        lines = pathlib.Path(secret).read_text(errors="replace").splitlines()
    except OSError:
        return   # not on this machine: nothing of it can be shown
    lines = [line.strip() for line in lines if len(line.strip()) >= SHOWN_LINE_MIN]
    name = submission_name(f)
    for report in (gr.SUMMARY, gr.RESULTS):
        try:
            text = (out / name / report).read_text(errors="replace")
        except OSError:
            continue
        if report == gr.RESULTS:
            # JSON escapes a line's slashes and quotes; compare the strings.
            text = "\n".join(_strings(json.loads(text)))
        shown = [line for line in lines if line in text]
        check.expect(not shown, f"{name}: {report} shows {len(shown)} line(s) of {secret}, "
                     f"first {shown[:1]}")


def _strings(doc):
    if isinstance(doc, str):
        yield doc
    elif isinstance(doc, dict):
        for value in doc.values():
            yield from _strings(value)
    elif isinstance(doc, list):
        for value in doc:
            yield from _strings(value)


def kind_title(kind):
    """The title results.json gives the checks of a points.toml kind."""
    from grader import points as gp
    kinds = gp.load().kinds
    if kind not in kinds:
        raise SystemExit(f"'zero {kind}': {kind} is not a kind of grader/points.toml "
                         f"({', '.join(kinds)})")
    return kinds[kind].title


def judge(f, docs, gpu_used, check):
    """Checks one forgery's expectations (clauses joined by ' and ') against
    the cached batch's results."""
    name = submission_name(f)
    doc = docs.get(name)
    if not check.expect(doc is not None, f"{name}: no results.json"):
        return
    status = doc["extra_data"]["status"]
    earned = sum(t["score"] for t in exercise_checks(doc, f["exercise"]))
    print(f"{name}: {doc['score']:g} points, status {status}; {f['exercise']} earned {earned:g}")
    for clause in f["expect"].split(" and "):
        judge_clause(f, clause.strip(), doc, docs, gpu_used, check)


def judge_clause(f, clause, doc, docs, gpu_used, check):
    """Checks one expectation of forgery f (see forgeries/README.md)."""
    name = submission_name(f)
    status = doc["extra_data"]["status"]
    mine = exercise_checks(doc, f["exercise"])
    kind, _, what = clause.partition(" ")
    earned = sum(t["score"] for t in mine)
    said = "\n".join(t["output"] for t in mine)
    if kind == "refused":
        check.expect(status == "refused", f"{name}: status {status}, expected refused")
        check.expect(earned == 0, f"{name}: the refused exercise earned {earned:g} points")
        check.expect(what in said, f"{name}: the refusal does not name {what!r}:\n{said[:1500]}")
    elif kind == "same-as":
        other = PRISTINE.get(f["base"]) if what == "base" else referent_name(what)
        reference = docs.get(other)
        if check.expect(reference is not None, f"{name}: no results of {other} to compare with"):
            check.expect(doc["score"] == reference["score"],
                         f"{name} scores {doc['score']:g}, {other} {reference['score']:g}: "
                         "what the file adds must change nothing")
    elif kind == "limit":
        check.expect(status == "compile-errors", f"{name}: status {status}, expected "
                     "compile-errors (a compile limit)")
        check.expect(earned == 0, f"{name}: the exercise earned {earned:g} points")
        check.expect("LIMIT" in said, f"{name}: the message does not name the limit:\n"
                     f"{said[:1500]}")
    elif kind == "zero":
        if what:  # only the exercise's checks of that kind
            title = kind_title(what)
            mine = [t for t in mine if t["name"].endswith(": " + title)]
            check.expect(bool(mine), f"{name}: {f['exercise']} has no {what} check")
            earned = sum(t["score"] for t in mine)
        if gpu_used:
            check.expect(earned == 0, f"{name}: {f['exercise']} earned {earned:g} points"
                         + (f" in its {what} checks" if what else ""))
    elif kind == "below":
        other = PRISTINE[f["base"]] if what == "base" else referent_name(what)
        reference = docs.get(other)
        check.expect(what == "base" or reference is not None,
                     f"{name}: no results of {other} to compare with (grade it too)")
        if gpu_used and reference is not None:
            check.expect(doc["score"] < reference["score"],
                         f"{name} scores {doc['score']:g}, no less than {other} "
                         f"{reference['score']:g}: the forgery paid")
    else:
        check.expect(False, f"{f['path']}: unknown expectation {clause!r}")


def solutions_at_full_marks(docs, check):
    """The pristine solutions earn every point of every check in the batch,
    as they do alone (the GPU suite's solutions stage passes them all): a
    forgery graded before them left them nothing to lose. This holds them to
    what grading them alone, a whole uncached suite, would compare with."""
    doc = docs.get(PRISTINE["solutions"])
    if doc is None:
        return
    short = [f"{t['name']} ({t['score']:g} of {t['max_score']:g})" for t in doc["tests"]
             if t["score"] < t["max_score"]]
    check.expect(not short, f"{PRISTINE['solutions']}: {len(short)} check(s) short of full "
                            f"marks in the batch, first {short[:3]}")


def same_grades(cached, alone, check):
    """Every submission graded alone is graded in the cached batch exactly
    as alone."""
    for name, other in sorted(alone.items()):
        doc = cached.get(name)
        if doc is None or other is None:
            check.expect(False, f"{name}: missing results in one of the two batches")
            continue
        check.expect((doc["score"], doc["extra_data"]["status"])
                     == (other["score"], other["extra_data"]["status"]),
                     f"{name}: {doc['score']:g} ({doc['extra_data']['status']}) in the batch, "
                     f"{other['score']:g} ({other['extra_data']['status']}) alone")
        alone_points = {t["name"]: t["score"] for t in other["tests"]}
        for test in doc["tests"]:
            check.expect(alone_points.get(test["name"]) == test["score"],
                         f"{name}: {test['name']} earned {test['score']:g} in the batch, "
                         f"{alone_points.get(test['name'])} alone")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", type=pathlib.Path, required=True,
                    help="build folders for the grading builds (kept and reused)")
    ap.add_argument("--cmake-arg", action="append", default=[], metavar="ARG",
                    help="passed on to the grader (e.g. -DCMAKE_CUDA_ARCHITECTURES=90)")
    ap.add_argument("--gpu", action="store_true", help="run the GPU checks too (needs a GPU)")
    ap.add_argument("--grade-arg", action="append", default=[], metavar="ARG",
                    help="passed on to ./workbook grade, e.g. --grade-arg=--jobs=2")
    ap.add_argument("--only", help="grade only these forgeries (comma-separated file stems; "
                                   "the pristine starter and solutions are always graded)")
    ap.add_argument("--alone", help="grade only these submissions alone (comma-separated: "
                                    "file stems, starter, solutions; default all; 'none': "
                                    "none): each costs a whole uncached suite on a GPU; with "
                                    "the GPU checks, the pristine solutions must earn full "
                                    "marks in the batch whether or not graded alone")
    ap.add_argument("--needs-gpu", action="store_true",
                    help="grade only the forgeries whose expectations the GPU checks bear "
                         "on (zero, below, same-as) and those they name")
    ap.add_argument("--group", metavar="I/N",
                    help="grade only group I of N (0-based; forgeries that name each other "
                         "stay in one group), e.g. one group per GPU")
    ap.add_argument("--compare", nargs=2, type=pathlib.Path, metavar=("BATCH", "ALONE"),
                    help="grade nothing: check that the pristine submissions in the batch "
                         "outputs BATCH (a kept batch-with-cache folder) score what they score "
                         "in ALONE (another run's kept each-alone folder, on the same kind of "
                         "GPU); for the groups of --group that grade none alone")
    ap.add_argument("--out", type=pathlib.Path,
                    help="work in this folder (submissions and both batches' outputs) and keep "
                         "it, instead of a temporary one; run again with the same --out to "
                         "resume an interrupted run (the result cache is then kept too)")
    ap.add_argument("--keep", type=pathlib.Path,
                    help="copy both batches' outputs (gradebooks, results) into this folder")
    args = ap.parse_args()
    if args.compare:
        check = Checker()
        batch, alone = args.compare
        names = [n for n in PRISTINE.values() if (alone / n / gr.RESULTS).exists()]
        check.expect(bool(names), f"{alone}: no results of the pristine submissions")
        same_grades(load(batch, names), load(alone, names), check)
        return check.exit_status(f"forgeries: the pristine submissions of {batch} score what "
                                 f"they score alone in {alone} ({', '.join(names)})")
    found = forgeries()
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {f["stem"] for f in found}
        if unknown:
            ap.error(f"no forgery called {', '.join(sorted(unknown))}")
        found = [f for f in found if f["stem"] in wanted]
    if args.needs_gpu:
        found = needs_gpu(found)
    if args.group:
        m = re.fullmatch(r"(\d+)/(\d+)", args.group)
        if not m or int(m.group(1)) >= int(m.group(2)):
            ap.error(f"--group {args.group}: expected I/N with 0 <= I < N, e.g. 0/2")
        found = group(found, int(m.group(1)), int(m.group(2)))
    check = Checker()
    resuming = args.out is not None and (args.out / "submissions").is_dir()
    tmp = args.out or pathlib.Path(tempfile.mkdtemp(prefix="wb-forgeries-"))
    try:
        submissions = tmp / "submissions"
        names = [submission_name(f) for f in found] + list(PRISTINE.values())
        if not resuming:
            make_class(submissions, found)
            shutil.rmtree(args.work / "cache", ignore_errors=True)
        cached_out, alone_out = tmp / "batch-with-cache", tmp / "each-alone"
        status, _ = grade(submissions, cached_out, args, *args.grade_arg)
        check.expect(status == 0, f"grading the batch exited {status}")
        alone_names = names
        if args.alone:
            wanted = set(args.alone.split(",")) - {"none"}
            alone_names = [n for n in names if n.split("-", 1)[1] in wanted]
            absent = wanted - {n.split("-", 1)[1] for n in alone_names}
            if absent:
                print(f"note: not graded here, so not graded alone: {', '.join(sorted(absent))}")
            alone_submissions = tmp / "submissions-alone"
            for name in alone_names:
                if not (alone_submissions / name).exists():
                    shutil.copytree(submissions / name, alone_submissions / name)
            submissions = alone_submissions
        if alone_names:
            status, _ = grade(submissions, alone_out, args, "--no-cache", *args.grade_arg)
            check.expect(status == 0, f"grading alone exited {status}")
        cached, alone = load(cached_out, names), load(alone_out, alone_names)
        gpu_used = any(d and not d["extra_data"]["gpu_missing"] for d in cached.values())
        # Without the GPU checks, "zero" and "below" are not judged and
        # "same-as" compares host checks alone: asked for, they must have run.
        check.expect(gpu_used or not args.gpu, "--gpu was given, but no GPU check ran (is the "
                     "GPU visible to this process? CUDA_VISIBLE_DEVICES, nvidia-smi)")
        for f in found:
            judge(f, cached, gpu_used, check)
            for out in (cached_out, alone_out):
                nothing_shown(f, out, check)
        same_grades(cached, alone, check)
        if gpu_used:
            solutions_at_full_marks(cached, check)
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            for out in (cached_out, alone_out):
                if out.exists():
                    shutil.copytree(out, args.keep / out.name, dirs_exist_ok=True)
    finally:
        if args.out is None:
            shutil.rmtree(tmp, ignore_errors=True)
    return check.exit_status(f"forgeries: all checks passed ({len(found)} forgeries, "
                             f"{'with' if gpu_used else 'without'} the GPU checks)")


if __name__ == "__main__":
    sys.exit(main())
