"""The machine code (SASS) of a compiled exercise module, per kernel, with
the source line of each instruction, and the classes of instruction the
method checks count (wbcore/method.py).

A module (build/modules/<impl>/<section>/<name>.fatbin) holds one ELF
(cubin) per real architecture it was built for. `cuobjdump -xelf all`
writes those out, and `nvdisasm -gi -c` prints each one's code with the
line information the build compiles in (-lineinfo): before an instruction,
`//## File "PATH", line N` names its line, and for code inlined from a
helper or a CUDA header, `... inlined at "PATH", line M` the call site. No
GPU is needed. The two tools ship with the CUDA Toolkit, and as the PyPI
wheels nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm (pinned in
grader/requirements.txt), for a toolkit installed without them.

Both tools read a file the student's code produced, so they run in the
sandbox (wbcore/sandbox.py) where it starts, under a time limit, seeing the
module, a scratch folder and their own installation.

  python3 -m wbcore.sass MODULE.fatbin     prints each kernel's instructions
                                          with their classes and lines

Python 3.8+, standard library only.
"""
import dataclasses
import os
import pathlib
import re
import shutil
import site
import subprocess
import sys
import sysconfig
import tempfile

from wbcore import sandbox

ROOT = pathlib.Path(__file__).resolve().parents[1]
TOOLS = ("cuobjdump", "nvdisasm")
# The PyPI packages that carry the tools, as grader/requirements.txt pins them.
WHEELS = {"cuobjdump": "nvidia-cuda-cuobjdump", "nvdisasm": "nvidia-cuda-nvdisasm"}
REQUIREMENTS = ROOT / "grader" / "requirements.txt"
# Seconds one tool run may take: both take well under a second on a module.
TIMEOUT_SECONDS = 60
# Limits on a tool run: a module is a few tens of KB, its listing a few
# hundred; these are far above that and stop a damaged input from filling
# memory or disk.
MEMORY_MB = 2048
FILE_MB = 64


class ToolsMissing(RuntimeError):
    """cuobjdump or nvdisasm is not installed; the message says how to
    install them."""


class DisassemblyError(RuntimeError):
    """A tool failed on the module (a damaged file, a time limit)."""


def pinned_versions(requirements=REQUIREMENTS):
    """{package: version} of the tool wheels as the requirements file pins
    them (`name==version` lines); {} where it names none."""
    found = {}
    try:
        lines = pathlib.Path(requirements).read_text().splitlines()
    except OSError:
        return found
    for line in lines:
        m = re.match(r"\s*([A-Za-z0-9_.-]+)==([^\s#;]+)", line)
        if m and m.group(1).lower() in WHEELS.values():
            found[m.group(1).lower()] = m.group(2)
    return found


def install_line():
    """The command that installs the tools, at the pinned versions."""
    pins = pinned_versions()
    packages = " ".join(f"{w}=={pins[w]}" if w in pins else w for w in WHEELS.values())
    return f"python3 -m pip install {packages}"


def _site_folders():
    """The site-packages folders of the running Python (a virtual
    environment's first), where pip puts the wheels' files."""
    folders = []
    for key in ("purelib", "platlib"):
        folders.append(sysconfig.get_paths().get(key))
    try:
        folders += site.getsitepackages()
    except AttributeError:  # an old virtualenv's site module
        pass
    user = getattr(site, "getusersitepackages", lambda: None)()
    folders.append(user)
    seen = []
    for f in folders:
        if f and f not in seen and os.path.isdir(f):
            seen.append(f)
    return seen


def _wheel_candidates(tool):
    """Where the wheels install a tool: nvidia/cu<major>/bin (13.x), or
    nvidia/cuda_<tool>/bin in older layouts."""
    for folder in _site_folders():
        nvidia = pathlib.Path(folder) / "nvidia"
        if not nvidia.is_dir():
            continue
        for sub in sorted(nvidia.iterdir(), reverse=True):
            path = sub / "bin" / tool
            if path.is_file() and os.access(path, os.X_OK):
                yield path


def find_tool(tool):
    """The path of cuobjdump or nvdisasm: $WB_<TOOL> when set, else on
    PATH, else in the CUDA toolkit's bin folder, else where the PyPI wheel
    put it in this Python's environment. None when there is none."""
    named = os.environ.get(f"WB_{tool.upper()}")
    if named:
        return pathlib.Path(named) if os.access(named, os.X_OK) else None
    on_path = shutil.which(tool)
    if on_path:
        return pathlib.Path(on_path)
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if home:
            path = pathlib.Path(home) / "bin" / tool
            if path.is_file() and os.access(path, os.X_OK):
                return path
    return next(_wheel_candidates(tool), None)


def find_tools():
    """{tool: path} for cuobjdump and nvdisasm; ToolsMissing names the
    missing ones and the line that installs them."""
    found = {tool: find_tool(tool) for tool in TOOLS}
    missing = [tool for tool, path in found.items() if path is None]
    if missing:
        raise ToolsMissing(f"{' and '.join(missing)} not found (on PATH, in /usr/local/cuda/bin "
                           f"or in this Python's packages); install with: {install_line()}")
    return found


def tool_versions():
    """{tool: its --version's last line, or why there is none}: part of what
    a cached method-check outcome was judged with (grader/cache.py)."""
    said = {}
    for tool in TOOLS:
        path = find_tool(tool)
        if path is None:
            said[tool] = "not installed"
            continue
        try:
            done = subprocess.run([str(path), "--version"], capture_output=True, text=True,
                                  timeout=TIMEOUT_SECONDS)
            lines = (done.stdout or done.stderr).strip().splitlines()
            said[tool] = lines[-1] if lines else f"exit {done.returncode}"
        except (OSError, subprocess.TimeoutExpired) as err:
            said[tool] = f"failed: {err}"
    return said


