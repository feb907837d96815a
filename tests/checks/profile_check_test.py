#!/usr/bin/env python3
"""tests/checks/profile_check.py on a stand-in Nsight Compute, without a GPU:
a script named `ncu` first on PATH writes the raw page of a report to the
--log-file it is given, with the values this test chose, and prints a
forged row of its own on stdout (which must not count), so every verdict of
the check (the bank model, the method counters, the constant model, a wrong
kernel) is decided from the report file alone; and a section's batch
(batch_cases). CTest:
workbook.profile_check_reads_the_report (label host)."""
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHECK = ROOT / "tests" / "checks" / "profile_check.py"

# The stand-in: the report's header and units rows, then one launch of the
# kernel with the values of FAKE_VALUES ("metric=value,..."); exits with
# FAKE_EXIT, as ncu passes on the runner's status.
FAKE_NCU = r'''#!/usr/bin/env python3
import os, sys
args = sys.argv[1:]
log = args[args.index("--log-file") + 1]
# The reference build's kernel (WB_MODULES=/reference) has values of its own.
chosen = ("FAKE_REFERENCE_VALUES" if os.environ.get("WB_MODULES") == "/reference"
          else "FAKE_VALUES")
values = dict(item.split("=") for item in os.environ.get(chosen, "").split(",") if item)
if "source" in args:
    # The SASS view of the source page: the kernel's first instruction (its
    # 4 warps), one shared load and one shared store whose predicated-on
    # lanes are LDS_LANES and STS_LANES, and the memory columns unless
    # FAKE_NO_MEMORY_COLUMNS.
    columns = ["Address", "Source", "Instructions Executed", "Thread Instructions Executed"]
    memory = ["Predicated-On Thread Instructions Executed", "Address Space", "Access Operation",
              "Access Size"]
    lanes = values.get("LDS_LANES", "1020")
    rows = [["0x0", "LDC R1, c[0x0][0x28]", "4", "128", "128", "-", "-", "-"],
            ["0x10", "LDS R2, [R4]", "40", "1280", lanes, "Shared", "Load", "32"],
            ["0x18", "STS [R4], R2", "40", "1280", values.get("STS_LANES", "1020"), "Shared",
             "Store", "32"],
            ["0x20", "EXIT", "4", "128", "128", "-", "-", "-"]]
    if os.environ.get("FAKE_NO_MEMORY_COLUMNS"):
        rows = [r[:4] for r in rows]
    else:
        columns += memory
    with open(log, "w") as out:
        out.write('"Kernel Name","wb::reduction::reduceSmem(int *, int *, unsigned int)",\n')
        for fields in [columns] + rows:
            out.write(",".join('"%s"' % f for f in fields) + "\n")
    sys.exit(int(os.environ.get("FAKE_EXIT", "0")))
metrics = args[args.index("--metrics") + 1].split(",")
# A metric this GPU's ncu does not count has no column (FAKE_OMIT).
metrics = [m for m in metrics if m not in os.environ.get("FAKE_OMIT", "").split(",")]
header = ["ID", "Kernel Name"] + metrics
units = ["", ""] + ["" for _ in metrics]
row = ["0", os.environ["FAKE_KERNEL"] + "(int *, int *, unsigned int)"] + [
    values.get(m, "0") for m in metrics]
with open(log, "w") as out:
    out.write("==PROF== Connected to process\n")
    for fields in (header, units, row):
        out.write(",".join('"%s"' % f for f in fields) + "\n")
print('"ID","Kernel Name","smsp__thread_inst_executed_per_inst_executed.ratio"')
print('"0","reduceSmem","32"')
print(os.environ.get("FAKE_SAYS", ""))
sys.exit(int(os.environ.get("FAKE_EXIT", "0")))
'''


