"""Nsight Compute's source page: the lines of the student's file whose
shared-memory instructions take more wavefronts than they need (bank
conflicts), for the profile check's failure message.

Nsight Compute's SourceCounters section measures, per instruction, the
shared-memory wavefronts it took ("L1 Wavefronts Shared"), the wavefronts
its access pattern would need without conflicts ("L1 Wavefronts Shared
Ideal") and their difference ("L1 Wavefronts Shared Excessive"; the metric
behind it is derived__memory_l1_wavefronts_shared_excessive, and the
section's rule that points at "the L1 Wavefronts Shared Excessive table"
reads it). The source page prints them per line of CUDA source when it
is asked for the CUDA and the SASS view together:

  ncu --section SourceCounters --page source --print-source cuda,sass --csv \\
      -k regex:'(^|::)setRowReadCol$' -c 1 --log-file PAGE build/bin/wb_run layout/setRowReadCol

(source_command builds this line; --print-source cuda alone prints the
source without a metric column). The page is read from the file PAGE
alone: the runner's stdout also carries what the kernel prints, and a
kernel could print rows shaped like the page's. The page is a CSV table per function,
after rows that name the file and the function:

  "File Path","/home/student/workbook/starter/layout/setRowReadCol.cu"
  "Function Name","wb::layout::square::setRowReadCol(int *)"
  "Line No","Source","Address","Source",...,"L1 Wavefronts Shared Excessive","L1 Wavefronts Shared","L1 Wavefronts Shared Ideal",...
  "17","  out[g] = tile[threadIdx.x][threadIdx.y];","-","-",...,"992","1024","32",...
  "","...","-","-",...
  "","0x7f19697ad930","992","1024",...        (a SASS row: "Line No" empty)

SASS rows and elided ones ("...") have an empty "Line No" and are
skipped. A column is found by its name (the first of that name: the CUDA
"Source"), in whatever order and with whatever others the page holds;
numbers may carry thousands separators. Verified on an H100 with Nsight
Compute 2025.3.1 (tests/checks/data/ncu_source/ holds the pages it
printed). Where the page has none of the columns (an older ncu, a GPU
without the section), the reader says why and the check keeps its message
without lines.
"""
import csv
import dataclasses
import io
import math
import re

from wbcore import sanitizer_report

SECTION = "SourceCounters"
EXCESSIVE = "L1 Wavefronts Shared Excessive"
ACTUAL = "L1 Wavefronts Shared"
IDEAL = "L1 Wavefronts Shared Ideal"


class SourcePageError(RuntimeError):
    """The page holds no table this reader understands; the message says why."""


@dataclasses.dataclass
class SourceLine:
    path: str
    line: int
    source: str
    wavefronts: float
    ideal: float
    excessive: float


def source_command(ncu, runner, kernel, function_name, log_file=None):
    """The ncu command line that prints the source page of the launch of
    `function_name` (the kernel's name without its namespaces) by
    `runner kernel`, into log_file when given (ncu's lines and the page go
    there; the runner's output stays on stdout)."""
    pattern = f"regex:(^|::){re.escape(function_name)}$"
    cmd = [ncu, "--section", SECTION, "--page", "source", "--print-source", "cuda,sass",
           "--csv",
           "-k", pattern, "-c", "1"]
    if log_file:
        cmd += ["--log-file", log_file]
    return cmd + [runner, kernel]


def sass_command(ncu, runner, kernel, function_name, log_file=None):
    """The ncu command line that prints the SASS view of the source page of
    the launch of `function_name` by `runner kernel`: a row per machine
    instruction, with the times a warp executed it ("Instructions
    Executed"), into log_file when given."""
    pattern = f"regex:(^|::){re.escape(function_name)}$"
    cmd = [ncu, "--section", SECTION, "--page", "source", "--print-source", "sass", "--csv",
           "-k", pattern, "-c", "1"]
    if log_file:
        cmd += ["--log-file", log_file]
    return cmd + [runner, kernel]


