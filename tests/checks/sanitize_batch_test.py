#!/usr/bin/env python3
"""tests/checks/sanitize_check.py's section batch on stand-ins, without a
GPU: a stand-in runner (a listing of two kernels of one section and the
--status run, printing a byte that is not UTF-8 as a kernel's printf could) and a stand-in compute-sanitizer that writes a report file
with the findings this test chose and notes each tool it ran for a single
kernel. Checks that a batch keeps memcheck, synccheck and initcheck as
clean only where its whole run was clean, never racecheck, and, limited
to some exercises (WB_BATCH_EXERCISES), only their kernels; that a check
then runs alone exactly the other tools; and that a kernel wrong on the
plain run, or a changed module, keeps nothing; and that a kernel whose run
prints more than nsight.OUTPUT_LIMIT fails, its output not kept. CTest:
workbook.sanitize_batch_keeps_only_clean_runs (label host)."""
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHECK = ROOT / "tests" / "checks" / "sanitize_check.py"

FAKE_RUNNER = r'''#!/usr/bin/env python3
import json, os, sys
if sys.argv[1:] == ["--list"]:
    print(json.dumps([{"section": "reduction", "id": e, "exercise": e, "name": "wb::reduction::" + e}
                      for e in ("reduceSmem", "reduceSmemDyn")]))
    sys.exit(0)
words = dict(i.split("=") for i in os.environ.get("FAKE_STATUS", "").split(",") if i)
if os.environ.get("FAKE_FLOOD") in sys.argv:
    # A kernel's printf with a huge field width: more than the checks keep.
    for _ in range(10):
        sys.stdout.buffer.write(b"x" * (1 << 20))
if sys.argv[1] == "--status":
    sys.stdout.buffer.write(b"a kernel's printf of a byte that is not UTF-8: \xff\n")
    with open(sys.argv[2], "a") as out:
        for kernel in sys.argv[3:]:
            out.write(f"{kernel} {words.get(kernel, 'ok')}\n")
    sys.exit(1 if any(words.get(k, "ok") != "ok" for k in sys.argv[3:]) else 0)
sys.exit(1 if words.get(sys.argv[1], "ok") != "ok" else 0)
'''

# FAKE_FINDINGS: the tools whose run of several kernels reports a finding.
FAKE_SANITIZER = r'''#!/usr/bin/env python3
import os, subprocess, sys
args = sys.argv[1:]
tool = args[args.index("--tool") + 1]
log = args[args.index("--log-file") + 1]
runner = next(i for i, a in enumerate(args) if a.endswith("wb_run"))
command = args[runner:]
several = "--status" in command
found = several and tool in os.environ.get("FAKE_FINDINGS", "").split(",")
if not several:
    with open(os.environ["FAKE_ALONE_LOG"], "a") as out:
        out.write(f"{tool} {command[1]}\n")
rc = subprocess.run(command).returncode
with open(log, "w") as out:
    out.write("========= COMPUTE-SANITIZER\n")
    if found:
        out.write("========= Invalid __global__ write of size 4 bytes\n")
    out.write(f"========= ERROR SUMMARY: {1 if found else 0} error{'' if found else 's'}\n")
sys.exit(99 if found else rc)
'''


def main():
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp)
        bin_dir, modules = folder / "bin", folder / "modules" / "reduction"
        bin_dir.mkdir()
        modules.mkdir(parents=True)
        runner = folder / "wb_run"
        for path, text in ((runner, FAKE_RUNNER), (bin_dir / "compute-sanitizer", FAKE_SANITIZER)):
            path.write_text(text)
            path.chmod(0o755)
        for exercise in ("reduceSmem", "reduceSmemDyn"):
            (modules / f"{exercise}.fatbin").write_bytes(b"module")
        alone = folder / "alone.log"
        kept = folder / "kept"
        env = dict(os.environ, PATH=f"{bin_dir}:{os.environ.get('PATH', '')}",
                   WB_MODULES=str(folder / "modules"), FAKE_ALONE_LOG=str(alone))

        def run(*options, **extra):
            return subprocess.run([sys.executable, str(CHECK), "--runner", str(runner), *options],
                                  capture_output=True, text=True, env=dict(env, **extra),
                                  timeout=60)

        def alone_tools(kernel, **extra):
            alone.write_text("")
            got = run("--kernel", kernel, "--from-batch", str(kept), **extra)
            tools = sorted(line.split()[0] for line in alone.read_text().splitlines())
            return got, tools

        cases = [
            ("a clean section", {}, "reduction/reduceSmem", ["racecheck"]),
            ("memcheck finds something in the section's run", {"FAKE_FINDINGS": "memcheck"},
             "reduction/reduceSmemDyn", ["memcheck", "racecheck"]),
            ("a kernel wrong on the plain run",
             {"FAKE_STATUS": "reduction/reduceSmem=wrong"}, "reduction/reduceSmem",
             ["initcheck", "memcheck", "racecheck", "synccheck"]),
        ]
        for what, extra, kernel, expected in cases:
            batch = run("--batch", str(kept), "--section", "reduction", **extra)
            got, tools = alone_tools(kernel, **extra)
            if batch.returncode != 0 or tools != expected:
                problems.append(f"{what}: the check ran alone {tools}, expected {expected}\n"
                                f"{batch.stdout}{batch.stderr}\n{got.stdout}{got.stderr}")
        # Limited by the grader to one exercise's kernels: the other's
        # check finds nothing kept and runs every tool alone.
        batch = run("--batch", str(kept), "--section", "reduction",
                    WB_BATCH_EXERCISES="reduction/reduceSmemDyn")
        for kernel, expected in (("reduction/reduceSmemDyn", ["racecheck"]),
                                 ("reduction/reduceSmem",
                                  ["initcheck", "memcheck", "racecheck", "synccheck"])):
            got, tools = alone_tools(kernel)
            if tools != expected:
                problems.append(f"a batch limited to reduceSmemDyn: {kernel}'s check ran alone "
                                f"{tools}, expected {expected}\n{batch.stdout}\n{got.stdout}")
        run("--batch", str(kept), "--section", "reduction")
        (modules / "reduceSmem.fatbin").write_bytes(b"another module")
        got, tools = alone_tools("reduction/reduceSmem")
        if tools != ["initcheck", "memcheck", "racecheck", "synccheck"]:
            problems.append(f"after the module changed the check ran alone {tools}:\n{got.stdout}")
        # A kernel that floods its output: the batch keeps nothing, and the
        # check run alone fails, saying why, holding 8 MiB at most.
        batch = run("--batch", str(kept), "--section", "reduction",
                    FAKE_FLOOD="reduction/reduceSmem")
        got, tools = alone_tools("reduction/reduceSmem", FAKE_FLOOD="reduction/reduceSmem")
        if got.returncode != 1 or "printed more than 8 MiB" not in got.stdout \
                or len(got.stdout) > 1 << 20:
            problems.append(f"a kernel printing 10 MiB: exit {got.returncode}, expected 1 and "
                            f"'printed more than 8 MiB' ({len(got.stdout)} bytes):\n"
                            f"{batch.stdout[-2000:]}\n{got.stdout[-2000:]}{got.stderr[-2000:]}")
    for p in problems:
        print("PROBLEM " + p)
    if not problems:
        print("a section's batch keeps memcheck, synccheck and initcheck only where its whole run "
              "was clean and the kernel right, never racecheck, and only while the module holds; "
              "a kernel that prints 10 MiB fails")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