def run_check(folder, values, *options, exit_status=0, says="", omit=(), **more_env):
    env = dict(os.environ, **more_env, PATH=f"{folder}:{os.environ.get('PATH', '')}",
               FAKE_OMIT=",".join(omit),
               FAKE_VALUES=",".join(f"{k}={v}" for k, v in values.items()),
               FAKE_KERNEL="wb::reduction::reduceSmem", FAKE_EXIT=str(exit_status),
               FAKE_SAYS=says,
               FAKE_REFERENCE_VALUES=",".join(f"{k}={v}" for k, v in REFERENCE.items()))
    proc = subprocess.run([sys.executable, str(CHECK), "--runner", "/bin/true", "--kernel",
                           "reduction/reduceSmem", "--name", "wb::reduction::reduceSmem",
                           *options], capture_output=True, text=True, env=env, timeout=60)
    return proc.returncode, proc.stdout + proc.stderr


ACTIVE = "smsp__thread_inst_executed_per_inst_executed.ratio"
EFFICIENCY = "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"
COUNTERS = ("--min-active-threads", "24", "--min-global-load-efficiency", "80")
INSTRUCTIONS = "smsp__inst_executed.sum"
THREAD_INSTRUCTIONS = "smsp__thread_inst_executed.sum"
SHARED_BYTES = "smsp__sass_data_bytes_mem_shared_op_ld.sum"
# The reference reduceSmemDyn's work on the runner's launch (an H100).
REFERENCE = {INSTRUCTIONS: "624", "smsp__sass_inst_executed_op_global_ld.sum": "14",
             "smsp__inst_executed_op_shared_ld.sum": "80", THREAD_INSTRUCTIONS: "19348",
             SHARED_BYTES: "4080"}
AGAINST_THE_REFERENCE = COUNTERS + ("--reference-modules", "/reference")

