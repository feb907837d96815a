"""Grading a class through Slurm: one job array whose tasks grade a few
submissions each, then a job that depends on the array and writes the
gradebook (`./workbook grade --batch FOLDER --out OUT --slurm`).

What lives in OUT (on the shared file system, seen alike by every node):

  OUT/FOLDER/...          a submission's outputs (FOLDER: run.output_folder),
                          written by the task that grades it exactly as
                          the local batch writes them
                          (run.grade_one: every file atomically, a temporary
                          file then os.replace, results.json last);
  OUT/slurm/plan-R.json   round R's plan: the grading options and, per task
                          index, the submissions it grades;
  OUT/slurm/task-R-I.sh   the scripts (array and merge) as submitted;
  OUT/slurm/logs/         Slurm's output of every task and merge job;
  OUT/slurm.json          the rounds submitted: their job ids and plans.

Concurrent writers, and why they stay correct:
  - two tasks never grade the same submission (a plan assigns each one to
    one task, and a new round is refused while an earlier one is queued or
    running), so a submission's folder has one writer;
  - the result cache (--work/cache) is shared: its entries are immutable,
    each written with a temporary file and os.replace (cache.OutcomeCache.put),
    so a reader sees an old entry, the new one or none, never half of one;
  - build folders (--work/slot-N) are taken with an exclusive flock on
    slot-N/lock (build.acquire_slots), so tasks on one file system use
    different ones;
  - gradebook.csv and slurm.json are read-modify-write: each is rewritten
    under an fcntl lock on OUT/slurm/lock (`locked` below), then replaced
    atomically, so a late writer never replaces a newer file with an older
    view.

A rerun of the same command submits only what has no valid results.json
(run.finished, the local resume); the tasks skip a submission graded
meanwhile. `--slurm-status OUT` counts done, running, pending and failed
submissions from squeue/sacct and from OUT.
"""
import contextlib
import fcntl
import json
import os
import pathlib
import shlex
import subprocess
import sys

from . import records
from . import report as gr
from . import run as grun

STATE_DIR = records.SLURM_STATE_DIR
RECORD = records.SLURM_RECORD
JOB_NAME = "wbgrade"
# sbatch options that ask for GPUs: given to the array's tasks only, not to
# the merge job.
GPU_OPTIONS = ("--gres", "--gpus", "-G", "--gpus-per-node", "--gpus-per-task")
DEFAULT_GRES = "--gres=gpu:1"


class SlurmError(Exception):
    pass


def groups(names, size):
    """The submissions split into tasks of `size` (the last may be smaller)."""
    size = max(1, int(size))
    return [list(names[i:i + size]) for i in range(0, len(names), size)]


def is_gpu_option(option):
    return any(option == o or option.startswith(o + "=") for o in GPU_OPTIONS)


def split_options(sbatch_options):
    """(options for the array tasks, options for the merge job): the GPU
    requests (--gres, --gpus, ...) go to the tasks only. An option and a
    separate value (`--gres gpu:1`) are kept together."""
    tasks, merge = [], []
    it = iter(sbatch_options)
    for option in it:
        pair = [option]
        if option in GPU_OPTIONS:
            pair.append(next(it, ""))
        tasks += pair
        if not is_gpu_option(option):
            merge += pair
    return tasks, merge


def state_dir(out):
    return pathlib.Path(out) / STATE_DIR


