"""`./workbook [COMMAND ...] --slurm [-- SBATCH OPTIONS]`: the same command
as a Slurm job on a GPU node (README.md, "On a cluster with Slurm").

The job runs `./workbook COMMAND ...` in this checkout (which must be on a
file system the nodes see), asking for one GPU (`--gres=gpu:1`) unless the
sbatch options ask for GPUs themselves. `sbatch --wait` holds until it ends;
meanwhile its output (the same report a local run prints) is shown as the
job writes it, and the job's exit status is the command's.
"""
import os
import pathlib
import shlex
import subprocess
import sys
import time

from student.i18n import t

SEPARATOR = "--"
FLAG = "--slurm"
GPU_OPTIONS = ("--gres", "--gpus", "-G", "--gpus-per-node", "--gpus-per-task")


def split_argv(argv):
    """(the workbook's own arguments, sbatch options) when argv has --slurm,
    else (argv, None). sbatch options follow `--`."""
    if FLAG not in argv:
        return list(argv), None
    argv = list(argv)
    options = []
    if SEPARATOR in argv:
        cut = argv.index(SEPARATOR)
        argv, options = argv[:cut], argv[cut + 1:]
    return [a for a in argv if a != FLAG], options


def asks_for_gpus(options):
    return any(o == g or o.startswith(g + "=") for o in options for g in GPU_OPTIONS)


def job_script(root, python, argv, gpu=True):
    lines = ["#!/bin/bash", "#SBATCH --job-name=workbook", "#SBATCH --ntasks=1"]
    if gpu:
        lines.append("#SBATCH --gres=gpu:1")
    lines += ["# Written by ./workbook --slurm (student/cluster.py).",
              f"cd {shlex.quote(str(root))}",
              "exec " + shlex.join([python, str(pathlib.Path(root) / "workbook"), *argv]), ""]
    return "\n".join(lines)


def sbatch_command(script, log, options):
    return ["sbatch", "--wait", "--parsable", f"--output={log}", *options, str(script)]


def _show_new(log, offset, out):
    try:
        with open(log, "rb") as handle:
            handle.seek(offset)
            data = handle.read()
    except OSError:
        return offset
    if data:
        out.write(data.decode("utf-8", errors="replace"))
        out.flush()
    return offset + len(data)


def run(root, argv, options, python=sys.executable, out=sys.stdout, poll=1.0):
    """Submit `./workbook argv` as a job, show its output as it comes, and
    return its exit status (sbatch --wait's)."""
    folder = pathlib.Path(root) / "build-slurm"
    folder.mkdir(parents=True, exist_ok=True)
    stamp = f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
    script, log = folder / f"job-{stamp}.sh", folder / f"job-{stamp}.log"
    script.write_text(job_script(root, python, argv, gpu=not asks_for_gpus(options)))
    cmd = sbatch_command(script, log, options)
    print("+ " + shlex.join(cmd), file=sys.stderr, flush=True)
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as err:
        print(t("slurm.no_sbatch", err=err), file=sys.stderr)
        return 2
    offset = 0
    while proc.poll() is None:
        offset = _show_new(log, offset, out)
        time.sleep(poll)
    stdout, stderr = proc.communicate()
    _show_new(log, offset, out)
    if proc.returncode != 0 and stderr.strip():
        print(stderr.strip(), file=sys.stderr)
    job = stdout.strip().split(";")[0]
    print(t("slurm.ended", job=job or "?", rc=proc.returncode, log=log), file=sys.stderr)
    return proc.returncode