# (what, values, options, exit status of the runner, its output, expected
# exit of the check, a phrase the check's output must hold)
CASES = [
    ("a tree, coalesced", {ACTIVE: "31.0", EFFICIENCY: "99.1"}, COUNTERS, 0, "", 0,
     "active threads per warp instruction 31.0 of 32, at least 24"),
    ("a serial sum", {ACTIVE: "14.4", EFFICIENCY: "99.1"}, COUNTERS, 0, "", 1,
     "FAILED reduction/reduceSmem: active threads per warp instruction 14.4 of 32, "
     "expected at least 24"),
    ("uncoalesced loads", {ACTIVE: "31.3", EFFICIENCY: "25.0"}, COUNTERS, 0, "", 1,
     "FAILED reduction/reduceSmem: global-load efficiency 25% of the bytes fetched"),
    ("a wrong kernel", {ACTIVE: "31.0", EFFICIENCY: "99.1"}, COUNTERS, 1,
     "WRONG reduction/reduceSmem: 3 of 4 partial sums differ", 1,
     "the kernel must be correct before its technique is graded"),
    ("a tree doing the reference's work", {ACTIVE: "31.0", EFFICIENCY: "99.1",
                                            INSTRUCTIONS: "650", THREAD_INSTRUCTIONS: "20000",
                                            SHARED_BYTES: "5632"},
     AGAINST_THE_REFERENCE, 0, "", 0,
     "warp instructions executed 650, the reference's 624 (at most 4 times)"),
    ("a tree's idle lanes", {ACTIVE: "31.0", EFFICIENCY: "99.1", INSTRUCTIONS: "650",
                             THREAD_INSTRUCTIONS: "20000", SHARED_BYTES: "5632"},
     AGAINST_THE_REFERENCE, 0, "", 0,
     "lanes left idle by the warp instructions executed 800, the reference's 620 "
     "(at most 4 times)"),
    # Measured on an H100 (docs/results/method-counters-nvidia-h100.md).
    ("a serial sum padded only twofold", {ACTIVE: "25.6", EFFICIENCY: "99.1",
                                          INSTRUCTIONS: "1963", THREAD_INSTRUCTIONS: "50303",
                                          SHARED_BYTES: "2048"},
     AGAINST_THE_REFERENCE, 0, "", 1,
     "FAILED reduction/reduceSmem: lanes left idle by the warp instructions executed 12513, "
     "the reference's 620: more than 4 times"),
    ("every lane of a warp repeating the serial sum",
     {ACTIVE: "31.6", EFFICIENCY: "99.1", INSTRUCTIONS: "712", THREAD_INSTRUCTIONS: "22500",
      SHARED_BYTES: "65536"},
     AGAINST_THE_REFERENCE, 0, "", 1,
     "FAILED reduction/reduceSmem: bytes loaded from shared memory 65536, the reference's "
     "4080: more than 4 times"),
    ("every lane repeating the serial sum by broadcast loads",
     {ACTIVE: "31.6", EFFICIENCY: "99.1", INSTRUCTIONS: "712", THREAD_INSTRUCTIONS: "22500",
      SHARED_BYTES: "4096", "LDS_LANES": "16388"},
     AGAINST_THE_REFERENCE, 0, "", 1,
     "FAILED reduction/reduceSmem: bytes the lanes loaded from shared memory, each lane "
     "counted 65552, the reference's 4080: more than 2 times"),
    # The mutant reduceSmem__raking_then_every_lane_resums_32_columns: warp 0
    # adds columns (4 loads a lane), then each lane re-adds the 32 sums by 8
    # int4 loads: 4,608 bytes a block.
    ("raking with every lane re-adding the column sums",
     {ACTIVE: "31.0", EFFICIENCY: "99.1", INSTRUCTIONS: "650", THREAD_INSTRUCTIONS: "20000",
      SHARED_BYTES: "4096", "LDS_LANES": "4608"},
     AGAINST_THE_REFERENCE, 0, "", 1,
     "FAILED reduction/reduceSmem: bytes the lanes loaded from shared memory, each lane "
     "counted 18432, the reference's 4080: more than 2 times"),
    ("a tree's lanes' shared bytes", {ACTIVE: "31.0", EFFICIENCY: "99.1", INSTRUCTIONS: "650",
                                      THREAD_INSTRUCTIONS: "20000", SHARED_BYTES: "5632",
                                      "LDS_LANES": "1408"},
     AGAINST_THE_REFERENCE, 0, "", 0,
     "bytes the lanes loaded from shared memory, each lane counted 5632, the reference's "
     "4080 (at most 2 times)"),
    # The mutant reduceSmem__values_never_in_shared_memory_warp0_rakes_global:
    # 64 stores of 4 bytes by the lanes of warp 0 in each block.
    ("values that never go through shared memory",
     {ACTIVE: "31.0", EFFICIENCY: "99.1", INSTRUCTIONS: "650", THREAD_INSTRUCTIONS: "20000",
      SHARED_BYTES: "4096", "STS_LANES": "256"},
     AGAINST_THE_REFERENCE, 0, "", 1,
     "FAILED reduction/reduceSmem: bytes the lanes stored to shared memory, each lane counted "
     "1024, the reference's 4080: less than 0.6 times the reference's on the same launch"),
    ("values stored but never added from shared memory",
     {ACTIVE: "31.0", EFFICIENCY: "99.1", INSTRUCTIONS: "650", THREAD_INSTRUCTIONS: "20000",
      SHARED_BYTES: "4096", "LDS_LANES": "288"},
     AGAINST_THE_REFERENCE, 0, "", 1,
     "FAILED reduction/reduceSmem: bytes the lanes loaded from shared memory, each lane counted "
     "1152, the reference's 4080: less than 0.6 times"),
    # The mutant reduceSmem__serial_sum_with_31_lanes_predicated_off: the
    # values stored once, then loaded once by lane 0 (LDS.128).
    ("one lane's serial sum issued by the whole warp",
     {ACTIVE: "31.0", EFFICIENCY: "99.1", INSTRUCTIONS: "650", THREAD_INSTRUCTIONS: "20000",
      SHARED_BYTES: "2048", "LDS_LANES": "512", "STS_LANES": "516"},
     AGAINST_THE_REFERENCE, 0, "", 1,
     "FAILED reduction/reduceSmem: bytes the lanes stored to shared memory, each lane counted "
     "2064, the reference's 4080: less than 0.6 times"),
    ("a tree's lanes' stored bytes", {ACTIVE: "31.0", EFFICIENCY: "99.1", INSTRUCTIONS: "650",
                                      THREAD_INSTRUCTIONS: "20000", SHARED_BYTES: "4096",
                                      "STS_LANES": "764"},
     AGAINST_THE_REFERENCE, 0, "", 0,
     "bytes the lanes stored to shared memory, each lane counted 3056, the reference's "
     "4080 (at least 0.6 times)"),
    ("a serial sum padded with full-warp work", {ACTIVE: "31.9", EFFICIENCY: "99.1",
                                                 INSTRUCTIONS: "148256"},
     AGAINST_THE_REFERENCE, 0, "", 1,
     "FAILED reduction/reduceSmem: warp instructions executed 148256, the reference's 624: "
     "more than 4 times the reference's work"),
    ("no bank conflict", {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "64",
                          "smsp__inst_executed_op_shared_ld.sum": "64"},
     ("--load", "1"), 0, "", 0, "shared load wavefronts per request 1.00 = expected 1.00"),
    ("a 32-way conflict", {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "2048",
                           "smsp__inst_executed_op_shared_ld.sum": "64"},
     ("--load", "1"), 0, "", 1, "shared load wavefronts per request 32.00, expected 1.00"),
    ("a broadcast", {"idc__requests.sum": "128"},
     ("--constant-passes", "1", "--constant-requests", "128"), 0, "", 0,
     "constant-cache requests per warp-level load 1.00"),
]