@contextlib.contextmanager
def locked(out):
    """An exclusive fcntl lock on OUT/slurm/lock: around every
    read-modify-write of gradebook.csv and slurm.json."""
    folder = state_dir(out)
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "lock", "a") as handle:
        fcntl.lockf(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.lockf(handle, fcntl.LOCK_UN)


def load_record(out):
    return records.load_slurm_record(out)


def _grade_command(python, root, *args):
    script = pathlib.Path(root) / "grader" / "grade.py"
    return " ".join(shlex.quote(str(a)) for a in (python, script, *args))


def _import_path(root):
    """The job's line that lets grader/grade.py, run by path, import the
    repository's packages (the job's own environment may not carry the
    submitter's PYTHONPATH)."""
    return f'export PYTHONPATH={shlex.quote(str(root))}${{PYTHONPATH:+:$PYTHONPATH}}'


def array_script(plan_path, tasks, out, round_no, gpu, python, root, array_limit=None):
    """The job array's script: task I grades the submissions of plan index I."""
    logs = state_dir(out) / "logs"
    array = f"0-{tasks - 1}" + (f"%{array_limit}" if array_limit else "")
    lines = ["#!/bin/bash",
             f"#SBATCH --job-name={JOB_NAME}",
             f"#SBATCH --array={array}",
             f"#SBATCH --output={logs}/task-{round_no}-%a.log",
             "#SBATCH --ntasks=1"]
    if gpu:
        lines.append(f"#SBATCH {DEFAULT_GRES}")
    lines += ["# Written by ./workbook grade --slurm (grader/slurm.py); options given on",
              "# sbatch's command line take precedence over the lines above.",
              "set -u",
              _import_path(root),
              "exec " + _grade_command(python, root, "--slurm-task", plan_path)
              + ' "$SLURM_ARRAY_TASK_ID"', ""]
    return "\n".join(lines)


def merge_script(out, round_no, python, root, report_argv=()):
    """The merge job's script: gradebook.csv from every results.json, what
    failed, and the class and similarity reports (report_argv: their
    options); submitted with --dependency=afterany:<array id>."""
    logs = state_dir(out) / "logs"
    lines = ["#!/bin/bash",
             f"#SBATCH --job-name={JOB_NAME}-merge",
             f"#SBATCH --output={logs}/merge-{round_no}.log",
             "#SBATCH --ntasks=1",
             "# Written by ./workbook grade --slurm (grader/slurm.py).",
             "set -u",
             _import_path(root),
             "exec " + _grade_command(python, root, "--slurm-merge", out, *report_argv), ""]
    return "\n".join(lines)


def sbatch_commands(array_path, merge_path, task_options, merge_options, array_id="$ARRAY_ID"):
    """The two sbatch command lines (argument lists)."""
    first = ["sbatch", "--parsable", *task_options, str(array_path)]
    second = ["sbatch", "--parsable", f"--dependency=afterany:{array_id}", *merge_options,
              str(merge_path)]
    return first, second


def _job_id(stdout):
    # sbatch --parsable prints "jobid" or "jobid;cluster".
    text = stdout.strip().splitlines()[-1] if stdout.strip() else ""
    job = text.split(";")[0]
    if not job.isdigit():
        raise SlurmError(f"sbatch said {stdout.strip()!r}, not a job id")
    return job


def _sbatch(cmd):
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise SlurmError(f"{' '.join(cmd[:2])}: {err}") from err
    if done.returncode != 0:
        raise SlurmError(f"sbatch failed ({done.returncode}): {done.stderr.strip()}")
    return _job_id(done.stdout)


def active_jobs(record):
    """Job ids of the record that squeue still lists (queued or running)."""
    ids = [str(j) for r in (record or {}).get("rounds", [])
           for j in (r.get("array"), r.get("merge")) if j]
    if not ids:
        return []
    states = squeue(ids)
    return sorted({key.split("_")[0] for key in states})


def submit(folder, out, grade_argv, sbatch_options, group=1, regrade=False, dry_run=False,
           gpu=True, array_limit=None, python=sys.executable, root=None, log=print,
           report_argv=()):
    """Plan, write and (unless dry_run) submit one round. Returns the round's
    record, or None when nothing is left to grade."""
    root = pathlib.Path(root or pathlib.Path(__file__).resolve().parents[1])
    out = pathlib.Path(out)
    entries = grun.batch_entries(folder, out)
    todo = [(n, p) for n, p in entries if regrade or grun.finished(out, n) is None]
    if len(todo) < len(entries):
        log(f"{len(entries) - len(todo)} of {len(entries)} submissions already graded "
            "(--regrade grades them again)")
    if not todo:
        log("nothing to grade; writing the gradebook")
        if not dry_run:
            merge(out)
        return None
    record = load_record(out) or {"folder": str(pathlib.Path(folder).resolve()), "rounds": []}
    if not dry_run:
        running = active_jobs(record)
        if running:
            raise SlurmError(f"job(s) {', '.join(running)} of an earlier round are still queued "
                             "or running; wait for them (./workbook grade status OUT) or scancel them")
    round_no = len(record["rounds"]) + 1
    plan = {"folder": str(pathlib.Path(folder).resolve()), "out": str(out.resolve()),
            "grade_argv": list(grade_argv), "regrade": bool(regrade),
            "tasks": [[[n, str(pathlib.Path(p).resolve())] for n, p in g]
                      for g in groups(todo, group)],
            # A submission whose folder under OUT is not its name (run.output_folder).
            "names": {e[0]: e.name for e in entries if e.name != e[0]}}
    folder_s = state_dir(out).resolve()
    plan_path = folder_s / f"plan-{round_no}.json"
    array_path = folder_s / f"array-{round_no}.sh"
    merge_path = folder_s / f"merge-{round_no}.sh"
    scripts = {array_path: array_script(plan_path, len(plan["tasks"]), out.resolve(), round_no,
                                        gpu, python, root, array_limit),
               merge_path: merge_script(out.resolve(), round_no, python, root, report_argv)}
    task_options, merge_options = split_options(sbatch_options)
    first, second = sbatch_commands(array_path, merge_path, task_options, merge_options)
    log(f"round {round_no}: {len(todo)} submission(s) in {len(plan['tasks'])} task(s)")
    if dry_run:
        for path, text in scripts.items():
            log(f"==> {path}\n{text}")
        log("==> would run\n" + shlex.join(first) + "\nARRAY_ID=<its job id>\n"
            + shlex.join(second).replace("'--dependency=afterany:$ARRAY_ID'",
                                                       "--dependency=afterany:$ARRAY_ID"))
        return {"round": round_no, "plan": plan, "scripts": {str(k): v for k, v in scripts.items()},
                "commands": [first, second]}
    (folder_s / "logs").mkdir(parents=True, exist_ok=True)
    gr.atomic_write(plan_path, json.dumps(plan, indent=2) + "\n")
    for path, text in scripts.items():
        gr.atomic_write(path, text)
    array_id = _sbatch(first)
    merge_id = _sbatch(sbatch_commands(array_path, merge_path, task_options, merge_options,
                                       array_id)[1])
    entry = {"round": round_no, "array": array_id, "merge": merge_id, "plan": str(plan_path),
             "tasks": {str(i): [n for n, _ in g] for i, g in enumerate(plan["tasks"])}}
    with locked(out):
        record = load_record(out) or record
        record["rounds"].append(entry)
        gr.atomic_write(out / RECORD, json.dumps(record, indent=2) + "\n")
    log(f"submitted job array {array_id} ({len(plan['tasks'])} task(s)) and merge job {merge_id} "
        f"(after the array); progress: ./workbook grade status {out}")
    return entry


def load_plan(plan_path):
    return json.loads(pathlib.Path(plan_path).read_text(encoding="utf-8"))


def run_task(grader, plan, index, log=print):
    """Grade the submissions of task `index` of a plan (in an array task),
    each with run.grade_one as the local batch does. Returns how many."""
    out = pathlib.Path(plan["out"])
    graded = 0
    for name, path in plan["tasks"][index]:
        if not plan.get("regrade") and grun.finished(out, name) is not None:
            log(f"{name}: already graded")
            continue
        grade = grun.grade_one(grader, pathlib.Path(path), out / name,
                               name=plan.get("names", {}).get(name, name),
                               log=log)
        graded += 1
        log(f"{name}: {grade.score:g} of {grade.max_score:g} ({grade.status}"
            f"{': ' + grade.reason if grade.reason else ''})")
    return graded


def merge(out):
    """gradebook.csv from every results.json in OUT, under the lock:
    run.write_gradebook, exactly what the local batch writes."""
    out = pathlib.Path(out)
    record = load_record(out) or {}
    folder = record.get("folder")
    entries = grun.batch_entries(folder, out) if folder and pathlib.Path(folder).is_dir() else [
        (p.name, p) for p in sorted(out.iterdir()) if p.is_dir() and not p.name.startswith(".")
        and p.name != STATE_DIR]
    with locked(out):
        return grun.write_gradebook(out, entries)


# ---- progress --------------------------------------------------------------

def _run(cmd):
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def squeue(job_ids):
    """{"ARRAY_TASK" or "JOB": (state, reason)} of the jobs squeue lists."""
    cmd = ["squeue", "-h", "-r", "-o", "%i|%T|%r", "-j"]
    text = _run(cmd + [",".join(job_ids)])
    if text is None and len(job_ids) > 1:
        # squeue refuses the whole list when one id is gone (purged after
        # MinJobAge): ask for each.
        text = "".join(_run(cmd + [job]) or "" for job in job_ids)
    found = {}
    for line in (text or "").splitlines():
        parts = line.strip().split("|")
        if len(parts) == 3:
            found[parts[0]] = (parts[1], parts[2])
    return found


def sacct(job_ids):
    """{"ARRAY_TASK" or "JOB": (state, exit code)} from sacct (empty where
    accounting is off)."""
    text = _run(["sacct", "-n", "-P", "-X", "-j", ",".join(job_ids), "-o", "JobID,State,ExitCode"])
    found = {}
    for line in (text or "").splitlines():
        parts = line.strip().split("|")
        if len(parts) == 3:
            found[parts[0]] = (parts[1], parts[2])
    return found


def scontrol(job_ids):
    """{"ARRAY_TASK" or "JOB": (state, "exit code, reason")} from `scontrol
    show job`, which remembers finished jobs for MinJobAge (where sacct has
    no accounting database)."""
    found = {}
    for job in job_ids:
        for line in (_run(["scontrol", "-o", "show", "job", str(job)]) or "").splitlines():
            fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
            key = (f"{fields['ArrayJobId']}_{fields['ArrayTaskId']}"
                   if "ArrayTaskId" in fields and "ArrayJobId" in fields else fields.get("JobId"))
            if key:
                found[key] = (fields.get("JobState", "?"),
                              f"{fields.get('ExitCode', '?')}, reason {fields.get('Reason', '?')}")
    return found


def ended(job_ids):
    """How the jobs ended: sacct, else scontrol (see there)."""
    found = scontrol(job_ids)
    found.update(sacct(job_ids))
    return found


def classify(out, record, queued, accounted):
    """{"done"|"running"|"pending"|"failed"|"not submitted": [(name, note)]}
    for every submission of the class. queued: squeue(); accounted: ended()."""
    out = pathlib.Path(out)
    folder = record.get("folder")
    names = [n for n, _ in grun.batch_entries(folder, out)] if folder and \
        pathlib.Path(folder).is_dir() else sorted({n for r in record["rounds"]
                                                   for g in r["tasks"].values() for n in g})
    where = {}
    for r in record["rounds"]:
        for index, members in r["tasks"].items():
            for name in members:
                where[name] = (r["array"], index)
    counts = {k: [] for k in ("done", "running", "pending", "failed", "not submitted")}
    for name in names:
        if grun.finished(out, name) is not None:
            counts["done"].append((name, ""))
            continue
        if name not in where:
            counts["not submitted"].append((name, ""))
            continue
        array, index = where[name]
        task = f"{array}_{index}"
        if task in queued:
            state, reason = queued[task]
            kind = "running" if state in ("RUNNING", "COMPLETING", "CONFIGURING") else "pending"
            counts[kind].append((name, f"task {task}: {state} ({reason})"))
            continue
        state, code = accounted.get(task, ("", ""))
        log = state_dir(out) / "logs" / f"task-{task_round(record, array)}-{index}.log"
        said = slurm_said(log)
        note = (f"task {task}: {state}, exit {code}" if state else
                f"task {task} ended without its results.json") + (f"; {said}" if said else "")
        note += f" (log: {log})"
        counts["failed"].append((name, note))
    return counts


def slurm_said(log):
    """Slurm's last word in a task's log: the `*** JOB ... CANCELLED AT ...
    DUE TO TIME LIMIT ***` (or PREEMPTION, or by a user) line slurmstepd
    writes when it stops a task; "" when there is none."""
    try:
        lines = pathlib.Path(log).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    said = [line.strip() for line in lines if "***" in line and "CANCELLED" in line]
    return said[-1] if said else ""


def task_round(record, array):
    return next((r["round"] for r in record["rounds"] if r["array"] == array), "?")


def status(out, log=print):
    """Print how many submissions are done, running, pending and failed;
    returns the counts (None when OUT has no Slurm record)."""
    record = load_record(out)
    if record is None:
        log(f"{out}: no {RECORD} (nothing was submitted through Slurm here)")
        return None
    ids = [j for r in record["rounds"] for j in (r["array"], r["merge"])]
    counts = classify(out, record, squeue(ids), ended(ids))
    total = sum(len(v) for v in counts.values())
    log(f"{total} submissions: " + ", ".join(f"{len(v)} {k}" for k, v in counts.items()))
    for kind in ("failed", "running", "pending"):
        for name, note in counts[kind]:
            log(f"  {kind:8} {name}: {note}")
    if counts["failed"] or counts["not submitted"]:
        log("run the same grade command again to submit those that are missing")
    return counts
