#!/usr/bin/env python3
"""Grades a small class through a real Slurm (`./workbook grade --slurm`)
and checks it against the local batch:

  1. starts a single-node Slurm on loopback (slurm_cluster.sh: munged,
     slurmctld, slurmd; no GPU gres), which is stopped whatever happens;
  2. grades the class (the pristine starter, the solutions, one that does
     not compile, an empty one; from grader/demo_class.py) with the local
     batch;
  3. submits the same class with --slurm --no-gpu, one submission per task,
     one task at a time (--array-limit 1: one build folder), and cancels the
     first task as soon as it runs (scancel ARRAY_0);
  4. after the merge job: the cancelled submission has no results.json and
     --slurm-status reports it failed with Slurm's word; the others are done;
  5. runs the same command again: only the cancelled one is submitted and
     graded, and the merged gradebook.csv equals the local batch's;
  6. a student's `./workbook hint ... --slurm` (student/cluster.py) prints
     what the command prints locally, and its exit status is the command's.

Needs root (the cluster runs as root) and Slurm with munge installed
(Debian: slurmctld slurmd slurm-client munge); otherwise exits 77 (skipped)
with the reason. Shares --work with grade_end_to_end.py (the nested build).
Exit 0 pass, 1 fail, 77 skipped.
"""
import argparse
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time

if sys.version_info < (3, 11):
    print(f"skipped: the grader needs Python 3.11 or newer (tomllib); this is "
          f"{sys.version.split()[0]}")
    sys.exit(77)

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
from grader import classreport as gcr  # noqa: E402
from grader import report as gr  # noqa: E402
from grader import slurm as gslurm  # noqa: E402
from classgrading import Checker, grade  # noqa: E402

CLUSTER = HERE / "slurm_cluster.sh"
CLASS = ("starter", "solutions", "does-not-compile", "empty")
WAIT_SECONDS = 1500