# A section's batch (--batch, then --from-batch): a stand-in runner that
# lists two kernels of one section with the same function name (as
# square_setRowReadCol and rect_setRowReadCol are) and answers the plain
# run before the batch (--status, FAKE_STATUS), and a stand-in ncu for
# `runner --status FILE ID...` that writes the status file (FAKE_STATUS:
# "id=word,...", default ok) and a raw page where a marker launch precedes
# each kernel's, the values of kernel i being FAKE_BATCH_i (and prints, as a
# kernel's printf could, a byte that is not UTF-8). Run without
# --batch, the stand-in ncu fails loudly: a check that should have read the
# batch's values must not run it.
# The stand-in runners' plain run (--status FILE ID...), before their listing.
RUNNER_STATUS = r'''#!/usr/bin/env python3
import json, os, sys
if sys.argv[1:2] == ["--status"]:   # the plain run before the batch
    words = dict(item.split("=") for item in os.environ.get("FAKE_STATUS", "").split(",") if item)
    with open(sys.argv[2], "a") as out:
        for kernel in sys.argv[3:]:
            out.write(f"{kernel} {words.get(kernel, 'ok')}\n")
'''
FAKE_RUNNER = RUNNER_STATUS + r'''if sys.argv[1:] == ["--list"]:
    kernels = [dict(section="layout", id=i, exercise="setRowReadCol", name=f"wb::layout::{s}::setRowReadCol",
                    sharedLoadWays=1, sharedStoreWays=1, globalStoreSectors=None, constantPasses=None,
                    constantRequests=None, minActiveThreadsPerInstruction=None,
                    minGlobalLoadEfficiency=None, minShufflesPerWarp=None, maxShufflesPerWarp=None)
               for i, s in (("square_setRowReadCol", "square"), ("rect_setRowReadCol", "rect"))]
    print(json.dumps(kernels))
'''