def batch_sass_command(ncu, runner, kernel_ids, function_names, status_file, log_file):
    """The ncu command line that prints, in one process, the SASS view of
    the source page of every launch of the functions named (without their
    namespaces) by `runner --first-launches --status FILE ID...`, which launches several
    kernels, each after a launch of the marker kernel (the first of
    function_names): one table per launch, each after a "Kernel Name" row
    (tables_by_launch)."""
    names = "|".join(re.escape(n) for n in dict.fromkeys(function_names))
    # --first-launches: only the launch read is made, so the profiler
    # instruments one launch a kernel, not every argument set's.
    return [ncu, "--section", SECTION, "--page", "source", "--print-source", "sass", "--csv",
            "-k", f"regex:(^|::)({names})$", "--log-file", log_file,
            runner, "--first-launches", "--status", status_file, *kernel_ids]


KERNEL_NAME = "Kernel Name"


def tables_by_launch(text):
    """[(the launched function's name as ncu prints it, the text of its
    table)] of a source page that holds several launches, in launch order:
    ncu begins each launch's table with a row "Kernel Name","<name>". Rows
    before the first such row are left out."""
    launches = []
    for line in text.splitlines():
        if line.startswith(f'"{KERNEL_NAME}",'):
            row = next(csv.reader([line]), [])
            launches.append((row[1] if len(row) > 1 else "", []))
        elif launches and line.startswith('"'):
            launches[-1][1].append(line)
    return [(name, "\n".join(lines)) for name, lines in launches]


EXECUTED = "Instructions Executed"
THREADS_EXECUTED = "Thread Instructions Executed"
PREDICATED_ON_EXECUTED = "Predicated-On Thread Instructions Executed"
# What a memory instruction's row says, for the bytes its lanes loaded:
# "Shared", "Load", and the access size in bits.
MEMORY_COLUMNS = (PREDICATED_ON_EXECUTED, "Address Space", "Access Operation", "Access Size")


@dataclasses.dataclass
class Executions:
    """What a launch executed, per opcode, from the SASS view of the page."""
    warps: float    # the executions of the kernel's first instruction: one per warp
    by_warp: dict   # opcode -> warp-level executions
    by_lane: dict   # opcode -> thread-level executions (the lanes active each time)
    # The bytes the threads loaded from shared memory, each lane counted
    # (predicated-on lanes times the access size), where a broadcast counts
    # once in Nsight Compute's own shared-load bytes; NaN where the page has
    # no columns to count them from.
    shared_load_bytes_by_thread: float = math.nan
    # The same for the stores: the bytes the threads stored to shared memory.
    shared_store_bytes_by_thread: float = math.nan


def executed_by_opcode(text):
    """Executions of the SASS view of the source page of one launch: per
    opcode without its modifiers or predicate ("SHFL" for "@P0 SHFL.UP PT,
    R9, R2, R9, R0"), summed over every function table of the page (the
    kernel's, then any of a function it calls that Nsight Compute shows
    apart: a shuffle in a `__noinline__` helper is the launch's shuffle),
    with the executions of the kernel's first instruction (the first
    table's), which every warp of the launch executes once (no branch
    precedes it). Raises SourcePageError when the page holds no SASS table
    with the executions column."""
    rows = [l for l in text.splitlines() if l.startswith('"')]
    header = None
    warps = None
    counts = {}
    lanes = {}
    shared_bytes = {"Load": 0.0, "Store": 0.0}
    countable = True    # every table has the columns the shared bytes need
    for row in csv.reader(io.StringIO("\n".join(rows))):
        if not row:
            continue
        if _column(row, "Address") is not None and _column(row, EXECUTED) is not None:
            header = row     # the kernel's table, or a function's it calls
            countable = countable and all(_column(row, c) is not None for c in MEMORY_COLUMNS)
            continue
        if header is None:
            continue
        source = row[_column(header, "Source")] if len(row) > 1 else ""
        words = source.split()
        if words and words[0].startswith("@"):
            words = words[1:]
        if not words:
            continue
        executed = _number(row[_column(header, EXECUTED)]) if len(row) > 2 else 0.0
        threads_col = _column(header, THREADS_EXECUTED)
        threads = _number(row[threads_col]) if threads_col is not None and threads_col < len(row) \
            else 0.0
        if warps is None:
            warps = executed
        opcode = words[0].split(".")[0]
        counts[opcode] = counts.get(opcode, 0.0) + executed
        lanes[opcode] = lanes.get(opcode, 0.0) + threads
        operation = _cell(row, header, "Access Operation")
        if countable and _cell(row, header, "Address Space") == "Shared" \
                and operation in shared_bytes:
            shared_bytes[operation] += (_number(_cell(row, header, PREDICATED_ON_EXECUTED))
                                        * _number(_cell(row, header, "Access Size")) / 8)
    if header is None:
        raise SourcePageError(f"ncu printed no SASS table with the column '{EXECUTED}'")
    return Executions(warps or 0.0, counts, lanes,
                      shared_bytes["Load"] if countable else math.nan,
                      shared_bytes["Store"] if countable else math.nan)