def missing_tools():
    tools = ("munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "scontrol")
    path = os.environ.get("PATH", "") + os.pathsep + "/usr/sbin"
    return [t for t in tools if shutil.which(t, path=path) is None]


def make_class(folder):
    full = folder.parent / "demo"
    subprocess.run([sys.executable, str(ROOT / "grader" / "demo_class.py"), str(full),
                    "--mutants", "none"], check=True, stdout=subprocess.DEVNULL)
    folder.mkdir()
    for name in CLASS:
        shutil.move(str(full / name), str(folder / name))


def slurm_grade(submissions, out, args, *extra):
    cmd = [sys.executable, str(ROOT / "grader" / "grade.py"), "--batch", str(submissions),
           "--out", str(out), "--work", str(args.work), "--no-gpu", "--slurm",
           "--array-limit", "1", *[f"--cmake-arg={a}" for a in args.cmake_arg], *extra]
    print("+ " + " ".join(cmd), flush=True)
    done = subprocess.run(cmd, capture_output=True, text=True)
    print(done.stdout + done.stderr, end="", flush=True)
    return done.returncode, done.stdout + done.stderr


def queued(job_ids):
    return gslurm.squeue([str(j) for j in job_ids])


def wait_until_gone(job_ids, check):
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        if not queued(job_ids):
            return True
        time.sleep(1)
    check.expect(False, f"jobs {job_ids} still queued after {WAIT_SECONDS} s")
    return False


def show_logs(out):
    for log in sorted((out / "slurm" / "logs").glob("*.log")):
        print(f"--- {log.name} (last lines)")
        print("\n".join(log.read_text(errors="replace").splitlines()[-8:]))


def student(check):
    """./workbook COMMAND --slurm: the same output and exit status as here
    (no GPU gres on the test cluster: --gres=gpu:0 replaces the default)."""
    for argv, status in ((["hint", "layout/setRowReadCol", "--step", "1"], 0),
                         (["hint", "no/such"], 2)):
        local = subprocess.run([sys.executable, str(ROOT / "workbook"), *argv],
                               capture_output=True, text=True)
        remote = subprocess.run([sys.executable, str(ROOT / "workbook"), *argv, "--slurm", "--",
                                 "--gres=gpu:0"], capture_output=True, text=True)
        print(f"./workbook {' '.join(argv)} --slurm: exit {remote.returncode}\n{remote.stdout}"
              f"{remote.stderr}", end="")
        check.expect(local.returncode == status and remote.returncode == status,
                     f"./workbook {' '.join(argv)}: exit {local.returncode} here, "
                     f"{remote.returncode} through Slurm (expected {status})")
        check.expect(remote.stdout == local.stdout + local.stderr,
                     f"./workbook {' '.join(argv)} --slurm printed what it prints here")


def run(args, tmp, check):
    student(check)
    submissions = tmp / "class"
    make_class(submissions)
    local, out = tmp / "local", tmp / "slurm-out"
    code, _ = grade(submissions, local, argparse.Namespace(work=args.work,
                                                          cmake_arg=args.cmake_arg, gpu=False))
    check.expect(code == 0, f"the local batch exited {code}")

    code, said = slurm_grade(submissions, out, args, "--dry-run")
    check.expect(code == 0 and f"#SBATCH --array=0-{len(CLASS) - 1}%1" in said
                 and not out.exists(),
                 "the dry run prints the array script and writes nothing")

    code, _ = slurm_grade(submissions, out, args)
    check.expect(code == 0, f"the Slurm submission exited {code}")
    record = gslurm.load_record(out)
    if not check.expect(record is not None, "slurm.json was written"):
        return
    first = record["rounds"][0]
    victim = first["tasks"]["0"][0]
    task = f"{first['array']}_0"
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        state = queued([first["array"]]).get(task, ("GONE", ""))[0]
        if state != "PENDING":
            break
        time.sleep(0.2)
    check.expect(state == "RUNNING", f"task {task} was seen running (it was {state})")
    time.sleep(1)
    subprocess.run(["scancel", task], check=False)
    print(f"cancelled task {task} ({victim}) while it ran", flush=True)
    wait_until_gone([first["array"], first["merge"]], check)
    show_logs(out)
    check.expect(not (out / victim / gr.RESULTS).exists(),
                 f"the cancelled {victim} has no results.json")
    for name in CLASS:
        if name != victim:
            check.expect((out / name / gr.RESULTS).exists(), f"{name} was graded by its task")
    check.expect((out / gr.GRADEBOOK).exists(), "the merge job wrote gradebook.csv")
    lines = []
    counts = gslurm.status(out, log=lines.append)
    print("\n".join(lines))
    check.expect(counts is not None and [n for n, _ in counts["failed"]] == [victim]
                 and len(counts["done"]) == len(CLASS) - 1,
                 f"--slurm-status: {len(CLASS) - 1} done and {victim} failed")
    check.expect(counts is not None and any("CANCELLED" in note for _, note in counts["failed"]),
                 "the failed task is reported with Slurm's state (CANCELLED)")

    stamps = {n: (out / n / gr.RESULTS).stat().st_mtime_ns for n in CLASS if n != victim}
    code, said = slurm_grade(submissions, out, args)
    check.expect(code == 0 and f"{len(CLASS) - 1} of {len(CLASS)} submissions already graded"
                 in said,
                 "the rerun submits only what is missing")
    record = gslurm.load_record(out)
    second = record["rounds"][-1]
    check.expect(len(record["rounds"]) == 2 and second["tasks"] == {"0": [victim]},
                 f"round 2 grades {victim} alone")
    wait_until_gone([second["array"], second["merge"]], check)
    show_logs(out)
    check.expect((out / victim / gr.RESULTS).exists(), f"the rerun graded {victim}")
    check.expect(all((out / n / gr.RESULTS).stat().st_mtime_ns == s for n, s in stamps.items()),
                 "the rerun left the graded ones alone")
    slurm_book = (out / gr.GRADEBOOK).read_text()
    local_book = (local / gr.GRADEBOOK).read_text()
    print("--- gradebook.csv through Slurm\n" + slurm_book, end="")
    check.expect(slurm_book == local_book,
                 f"the gradebooks differ; local:\n{local_book}")
    if not gcr.missing_packages():
        # The merge job draws the class report from the merged results.
        report = json.loads((out / gcr.REPORT_JSON).read_text()) \
            if (out / gcr.REPORT_JSON).exists() else {}
        check.expect(len(report.get("submissions", [])) == len(CLASS),
                     f"the last merge's class report lists {len(report.get('submissions', []))} "
                     f"submissions, not {len(CLASS)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", type=pathlib.Path, required=True)
    ap.add_argument("--cmake-arg", action="append", default=[])
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = ap.parse_args()
    args.work = args.work.resolve()
    missing = missing_tools()
    if missing:
        print(f"skipped: Slurm is not installed here ({', '.join(missing)} missing; Debian: "
              "apt-get install slurmctld slurmd slurm-client munge)")
        return 77
    if os.geteuid() != 0:
        print("skipped: the test cluster runs its daemons as root; run as root (CI does)")
        return 77
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="wb-slurm-"))
    cluster = tmp / "cluster"
    env = dict(os.environ, PATH=os.environ.get("PATH", "") + os.pathsep + "/usr/sbin")
    check = Checker()

    def stop_cluster():
        subprocess.run(["bash", str(CLUSTER), "stop", str(cluster)], env=env, check=False)

    def on_signal(signum, _frame):
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, on_signal)
    try:
        started = subprocess.run(["bash", str(CLUSTER), "start", str(cluster)], env=env,
                                 capture_output=True, text=True, timeout=120)
        if started.returncode != 0:
            print(started.stdout + started.stderr)
            print("FAIL: the test cluster did not start")
            return 1
        os.environ["SLURM_CONF"] = str(cluster / "slurm.conf")
        os.environ["PATH"] = env["PATH"]
        run(args, tmp, check)
    finally:
        # Cancel whatever is still queued, then stop the daemons.
        if "SLURM_CONF" in os.environ:
            subprocess.run(["scancel", "--user", "root"], check=False,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            # Let slurmd end the jobs' steps before it stops.
            for _ in range(30):
                said = subprocess.run(["squeue", "-h"], capture_output=True, text=True)
                if said.returncode != 0 or not said.stdout.strip():
                    break
                time.sleep(1)
        stop_cluster()
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return check.exit_status("grading through Slurm: ok")


if __name__ == "__main__":
    sys.exit(main())