FAKE_BATCH_NCU = r'''#!/usr/bin/env python3
import os, sys
args = sys.argv[1:]
if "--status" not in args:
    print("the stand-in was run for a single kernel", file=sys.stderr)
    sys.exit(3)
log = args[args.index("--log-file") + 1]
metrics = args[args.index("--metrics") + 1].split(",")
status = args[args.index("--status") + 1]
kernels = args[args.index("--status") + 2:]
words = dict(item.split("=") for item in os.environ.get("FAKE_STATUS", "").split(",") if item)
reference = os.environ.get("WB_MODULES") == "/reference"
rows, launch = [], 0
for i, kernel in enumerate(kernels):
    with open(status, "a") as out:
        out.write(f"{kernel} {words.get(kernel, 'ok')}\n")
    rows.append([str(launch), "wbRunnerKernelBoundary(int)"] + ["0" for _ in metrics]); launch += 1
    values = dict(item.split("=") for item in os.environ.get(
        "FAKE_REFERENCE" if reference else f"FAKE_BATCH_{i}", "").split(",") if item)
    rows.append([str(launch), "layout::setRowReadCol(int *)"] + [values.get(m, "0") for m in metrics])
    launch += 1
sys.stdout.buffer.write(b"a kernel's printf of a byte that is not UTF-8: \xff\n")
with open(log, "w") as out:
    for fields in [["ID", "Kernel Name"] + metrics, ["", ""] + ["" for _ in metrics]] + rows:
        out.write(",".join('"%s"' % f for f in fields) + "\n")
'''

# The shuffle counts of a section's batch: a stand-in runner listing two
# kernels whose shuffles are counted, and a stand-in ncu that, for
# `runner --status FILE ID...`, writes the SASS view of the source page as
# ncu does for several launches (a "Kernel Name" row before each launch's
# table: the marker's, then the kernel's twice, the first launch's counts
# being FAKE_SHFL_i = "warps,shuffles,lanes"); for a single kernel it fails
# loudly, as FAKE_BATCH_NCU does.
FAKE_SHUFFLE_RUNNER = RUNNER_STATUS + r'''if sys.argv[1:] == ["--list"]:
    print(json.dumps([dict(section="shuffle", id=k, exercise=k, name=f"wb::shuffle::{k}",
                           sharedLoadWays=None, sharedStoreWays=None, globalStoreSectors=None,
                           constantPasses=None, constantRequests=None,
                           minActiveThreadsPerInstruction=None, minGlobalLoadEfficiency=None,
                           minShufflesPerWarp=1, maxShufflesPerWarp=None)
                      for k in ("shflUp", "shflXor")]))
'''

FAKE_SASS_NCU = r'''#!/usr/bin/env python3
import os, sys
args = sys.argv[1:]
if "--status" not in args or "source" not in args:
    print("the stand-in was run for a single kernel", file=sys.stderr)
    sys.exit(3)
log = args[args.index("--log-file") + 1]
status = args[args.index("--status") + 1]
kernels = args[args.index("--status") + 2:]
words = dict(item.split("=") for item in os.environ.get("FAKE_STATUS", "").split(",") if item)
header = '"Address","Source","Instructions Executed","Thread Instructions Executed"'
lines = ["==PROF== Connected to process 1"]
def table(name, rows):
    lines.append('"Kernel Name","%s",' % name)
    lines.append(header)
    for i, (source, warp, lane) in enumerate(rows):
        lines.append('"0x%x","      %s","%s","%s",' % (16 * i, source, warp, lane))
for i, kernel in enumerate(kernels):
    with open(status, "a") as out:
        out.write(f"{kernel} {words.get(kernel, 'ok')}\n")
    table("wb::wbRunnerKernelBoundary(int)", [("EXIT", 1, 1)])
    warps, shuffles, lanes = os.environ[f"FAKE_SHFL_{i}"].split(",")
    name = "wb::shuffle::%s(const int *, int *, int, int)" % kernel.split("/")[1]
    for launch in range(2):
        table(name, [("LDC R1, c[0x0][0x28]", warps, int(warps) * 32),
                     ("SHFL.BFLY PT, R5, R2, 0x1, 0x1f", shuffles if launch == 0 else 999,
                      lanes if launch == 0 else 999),
                     ("EXIT", warps, int(warps) * 32)])
print("a kernel's printf: " + header)
with open(log, "w") as out:
    out.write("\n".join(lines) + "\n")
'''