def _cell(row, header, name):
    """The row's text in the header's column `name` ("" where there is none)."""
    i = _column(header, name)
    return row[i].strip() if i is not None and i < len(row) else ""


def _number(text):
    text = (text or "").replace(",", "").strip()
    if text in ("", "n/a", "-"):
        return 0.0
    try:
        return float(text)
    except ValueError:
        return 0.0


def _column(header, name):
    """The index of the column called `name` (case and spacing ignored), or None."""
    wanted = re.sub(r"\s+", " ", name).strip().lower()
    for i, h in enumerate(header):
        if re.sub(r"\s+", " ", h).strip().lower() == wanted:
            return i
    return None


def parse(text):
    """[SourceLine] of every CUDA source line the page gives shared-memory
    wavefronts for, in the page's order. Raises SourcePageError when the
    page holds no table with the excessive-wavefronts column."""
    rows = [l for l in text.splitlines() if l.startswith('"')]
    path = ""
    header = None
    found_table = False
    lines = []
    for row in csv.reader(io.StringIO("\n".join(rows))):
        if not row:
            continue
        if row[0] == "File Path":
            path = row[1] if len(row) > 1 else ""
            header = None
            continue
        if _column(row, "Line No") is not None and _column(row, EXCESSIVE) is not None:
            header = row
            found_table = True
            continue
        if _column(row, "Line No") is not None:   # a table without the column
            header = None
            continue
        if header is None:
            continue
        line_col = _column(header, "Line No")
        number = row[line_col].strip() if line_col < len(row) else ""
        if not number.isdigit():
            continue                               # a SASS row, or a blank one
        src_col = _column(header, "Source")

        def value(name):
            i = _column(header, name)
            return _number(row[i]) if i is not None and i < len(row) else 0.0
        entry = SourceLine(path, int(number),
                           row[src_col] if src_col is not None and src_col < len(row) else "",
                           value(ACTUAL), value(IDEAL), value(EXCESSIVE))
        if entry.wavefronts or entry.excessive:
            lines.append(entry)
    if not found_table:
        raise SourcePageError(f"ncu printed no source table with the column '{EXCESSIVE}'")
    return lines


def conflicting(lines):
    """The lines with excessive wavefronts, most first."""
    return sorted((l for l in lines if l.excessive > 0), key=lambda l: -l.excessive)


def describe(lines, sources=(), candidates=(), limit=4):
    """A line per source line with excessive wavefronts:
    "starter/layout/setRowReadCol.cu:26: 992 excess shared wavefronts (1024
    taken, 32 needed): out[idx] = tile[threadIdx.x][threadIdx.y];"."""
    out = []
    bad = conflicting(lines)
    for l in bad[:limit]:
        shown = sanitizer_report.display_path(l.path, sources, candidates) or "?"
        text = f"{shown}:{l.line}: {l.excessive:.0f} excess shared wavefronts"
        if l.wavefronts:
            text += f" ({l.wavefronts:.0f} taken, {l.ideal:.0f} needed)"
        code = " ".join(l.source.split())
        if code:
            text += f": {code[:90]}"
        out.append(text)
    if len(bad) > limit:
        out.append(f"... and {len(bad) - limit} more line(s)")
    return out