def _run(argv, cwd, read_only, writable, unconfined):
    """One tool run, in the sandbox where it starts, under the limits."""
    return _finish(*_start(argv, cwd, read_only, writable, unconfined))


def _start(argv, cwd, read_only, writable, unconfined):
    """(process, argv) of a tool started in the sandbox where it starts,
    under the limits (_finish reads it): several run at once this way, with
    no thread (a preexec_fn is not safe beside threads)."""
    try:
        argv = sandbox.command(argv, read_only=read_only, writable=writable, cwd=cwd,
                               unconfined=unconfined)
    except sandbox.Unavailable:
        pass  # no sandbox here (a student's machine without bubblewrap)
    try:
        proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, errors="replace",
                                preexec_fn=sandbox.limits(cpu_seconds=TIMEOUT_SECONDS,
                                                          memory_mb=MEMORY_MB,
                                                          file_mb=FILE_MB))
    except OSError as err:
        raise DisassemblyError(f"{argv[0]} could not run: {err}") from None
    return proc, argv


def _finish(proc, argv):
    """The output of a tool _start started; DisassemblyError when it failed
    or ran past TIMEOUT_SECONDS (then it is killed)."""
    try:
        out, err = proc.communicate(timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise DisassemblyError(f"{pathlib.Path(argv[-1]).name}: the disassembler did not "
                               f"finish within {TIMEOUT_SECONDS} s") from None
    if proc.returncode != 0:
        said = (err or out).strip().splitlines()
        raise DisassemblyError(f"{pathlib.Path(argv[-1]).name}: exit {proc.returncode}"
                               + (f": {said[-1]}" if said else ""))
    return out


class Listing(tuple):
    """(architecture, nvdisasm listing) of one cubin, which unpacks as that
    pair, and `scalars`: {kernel's mangled name: [(first byte, last byte)]}
    of its parameters of at most 4 bytes in constant bank 0 (width, delta,
    lane, mask: not the pointers), from the cubin's .nv.info (cuobjdump
    -elf); None where not read. `params`: every parameter's bytes by
    ordinal (parameters()), or None."""
    def __new__(cls, arch, text, scalars=None, params=None):
        made = super().__new__(cls, (arch, text))
        made.scalars = scalars
        made.params = params
        return made


_PARAM_CBANK_RE = re.compile(r"Value:\s*0x[0-9a-f]+\s+0x([0-9a-f]+)", re.I)
_KPARAM_RE = re.compile(r"Ordinal\s*:\s*0x([0-9a-f]+)\s+Offset\s*:\s*0x([0-9a-f]+)\s+"
                        r"Size\s*:\s*0x([0-9a-f]+)", re.I)


def parameters(elf_text):
    """{mangled kernel name: {ordinal: (first, last) byte in bank 0}} of
    each kernel's parameters, from `cuobjdump -elf` of one cubin:
    EIATTR_PARAM_CBANK's value holds the parameters' size and their offset
    in the bank (0x160 on sm_75, 0x210 on sm_90), EIATTR_KPARAM_INFO each
    parameter's ordinal, offset and size."""
    found, kernel, base, params, attribute = {}, None, None, [], None

    def close():
        if kernel is not None and base is not None:
            found[kernel] = {ordinal: (base + off, base + off + size - 1)
                             for ordinal, off, size in params}

    for line in elf_text.splitlines():
        text = line.strip()
        if text.startswith(".nv.info.") and not line.startswith((" ", "\t")):
            close()
            kernel, base, params = text[len(".nv.info."):], None, []
            continue
        if text.startswith("Attribute:"):
            attribute = text.split(":", 1)[1].strip()
            continue
        if kernel is None or not text.startswith("Value:"):
            continue
        if attribute == "EIATTR_PARAM_CBANK":
            m = _PARAM_CBANK_RE.search(text)
            if m:
                base = int(m.group(1), 16) & 0xFFFF
        elif attribute == "EIATTR_KPARAM_INFO":
            m = _KPARAM_RE.search(text)
            if m:
                params.append((int(m.group(1), 16), int(m.group(2), 16), int(m.group(3), 16)))
    close()
    return found


def scalar_parameters(elf_text):
    """{mangled kernel name: [(first, last) byte in bank 0]} of each
    kernel's parameters of at most 4 bytes (parameters())."""
    return {kernel: [r for _, r in sorted(ranges.items()) if r[1] - r[0] + 1 <= 4]
            for kernel, ranges in parameters(elf_text).items()}


def disassemble(module, tools=None, unconfined=False):
    """[Listing(architecture, nvdisasm listing, scalar parameters)] for each
    cubin of a module (a fatbin, or a cubin itself). ToolsMissing,
    DisassemblyError."""
    tools = tools or find_tools()
    module = pathlib.Path(module).resolve()
    if not module.is_file():
        raise DisassemblyError(f"{module} does not exist (build the exercise first)")
    tool_folders = sorted({str(pathlib.Path(p).resolve().parent) for p in tools.values()})
    listings = []
    with tempfile.TemporaryDirectory(prefix="wb-sass-") as tmp:
        work = pathlib.Path(tmp)
        with open(module, "rb") as f:
            is_elf = f.read(4) == b"\x7fELF"
        if is_elf:
            cubins = [module]
        else:
            _run([str(pathlib.Path(tools["cuobjdump"]).resolve()), "-xelf", "all", str(module)],
                 work, [module, *tool_folders], [work], unconfined)
            cubins = sorted(work.glob("*.cubin"))
        # Each cubin's listing and ELF dump are independent runs: they are
        # all started at once (each a process of its own, in its own
        # sandbox), which saves most of a check's wait on the disassemblers.
        started = []
        try:
            for cubin in cubins:
                readable = [cubin, *tool_folders]
                started.append(_start([str(pathlib.Path(tools["nvdisasm"]).resolve()), "-gi",
                                       "-c", str(cubin)], work, readable, [work], unconfined))
                started.append(_start([str(pathlib.Path(tools["cuobjdump"]).resolve()), "-elf",
                                       str(cubin)], work, readable, [work], unconfined))
            outputs = [_finish(proc, argv) for proc, argv in started]
        finally:
            for proc, _ in started:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
        for i, cubin in enumerate(cubins):
            m = re.search(r"\.(sm_[0-9]+[af]?)\.cubin$", cubin.name)
            text, elf = outputs[2 * i], outputs[2 * i + 1]
            listings.append(Listing(m.group(1) if m else "", text, scalar_parameters(elf),
                                    parameters(elf)))
    return listings


# --- Parsing nvdisasm's listing ----------------------------------------------

@dataclasses.dataclass(frozen=True)
class Location:
    path: str
    line: int


@dataclasses.dataclass(frozen=True)
class Instruction:
    offset: int
    predicate: str      # "@P0", "@!PT", or ""
    opcode: str         # "LDG.E.CONSTANT.SYS"
    operands: str       # "R2, [R4.64+0x10]"
    locations: tuple    # Location, innermost first (the code's own line, then the call sites)
    routine: str = ""   # the subroutine it belongs to (the kernel's name for its own code)
    labels: tuple = ()  # the branch targets that name it (".L_x_3"), from the lines before it

    @property
    def base(self):
        """The opcode without its modifiers: LDG, SHFL, BAR."""
        return self.opcode.split(".", 1)[0]

    @property
    def modifiers(self):
        return tuple(self.opcode.split(".")[1:])

    def line_in(self, path_suffixes):
        """The innermost location in one of the given files (the exercise
        file: a helper it defines counts at the helper's line), else the
        outermost (the call site in the kernel); None without line info."""
        for loc in self.locations:
            if any(loc.path.endswith(s) for s in path_suffixes):
                return loc
        return self.locations[-1] if self.locations else None


@dataclasses.dataclass
class Function:
    name: str           # the mangled symbol
    entry: bool         # a kernel (__global__), not a device function
    instructions: list


_SECTION_RE = re.compile(r"^\s*\.section\s+\.text\.([^,\s]+)")
_ENTRY_RE = re.compile(r'^\s*\.other\s+([^,\s]+),\s*@"[^"]*STO_CUDA_ENTRY')
_ROUTINE_RE = re.compile(r"^\s*\.type\s+([^,\s]+),\s*@function")
_FILE_RE = re.compile(r'^\s*//## File "([^"]*)", line (\d+)(.*)$')
_INLINED_RE = re.compile(r'inlined at "([^"]*)", line (\d+)')
_LABEL_RE = re.compile(r"^\s*(\.L\w+):\s*$")
_INSTRUCTION_RE = re.compile(
    r"^\s*/\*([0-9a-fA-F]{4,})\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)\s*([^;]*);")


def parse(text):
    """The functions of one nvdisasm listing, in order."""
    functions = []
    current = None
    entries = set()
    location = ()
    routine = ""
    labels = []
    for raw in text.splitlines():
        m = _LABEL_RE.match(raw)
        if m:
            labels.append(m.group(1))
            continue
        m = _ENTRY_RE.match(raw)
        if m:
            entries.add(m.group(1))
            if current is not None and current.name == m.group(1):
                current.entry = True
            continue
        m = _SECTION_RE.match(raw)
        if m:
            current = Function(m.group(1), m.group(1) in entries, [])
            functions.append(current)
            location = ()
            routine = m.group(1)
            continue
        m = _ROUTINE_RE.match(raw)
        if m:
            # A subroutine inside the section: the compiler's own helpers
            # and the exercise's __noinline__ functions of internal linkage.
            routine = m.group(1)
            continue
        m = _FILE_RE.match(raw)
        if m:
            chain = [Location(m.group(1), int(m.group(2)))]
            chain += [Location(p, int(n)) for p, n in _INLINED_RE.findall(m.group(3))]
            # With -gi, nvdisasm follows an inlined line with the line of its
            # outermost call site alone; that line adds nothing to the chain
            # just read, so keep the fuller one.
            if len(chain) == 1 and location and len(location) > 1 and location[-1] == chain[0]:
                continue
            location = tuple(chain)
            continue
        m = _INSTRUCTION_RE.match(raw)
        if m and current is not None:
            current.instructions.append(Instruction(
                int(m.group(1), 16), (m.group(2) or "").strip(), m.group(3),
                m.group(4).strip(), location, routine, tuple(labels)))
            labels = []
    for f in functions:
        f.entry = f.entry or f.name in entries
    return functions


# --- Classes of instructions -------------------------------------------------

# What each class means, for the method facts (workbook.toml) and messages.
CLASSES = {
    "SHFL": "a warp shuffle (SHFL, __shfl*_sync) moves a value between the lanes of a warp",
    "SHFL.DOWN": "a shuffle down (SHFL.DOWN, __shfl_down_sync): lane L reads lane L + delta",
    "SHFL.BFLY": "a butterfly shuffle (SHFL.BFLY, __shfl_xor_sync): lane L reads lane L ^ laneMask",
    "LDS": "a shared-memory load (LDS, LDSM)",
    "STS": "a shared-memory store (STS)",
    "ATOMS": "a shared-memory atomic (ATOMS)",
    "REDUX": "a warp-wide reduction in one instruction (REDUX, __reduce_*_sync, sm_80 and newer)",
    "BAR": "a block barrier (BAR, __syncthreads)",
    "BAR.RED": "a barrier that also counts or votes across the block (BAR.RED: "
               "__syncthreads_count, __syncthreads_and, __syncthreads_or)",
    "LDG": "a global-memory load (LDG), on any path",
    "LDG.RO": "a global load through the read-only cache (LDG .CONSTANT or .NC, __ldg)",
    "LDG.PLAIN": "a global load that is not on the read-only path",
    "LDG.VEC": "a vector global load (LDG .64 or .128: one thread reads 8 or 16 neighbouring bytes)",
    "STG": "a global-memory store (STG)",
    "ATOMG": "a global-memory atomic or reduction (ATOMG, ATOM, RED)",
    "CONST": "a read of the __constant__ bank (an operand or LDC of c[0x3])",
    "LOCAL": "a local-memory access (LDL, STL): an array the compiler did not keep in registers",
    "FIMM": "a floating-point multiply or add with a literal operand (an immediate)",
    "GENERIC": "a load or store through a generic address (LD, ST): the compiler could not "
               "tell whether it reaches global or shared memory",
    "VOTE": "a warp vote (VOTE, MATCH: __ballot_sync, __all_sync, __any_sync, __match_*_sync; "
            "__activemask() used as a number or taken inside a branch)",
    "MMA": "a matrix multiply-accumulate on the tensor cores (HMMA, IMMA, DMMA, BMMA, the "
           "warpgroup GMMAs, MOVM): it combines values across the lanes of a warp",
    "MBARRIER": "an operation on a shared-memory mbarrier (SYNCS, ARRIVES: mbarrier.init, "
                ".arrive, .pending_count, sm_80 and newer): its arrival counts add the "
                "threads' values like a shared-memory atomic",
    "SHFL.ADDRESSED": "a global load (LDG, or a generic LD) at an address computed from a "
                      "shuffle's result: a value fetched from where a shuffle points, not "
                      "moved by the shuffle",
    "COEF.PLAIN": "a global load off the read-only path (no .CONSTANT or .NC) at an address "
                  "computed from the kernel's last parameter (the stencils' coef): a "
                  "coefficient read past the read-only cache, by __ldcg or a plain load",
    "PARAM.ADDRESSED": "a global load or store at an address computed from a parameter of "
                       "4 bytes or less (the exchange's width, delta, lane or mask): the "
                       "partner's value read from where the parameter points, not moved by "
                       "a shuffle",
}
# The constant bank that holds __constant__ variables (bank 0 holds the
# kernel's parameters and the launch's sizes, bank 2 or 4 the compiler's own
# constants); the same on every architecture CUDA 13 builds for.
USER_CONSTANT_BANK = 3
_CONST_OPERAND_RE = re.compile(r"c\[(0x[0-9a-fA-F]+|[0-9]+)\]\s*\[")
_FLOAT_ARITHMETIC = ("FFMA", "FMUL", "FADD", "HFMA2", "HMUL2", "HADD2", "DFMA", "DMUL", "DADD")


def constant_banks(instr):
    """The constant banks an instruction's operands read."""
    return {int(b, 0) for b in _CONST_OPERAND_RE.findall(instr.operands)}


# The tensor-core instructions: each multiplies fragments held across the
# lanes of a warp (or a warpgroup), so it moves values between lanes.
_MMA = {"HMMA", "IMMA", "DMMA", "BMMA", "HGMMA", "IGMMA", "QGMMA", "BGMMA", "MOVM",
        "OMMA", "QMMA", "UTCHMMA", "UTCIMMA", "UTCQMMA", "UTCOMMA"}


def classes(instr):
    """The classes (keys of CLASSES) one instruction belongs to."""
    base, mods = instr.base, instr.modifiers
    found = set()
    if base == "SHFL":
        found.add("SHFL")
        # The mode the shuffle reads its source lane by (IDX, UP, DOWN,
        # BFLY) is its first modifier; the two a warp reduction uses are
        # classes of their own, so a fact can say which of them it wants.
        if "DOWN" in mods:
            found.add("SHFL.DOWN")
        elif "BFLY" in mods:
            found.add("SHFL.BFLY")
    elif base in ("LDS", "LDSM"):
        found.add("LDS")
    elif base == "STS":
        found.add("STS")
    elif base in ("ATOMS", "REDAS"):
        # REDAS: sm_90's asynchronous reduction into (distributed) shared memory.
        found.add("ATOMS")
    elif base.startswith("SYNCS") or base == "ARRIVES":
        found.add("MBARRIER")
    elif base in ("REDUX", "CREDUX"):
        found.add("REDUX")
    elif base == "BAR" and "ARV" not in mods:
        # BAR.SYNC (and .DEFER_BLOCKING); BAR.ARV arrives without waiting.
        found.add("BAR")
        if "RED" in mods:
            found.add("BAR.RED")
    elif base == "LDG":
        found.add("LDG")
        found.add("LDG.RO" if ("CONSTANT" in mods or "NC" in mods) else "LDG.PLAIN")
        if "64" in mods or "128" in mods:
            found.add("LDG.VEC")
    elif base == "LDGSTS":
        # An asynchronous copy from global to shared memory (sm_80+); 8 or
        # 16 bytes per thread is a vector load like LDG.64 and LDG.128.
        found.update(("LDG", "LDG.PLAIN", "STS"))
        if "64" in mods or "128" in mods:
            found.add("LDG.VEC")
    elif base in ("UBLKCP", "UTMALDG", "UTMAPF", "UBLKPF"):
        # The bulk and tensor-memory copies of sm_90: one instruction moves
        # a whole run of global memory (into shared memory).
        found.update(("LDG", "LDG.PLAIN", "LDG.VEC", "STS"))
    elif base in _MMA:
        found.add("MMA")
    elif base == "STG":
        found.add("STG")
    elif base in ("ATOMG", "ATOM", "RED", "REDG", "UBLKRED", "UTMAREDG"):
        # UBLKRED, UTMAREDG: sm_90's bulk reductions from shared into global memory.
        found.add("ATOMG")
    elif base in ("LDL", "STL"):
        found.add("LOCAL")
    elif base in ("LD", "ST"):
        # A generic access: its address space is decided at run time, so the
        # classes above (LDG, LDS, STS, ...) cannot see what it reaches.
        found.add("GENERIC")
    elif base == "MATCH" or (base in ("VOTE", "VOTEU") and _votes_on_a_predicate(instr)):
        # A vote whose inputs are all PT is the compiler's own (the active
        # mask, read where a warp may have diverged), not a __ballot_sync.
        found.add("VOTE")
    if USER_CONSTANT_BANK in constant_banks(instr):
        found.add("CONST")
    if base in _FLOAT_ARITHMETIC and any(
            float_literal not in ("0.0", "1.0", "-0.0", "-1.0")
            for float_literal in _float_literals(instr.operands)):
        found.add("FIMM")
    return found


def _float_literals(operands):
    """The floating-point literals among an instruction's operands ("0.5",
    "-3.25e-05"); nvdisasm prints an immediate float with a decimal point or
    an exponent, an integer immediate in hex."""
    literals = []
    for operand in operands.split(","):
        operand = operand.strip().strip("|")
        if re.fullmatch(r"-?(\d+\.\d*(?:e[+-]?\d+)?|\d+e[+-]?\d+)", operand, re.I):
            literals.append(operand)
        elif re.fullmatch(r"-?(\+?INF|QNAN)", operand, re.I):
            literals.append(operand)
    return literals


# A general register (R12, not UR12 or RZ) and a predicate (P0, !P1, UP2;
# not PT) among an instruction's operands.
_REGISTER_RE = re.compile(r"(?<![\w.])R(\d+)\b")
_PREDICATE_RE = re.compile(r"(?<![\w.])!?(U?P[0-6])\b")
# Where each store, load and atomic reaches, for taint that passes through
# memory.
_STORE_SPACE = {"STL": "local", "STS": "shared", "STG": "global", "ST": "global",
                "RED": "global", "REDG": "global"}
_LOAD_SPACE = {"LDL": "local", "LDS": "shared", "LDG": "global", "LD": "global",
               "ATOMG": "global", "ATOM": "global", "ATOMS": "shared"}
# Global (or generic) accesses whose address is checked.
_GLOBAL_ACCESS = ("LDG", "LD", "STG", "ST", "ATOMG", "ATOM", "RED", "REDG")
_BRANCHES = ("BRA", "BRX", "JMP", "JMX")


def _votes_on_a_predicate(instr):
    """A VOTE whose inputs include a predicate other than PT (__ballot_sync,
    __all_sync, __any_sync on a condition)."""
    inputs = instr.operands.split(",", 1)[1] if "," in instr.operands else ""
    return bool(_PREDICATE_RE.search(inputs))


# Instructions that copy a register unchanged: the active mask they copy is
# still the compiler's (a VOTE result moved into a uniform register before
# it is compared).
_COPIES = ("MOV", "R2UR", "UMOV")


def mask_votes(instructions):
    """The votes on PT alone (VOTE.ANY R0, PT, PT: __activemask(), which
    classes() leaves to the compiler) that the kernel itself uses (class
    VOTE): one under a guard (@P0 VOTE.ANY, the lanes on one side of a
    branch), or one whose mask reaches, through plain copies, a store or an
    instruction that computes a register from it (__popc of the mask taken
    inside an `if`: the lanes that took the branch, a vote on its
    condition). The compiler's own mask only meets the mask a warp-wide
    step needs in a comparison that writes a predicate (LOP3.LUT P0, RZ,
    R0, UR4, ...) or goes to WARPSYNC. Each vote's mask is followed in
    program order (counted()) until its registers are written again."""
    order = counted(instructions)
    found = []
    for k, vote in enumerate(order):
        if vote.base not in ("VOTE", "VOTEU") or _votes_on_a_predicate(vote):
            continue
        if vote.predicate.lstrip("@!") not in ("", "PT", "UPT"):
            found.append(vote)
            continue
        regs, uregs = set(_destination(vote)), set(_uniform_destination(vote))
        for i in order[k + 1:]:
            if not regs and not uregs:
                break
            written, written_uniform = _destination(i), _uniform_destination(i)
            parts = [t.strip() for t in i.operands.split(",")]
            count = 0 if i.base in _STORE_SPACE or not (written or written_uniform) else (
                2 if len(parts) > 1 and re.fullmatch(r"U?P[0-6T]", parts[1]) else 1)
            inputs = ", ".join(parts[count:])
            reads = (any(r in regs for r in _registers(inputs))
                     or any(int(r) in uregs for r in _UREGISTER_RE.findall(inputs)))
            if reads and i.base in _COPIES:
                regs.update(written)
                uregs.update(written_uniform)
                continue
            if reads and (written or written_uniform or i.base in _STORE_SPACE
                          or i.base in _LOAD_SPACE):
                found.append(vote)
                break
            regs.difference_update(written)
            uregs.difference_update(written_uniform)
    return found


def _registers(text):
    return [int(n) for n in _REGISTER_RE.findall(text)]


def _destination(instr):
    """The registers an instruction writes (its first operand, and the next
    register for a 64-bit or wide result), or () when it writes none
    (stores, compares into predicates, branches)."""
    if instr.base.endswith("SETP"):
        return ()                    # ISETP P0, PT, R2, ...: predicates only
    tokens = [t.strip() for t in instr.operands.split(",")]
    # SHFL PT, R3, ... and ATOMG PT, R9, [...]: a predicate written first.
    while len(tokens) > 1 and re.fullmatch(r"U?P[0-6T]", tokens[0]):
        tokens = tokens[1:]
    if not tokens or not re.fullmatch(r"R\d+", tokens[0]):
        return ()
    first = int(tokens[0][1:])
    wide = any(m in instr.modifiers for m in ("WIDE", "64", "128", "U64", "S64", "F64"))
    return (first, first + 1) if wide else (first,)


# The toolkit's shuffle helper for a diverged warp on targets before sm_80
# ($__internal_0_$__cuda_sm70_shflsync_bfly_p): a subroutine in the kernel's
# own section, called from the compiler's fallback path.
_COMPILER_SHUFFLE_HELPER_RE = re.compile(r"^\$__internal_\d+_\$__cuda_sm70_shflsync_\w+$")
_CALL_TARGET_RE = re.compile(r"`\(\s*([^)\s]+)\s*\)")


def compiler_copies(instructions):
    """Indices of the instructions the compiler adds as a divergent warp's
    fallback for a full-mask shuffle: the WARPSYNC.COLLECTIVE ...
    ENDCOLLECTIVE blocks of sm_80 and newer, and on older targets the body of
    the toolkit's shuffle helper (__cuda_sm70_shflsync_*: a WARPSYNC, the
    SHFL, the RET) and the calls to it. They repeat the kernel's own
    shuffles for a path a converged warp never takes, so the method facts
    do not count them. A SHFL in a subroutine of the exercise's own (a
    __noinline__ function) is not the compiler's: counted() counts it at
    each call."""
    skip = set()
    inside = False
    for index, i in enumerate(instructions):
        if i.opcode.startswith("WARPSYNC.COLLECTIVE"):
            inside = True
        if inside:
            skip.add(index)
        if i.base == "ENDCOLLECTIVE":
            inside = False
        if _COMPILER_SHUFFLE_HELPER_RE.match(i.routine):
            skip.add(index)
        if i.base == "CALL" and _COMPILER_SHUFFLE_HELPER_RE.match(call_target(i) or ""):
            skip.add(index)
    return skip


def call_target(instr):
    """The routine a CALL names (its label or symbol), or None."""
    if instr.base != "CALL":
        return None
    m = _CALL_TARGET_RE.search(instr.operands)
    return m.group(1) if m else None


# How deep calls are followed into the module's subroutines.
CALL_DEPTH = 4


def inlined(instructions):
    """The indices of a kernel's instructions in the order they run as if
    every subroutine of the module were inlined: the kernel's own code, and
    at each CALL to a routine of the listing the routine's body (nested
    calls up to CALL_DEPTH deep) in place of the CALL. A routine's body is
    not visited where it sits, after the kernel's code."""
    own = instructions[0].routine if instructions else ""
    bodies = {}
    for index, i in enumerate(instructions):
        if i.routine and i.routine != own:
            bodies.setdefault(i.routine, []).append(index)

    def expand(indices, level):
        for index in indices:
            target = call_target(instructions[index])
            if target in bodies and level < CALL_DEPTH:
                yield from expand(bodies[target], level + 1)
            else:
                yield index

    in_routine = {k for indices in bodies.values() for k in indices}
    return list(expand([k for k in range(len(instructions)) if k not in in_routine], 0))


def counted(instructions):
    """The instructions the method facts count, with their repeats: the
    kernel's code as inlined() orders it, the compiler's copies left out. A
    shuffle hidden in a __noinline__ helper called ten times counts ten
    times, and its opcode counts like any other."""
    skip = compiler_copies(instructions)
    return [instructions[k] for k in inlined(instructions) if k not in skip]


def shuffle_addressed(instructions):
    """The global and generic accesses (loads, stores, atomics) of one kernel
    whose address derives from a shuffle's result (class SHFL.ADDRESSED).
    Taint starts at each SHFL's destination and goes to every register an
    instruction writes from a tainted register or predicate, or under a
    tainted guard: integer, float and conversion arithmetic alike, constant
    reads indexed by a tainted register, and what a load or atomic returns
    from a tainted address. It passes through memory too (a store of a
    tainted value taints later loads of that memory), and a branch taken on
    a tainted predicate taints everything written until the warp reconverges
    (BSYNC): a value rebuilt by comparisons or a switch is still the
    shuffle's. A register written from clean operands is clean again. In
    program order, with what each loop's back edges carry brought to its
    head and the passes repeated until that stops growing: a value that
    reaches an address only around a loop is followed (a plain second pass
    would carry the end of the kernel into its start and taint honest
    addresses). A CALL to a
    subroutine of the module walks the routine's code where the call is, as
    if inlined (inlined()), so a shuffle or a load in a __noinline__ helper
    is followed through it."""
    return _addressed(instructions, lambda i: i.base == "SHFL", through_branches=True)


def parameter_addressed(instructions, scalars):
    """The global and generic accesses of one kernel whose address derives
    from one of its scalar parameters (class PARAM.ADDRESSED): `scalars`,
    [(first, last) byte in constant bank 0] (Listing.scalars). Taint starts
    at every instruction that reads such a byte (ULDC UR4, c[0x0][0x214];
    IMAD R2, R3, c[0x0][0x160], R4) and spreads as in shuffle_addressed,
    through uniform registers and branches too: a copy of the parameter
    counted up in a loop whose exit tests it (`y = 0; while (y < x) y +=
    one;`) is written under that branch, so it is the parameter's. An early
    return on a parameter (`if (width > 32) return;`) compiles to a
    predicated EXIT, not a branch, and taints nothing after it."""
    def reads_scalar(i):
        for m in _BANK0_RE.finditer(i.operands):
            offset = int(m.group(1), 16)
            if any(first <= offset <= last for first, last in scalars):
                return True
        return False
    return _addressed(instructions, reads_scalar, through_branches=True)


def last_parameter_plain_loads(instructions, params):
    """The global loads off the read-only path (class LDG.PLAIN) of one
    kernel whose address derives from its last parameter (class COEF.PLAIN):
    `params`, {ordinal: (first, last) byte in constant bank 0}
    (Listing.params for the kernel). The taint spreads as in
    parameter_addressed."""
    if not params:
        return []
    return [i for i in parameter_addressed(instructions, [params[max(params)]])
            if "LDG.PLAIN" in classes(i)]


_BANK0_RE = re.compile(r"c\[0x0\]\s*\[(0x[0-9a-fA-F]+)\]")
_UREGISTER_RE = re.compile(r"(?<![\w.])UR(\d+)\b")
_DESCRIPTOR_RE = re.compile(r"desc\[UR\d+\]")


def _uniform_destination(instr):
    """The uniform registers an instruction writes (ULDC UR4, ...; R2UR
    UR5, R0; a 64-bit result: the pair), or ()."""
    tokens = [t.strip() for t in instr.operands.split(",")]
    while len(tokens) > 1 and re.fullmatch(r"U?P[0-6T]", tokens[0]):
        tokens = tokens[1:]
    if not tokens or not re.fullmatch(r"UR\d+", tokens[0]):
        return ()
    first = int(tokens[0][2:])
    wide = any(m in instr.modifiers for m in ("WIDE", "64", "128", "U64", "S64"))
    return (first, first + 1) if wide else (first,)


def _addressed(instructions, source, through_branches):
    """The global and generic accesses of one kernel whose address is
    tainted, taint starting at what each instruction for which
    source(instruction) holds writes (shuffle_addressed says how it
    spreads). through_branches: a branch taken on a tainted predicate
    taints everything written until the warp reconverges."""
    order = inlined(instructions)
    heads = back_edges(instructions, order)
    # What each loop head receives from its back edges, carried over from the
    # previous pass: a value that reaches an address only around a loop is
    # followed, without carrying the end of the kernel into its start.
    carried, found = {}, {}
    for _ in range(_PASS_LIMIT):
        found_now, reaching = _addressed_pass(instructions, order, heads, carried, source,
                                              through_branches)
        found.update(found_now)
        # Taint only grows from pass to pass, so the passes end.
        grown = {head: tuple(a | b for a, b in zip(carried.get(head, _NOTHING), sets))
                 for head, sets in reaching.items()}
        grown.update({head: sets for head, sets in carried.items() if head not in grown})
        if grown == carried:
            break
        carried = grown
    return [found[k] for k in sorted(found)]


def back_edges(instructions, order):
    """{position of a loop's head in `order`: [positions of the branches
    back to it]}: the branches (BRA) whose target lies at or before them in
    the listing, in the same routine (inlined()'s `order` may hold a
    routine's code once per call; the head is the target's nearest
    position before the branch, in the same copy)."""
    index_of_label = {}
    for index, instr in enumerate(instructions):
        for label in instr.labels:
            index_of_label.setdefault(label, index)
    latest = {}   # instruction index -> its latest position so far
    heads = {}
    for position, index in enumerate(order):
        latest[index] = position
        instr = instructions[index]
        if instr.base != "BRA":
            continue
        target = _BRANCH_TARGET_RE.search(instr.operands)
        target_index = index_of_label.get(target.group(1)) if target else None
        if target_index is None:
            continue
        head_instr = instructions[target_index]
        if head_instr.offset <= instr.offset and head_instr.routine == instr.routine \
                and target_index in latest:
            heads.setdefault(latest[target_index], []).append(position)
    return heads


def in_loops(instructions):
    """The instructions of a kernel that lie inside a loop (between a loop's
    head and a branch back to it, in inlined()'s order): they may run more
    times than the code shows them."""
    order = inlined(instructions)
    inside = set()
    for head, tails in back_edges(instructions, order).items():
        for position in range(head, max(tails) + 1):
            inside.add(order[position])
    return [instructions[k] for k in sorted(inside)]


_BRANCH_TARGET_RE = re.compile(r"`\(\s*(\.L\w+)\s*\)")
_PASS_LIMIT = 16
_NOTHING = (frozenset(),) * 4


def _addressed_pass(instructions, order, heads, carried, source, through_branches):
    """One pass of _addressed in program order: (the accesses found, {loop
    head: the taint its back edges carry}), the heads starting from
    `carried` (the previous pass's)."""
    tainted, tainted_uniform, tainted_predicates, spilled = set(), set(), set(), set()
    found = {}
    implicit = False
    tails = {tail: head for head, positions in heads.items() for tail in positions}
    reaching = {}

    def reads_tainted(text):
        return (any(r in tainted for r in _registers(text))
                or any(int(r) in tainted_uniform for r in _UREGISTER_RE.findall(text)))

    def step(index, i):
        nonlocal implicit
        ops = i.operands
        written = _destination(i)
        written_uniform = _uniform_destination(i)
        guarded = i.predicate.lstrip("@!") in tainted_predicates
        seeded = source(i)
        address_tainted = False
        if "[" in ops:
            address = _DESCRIPTOR_RE.sub("", ops[ops.find("["):ops.rfind("]") + 1])
            # A 64-bit address [R4.64] is the pair R4:R5.
            address_tainted = (any(r in tainted or (r + 1) in tainted
                                   for r in _registers(address))
                               or any(int(r) in tainted_uniform
                                      for r in _UREGISTER_RE.findall(address)))
            if address_tainted and i.base in _GLOBAL_ACCESS:
                found[index] = i
        if i.base in _STORE_SPACE or (i.base in _LOAD_SPACE and not written):
            data = ops[ops.rfind("]") + 1:]
            if guarded or implicit or reads_tainted(data):
                spilled.add(_STORE_SPACE.get(i.base, _LOAD_SPACE.get(i.base)))
            return
        # What an instruction reads: its operands after those it writes (a
        # register or predicate first; a predicate after it, the carry of
        # IADD3 R4, P0, ... or LEA R6, P0, ..., is written too).
        parts = [t.strip() for t in ops.split(",")]
        written_count = 2 if len(parts) > 1 and re.fullmatch(r"U?P[0-6T]", parts[1]) else 1
        inputs = ", ".join(parts[written_count:])
        dirty = (seeded or reads_tainted(inputs)
                 or bool(set(_PREDICATE_RE.findall(inputs)) & tainted_predicates)
                 or guarded or implicit)
        if i.base in _BRANCHES:
            implicit = implicit or (guarded and through_branches)
            return
        if i.base == "BSYNC":
            # The warp reconverges: what the branch decided has been
            # written (and stays tainted); what follows is not its.
            implicit = False
            return
        # Predicates an instruction writes lead its operands (ISETP P0,
        # PT, ...; LOP3.LUT P0, RZ, ...) or follow its register (IADD3
        # R4, P0, ...: a carry).
        for pred in (t.strip() for t in ops.split(",")[:2]):
            if re.fullmatch(r"U?P[0-6]", pred):
                (tainted_predicates.add if dirty else tainted_predicates.discard)(pred)
        if i.base in _LOAD_SPACE and written:
            # A load's value is the memory's: tainted when read at a
            # tainted address or from a memory a tainted value went to.
            dirty = (seeded or address_tainted or _LOAD_SPACE[i.base] in spilled or guarded
                     or implicit)
            if i.base in ("ATOMG", "ATOM", "ATOMS"):
                data = ops[ops.rfind("]") + 1:]
                if reads_tainted(data):
                    spilled.add(_LOAD_SPACE[i.base])
        (tainted.update if dirty else tainted.difference_update)(written)
        (tainted_uniform.update if dirty else tainted_uniform.difference_update)(written_uniform)

    for position, index in enumerate(order):
        if position in carried:
            sets = carried[position]
            tainted.update(sets[0])
            tainted_uniform.update(sets[1])
            tainted_predicates.update(sets[2])
            spilled.update(sets[3])
        step(index, instructions[index])
        if position in tails:
            head = tails[position]
            before = reaching.get(head, _NOTHING)
            reaching[head] = tuple(frozenset(a | b) for a, b in zip(
                before, (tainted, tainted_uniform, tainted_predicates, spilled)))
    return found, reaching


# The instructions that can reach shared memory: its loads, stores and
# atomics, the copies into it (LDGSTS, sm_90's bulk and tensor-memory
# copies, STSM), and the generic accesses and atomics, whose address may
# point into it.
SHARED_REACHING = frozenset(("LDS", "LDSM", "STS", "STSM", "ATOMS", "REDAS", "LDGSTS",
                             "UBLKCP", "UTMALDG", "LD", "ST", "ATOM", "RED", "ARRIVES"))


def reaches_shared_memory(listings):
    """True unless every listing (disassemble's, one per architecture) is
    read and none holds an instruction of SHARED_REACHING: what racecheck,
    a detector of shared-memory hazards only, needs to watch. A module with
    no listing (PTX only, compiled when loaded) reaches it as far as anyone
    can tell."""
    if not listings:
        return True
    for _, text in listings:
        for function in parse(text):
            if any(i.base in SHARED_REACHING for i in function.instructions):
                return True
    return False


def kernels(functions):
    """{kernel name: [Instruction]}: each kernel's own code plus that of
    every device function of the module that was not inlined (a call's
    target counts for each kernel, which may over-count a kernel that does
    not call it, never under-count one that does)."""
    shared = [i for f in functions if not f.entry for i in f.instructions]
    return {f.name: f.instructions + shared for f in functions if f.entry}


_DEMANGLE_RE = re.compile(r"^_ZN(?:\d+\w+?)*?(\d+)(\w+)")


def short_name(mangled):
    """The kernel's own name from its mangled symbol, without namespaces or
    template arguments: _ZN2wb7shuffle8shflSwapEPKiPiiiiii -> shflSwap."""
    if not mangled.startswith("_Z"):
        return mangled
    rest = mangled[2:]
    if rest.startswith("N"):
        rest = rest[1:]
    names = []
    while rest and rest[0].isdigit():
        m = re.match(r"(\d+)", rest)
        length = int(m.group(1))
        rest = rest[len(m.group(1)):]
        names.append(rest[:length])
        rest = rest[length:]
    return names[-1] if names else mangled


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print("usage: python3 -m wbcore.sass MODULE.fatbin\n"
              "Prints each kernel's instructions with their classes and source lines.")
        return 0 if len(argv) == 2 else 2
    try:
        listings = disassemble(argv[1])
    except (ToolsMissing, DisassemblyError) as err:
        print(err, file=sys.stderr)
        return 1
    for arch, text in listings:
        for name, instructions in kernels(parse(text)).items():
            print(f"== {short_name(name)} ({arch})")
            for i in instructions:
                loc = i.locations[-1] if i.locations else None
                where = f"{pathlib.Path(loc.path).name}:{loc.line}" if loc else "?"
                cls = ",".join(sorted(classes(i)))
                print(f"  {i.offset:05x} {i.predicate:6} {i.opcode:24} {cls:16} {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