class StandIns:
    """A folder with a stand-in ncu first on PATH, a stand-in runner, and
    module files of `exercises` ("section/name") in an implementation's and
    the reference's module folder; batch() runs a section's batch there
    (--batch, --reference-batch), check() one check with --from-batch."""

    def __init__(self, folder, ncu, runner, exercises, **env):
        bin_dir, self.modules, self.reference, self.kept = (
            folder / d for d in ("bin", "modules", "reference", "kept"))
        self.folder = folder
        bin_dir.mkdir(parents=True)
        for path, text in ((bin_dir / "ncu", ncu), (folder / "wb_run", runner)):
            path.write_text(text)
            path.chmod(0o755)
        for d in (self.modules, self.reference):
            for exercise in exercises:
                (d / f"{exercise}.fatbin").parent.mkdir(parents=True, exist_ok=True)
                (d / f"{exercise}.fatbin").write_bytes(b"module")
        self.env = dict(os.environ, PATH=f"{bin_dir}:{os.environ.get('PATH', '')}",
                        WB_MODULES=str(self.modules), **env)
        self.common = ["--runner", str(folder / "wb_run"), "--reference-modules",
                       str(self.reference)]

    def batch(self, section, **env):
        return subprocess.run([sys.executable, str(CHECK), *self.common, "--batch",
                               str(self.kept), "--section", section, "--reference-batch",
                               str(self.folder / "kept-reference")],
                              capture_output=True, text=True, env=dict(self.env, **env),
                              timeout=60)

    def check(self, *options):
        return subprocess.run([sys.executable, str(CHECK), *self.common, *options,
                               "--from-batch", str(self.kept)],
                              capture_output=True, text=True, env=self.env, timeout=60)


def shuffle_batch_cases(folder):
    """[problem] of the shuffle counts kept by a section's batch: each
    kernel's from the first launch of its own segment, read by its check
    without an ncu run; a kernel the runner found wrong is counted alone."""
    problems = []
    stand_ins = StandIns(folder, FAKE_SASS_NCU, FAKE_SHUFFLE_RUNNER,
                         ["shuffle/shflUp", "shuffle/shflXor"],
                         FAKE_SHFL_0="8,8,256", FAKE_SHFL_1="8,8,200")

    def batch(**env):
        return stand_ins.batch("shuffle", **env)

    def check(kernel):
        return stand_ins.check("--kernel", f"shuffle/{kernel}", "--name",
                               f"wb::shuffle::{kernel}", "--min-shuffles-per-warp", "1")

    run = batch()
    if run.returncode != 0 or "2 of 2 kernel(s) kept" not in run.stdout:
        problems.append(f"shuffle batch: exit {run.returncode}, expected both kept:\n"
                        f"{run.stdout}{run.stderr}")
    for kernel, rc, phrase in (("shflUp", 0, "shuffles executed per warp 1.00 (8 by 8 warps)"),
                               ("shflXor", 1, "lanes taking part in each shuffle 25.00 of 32")):
        got = check(kernel)
        if got.returncode != rc or phrase not in got.stdout:
            problems.append(f"{kernel} from the shuffle batch: exit {got.returncode} (expected "
                            f"{rc}), output without '{phrase}':\n{got.stdout}{got.stderr}")
    run = batch(FAKE_STATUS="shuffle/shflUp=wrong")
    got = check("shflUp")
    # Counted alone: the stand-in, run for the single kernel, exits 3.
    if "1 of 2 kernel(s) kept" not in run.stdout or "runner exit 3" not in got.stdout:
        problems.append(f"a kernel the runner found wrong had its shuffles kept, or was not "
                        f"counted alone:\n{run.stdout}\n{got.stdout}{got.stderr}")
    return problems


LD_WAVEFRONTS = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
LD_REQUESTS = "smsp__inst_executed_op_shared_ld.sum"


def batch_cases(folder):
    """[problem] of the batch mode: the values of each kernel come from its
    own segment of the report, a kernel the runner found wrong is measured
    alone, and kept values stop standing once a module changes."""
    problems = []
    stand_ins = StandIns(folder, FAKE_BATCH_NCU, FAKE_RUNNER, ["layout/setRowReadCol"],
                         FAKE_BATCH_0=f"{LD_WAVEFRONTS}=64,{LD_REQUESTS}=64,{INSTRUCTIONS}=100",
                         FAKE_BATCH_1=f"{LD_WAVEFRONTS}=2048,{LD_REQUESTS}=64,{INSTRUCTIONS}=100",
                         FAKE_REFERENCE=f"{INSTRUCTIONS}=100")

    def batch(**env):
        return stand_ins.batch("layout", **env)

    def check(kernel, name):
        return stand_ins.check("--kernel", kernel, "--name", name, "--load", "1")

    square = ("layout/square_setRowReadCol", "wb::layout::square::setRowReadCol")
    rect = ("layout/rect_setRowReadCol", "wb::layout::rect::setRowReadCol")
    run = batch()
    if run.returncode != 0 or "2 of 2 kernel(s) kept" not in run.stdout:
        problems.append(f"batch: exit {run.returncode}, expected both kept:\n{run.stdout}{run.stderr}")
    for (kernel, name), rc, phrase in ((square, 0, "wavefronts per request 1.00"),
                                       (rect, 1, "wavefronts per request 32.00")):
        got = check(kernel, name)
        if got.returncode != rc or phrase not in got.stdout:
            problems.append(f"{kernel} from the batch: exit {got.returncode} (expected {rc}), "
                            f"output without '{phrase}':\n{got.stdout}{got.stderr}")
    run = batch(FAKE_STATUS="layout/square_setRowReadCol=wrong")
    got = check(*square)
    if "1 of 2 kernel(s) kept" not in run.stdout or "single kernel" not in got.stdout + got.stderr:
        problems.append(f"a kernel the runner found wrong was kept or not measured alone:\n"
                        f"{run.stdout}\n{got.stdout}{got.stderr}")
    batch()
    (stand_ins.modules / "layout" / "setRowReadCol.fatbin").write_bytes(b"another module")
    got = check(*rect)
    if "single kernel" not in got.stdout + got.stderr:
        problems.append(f"values kept before the module changed were read:\n{got.stdout}")
    return problems


def main():
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        problems += batch_cases(pathlib.Path(tmp) / "batch")
        problems += shuffle_batch_cases(pathlib.Path(tmp) / "shuffle-batch")
        folder = pathlib.Path(tmp)
        ncu = folder / "ncu"
        ncu.write_text(FAKE_NCU)
        ncu.chmod(0o755)
        for what, values, options, runner_exit, says, expected, phrase in CASES:
            rc, out = run_check(folder, values, *options, exit_status=runner_exit, says=says)
            if rc != expected or phrase not in out:
                problems.append(f"{what}: exit {rc} (expected {expected}), output without "
                                f"'{phrase}':\n{out}")
        # An ncu that does not count the shared bytes (an older GPU's): the
        # bound says so and the other counters still grade.
        values = {ACTIVE: "31.0", EFFICIENCY: "99.1", INSTRUCTIONS: "650",
                  THREAD_INSTRUCTIONS: "20000"}
        rc, out = run_check(folder, values, *AGAINST_THE_REFERENCE, omit=(SHARED_BYTES,))
        if rc != 0 or "not counted by this GPU's Nsight Compute" not in out:
            problems.append(f"shared bytes not counted: exit {rc}, expected 0 and the "
                            f"bound said not graded:\n{out}")
        # A source page without the memory columns: the lanes' own bytes
        # are not graded, the rest still is.
        values[SHARED_BYTES] = "5632"
        rc, out = run_check(folder, values, *AGAINST_THE_REFERENCE, FAKE_NO_MEMORY_COLUMNS="1")
        if rc != 0 or "each lane counted: not counted by this GPU's Nsight Compute" not in out:
            problems.append(f"lanes' shared bytes not counted: exit {rc}, expected 0 and the "
                            f"bound said not graded:\n{out}")
    for p in problems:
        print("PROBLEM " + p)
    if not problems:
        print(f"{len(CASES)} verdicts of the profile check, each from the report file alone; "
              f"a section's batch keeps each kernel's values from its own segment, and only "
              f"while they hold")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
