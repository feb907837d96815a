"""compute-sanitizer's findings, told at the line of the student's file.

compute-sanitizer prints each finding as a block of lines that start with
"=========": a title (what went wrong), then where: the instruction's
function and offset and, because the workbook compiles every kernel with
-lineinfo, the source file and line. This module reads those blocks
(parse), maps the file the build compiled to the path the student knows
(display_path: starter/reduction/reduceSmem.cu, whatever absolute path the
build used), groups the findings by source location (group) and says, per
group, what was found and the kind of fix such a finding usually needs
(describe), e.g.

  starter/reduction/reduceSmem.cu:41 writes, :42 reads: 40 hazards between lanes of one warp
    usual fix: a __syncwarp() between the warp-level steps ...

The text read is the tool's report file (compute-sanitizer --log-file,
wbcore/nsight.py), never the runner's stdout, where a kernel's printf could
add lines of this shape.

The formats read, one example each (tests/checks/data/sanitizer/ holds
whole reports, tests/checks/sanitizer_report_test.py the tests):

racecheck, --racecheck-report analysis (one record per pair of source
locations, with the number of hazards between them):
  ========= Error: Race reported between Write access at k(int *)+0x1a0 in /x/k.cu:41
  =========     and Read access at k(int *)+0x1c0 in /x/k.cu:42 [40 hazards]
racecheck, --racecheck-report hazard (one record per hazard, with the two
threads):
  ========= Error: Potential RAW hazard detected at __shared__ 0x84 in block (0,0,0) :
  =========     Write Thread (33,0,0) at k(int *)+0x1a0 in /x/k.cu:41
  =========     Read Thread (1,0,0) at k(int *)+0x1c0 in /x/k.cu:42
memcheck, initcheck and synccheck (a title, then "at", then "by thread"):
  ========= Invalid __shared__ write of size 4 bytes
  =========     at k(int *)+0x90 in /x/k.cu:27
  =========     by thread (0,31,0) in block (0,0,0)
  =========     Address 0x1000 is out of bounds
Older releases print a location as "at 0x1a0 in /x/k.cu:41:k(int *)"
(offset, file, line, function); both are read. A location without a file
(a module built without -lineinfo) is kept, with the function alone.

racecheck's severity says whose threads raced: NVIDIA's racecheck
documentation gives "Warning" (older releases: "WARN:(Warp Level
Programming)") to hazards that come from warp-level programming, i.e.
between lanes of one warp, and "Error" to the others. Where the hazard
records name both threads and both lie in row 0 of the block (y = z = 0),
the lanes' warps are computed instead (threadIdx.x / 32), whatever the
block's shape.
"""
import collections
import dataclasses
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]

# The line prefix of every line compute-sanitizer writes.
_PREFIX = re.compile(r"^\s*=========\s?")
_SEVERITY = r"(?P<sev>Error|Warning|Info|ERROR|WARNING|WARN|INFO)\s*:?\s*(?:\([^)]*\)\s*)?"
_RACE = re.compile(r"^" + _SEVERITY + r"Race reported between (?P<kind>Write|Read) access at "
                   r"(?P<where>.*?)\s*(?:\[(?P<count>\d+) hazards?\])?\s*$")
_RACE_AND = re.compile(r"^and (?P<kind>Write|Read) access at (?P<where>.*?)\s*"
                       r"(?:\[(?P<count>\d+) hazards?\])?\s*$")
_HAZARD = re.compile(r"^" + _SEVERITY + r"Potential (?P<type>RAW|WAR|WAW) hazard detected at "
                     r"__shared__ (?P<addr>\S+) in block \((?P<block>[^)]*)\)")
_HAZARD_THREAD = re.compile(r"^(?P<kind>Write|Read) Thread \((?P<thread>[^)]*)\) at "
                            r"(?P<where>.*?)\s*$")
_MEMORY = re.compile(r"^(?:(?:Error|ERROR)\s*:\s*)?(?P<title>Invalid (?P<space>__\w+__ )?"
                     r"(?:(?:read|write|atomic)\w*)[^\n]*?of size \d+ bytes?)\s*$")
_EXCEPTION = re.compile(r"^(?:(?:Error|ERROR)\s*:\s*)?(?P<title>(?:Warp |Lane )?"
                        r"(?:Out-of-range|Misaligned|Illegal)\b[^\n]*?[Aa]ddress\b.*?)\s*$")
_BARRIER = re.compile(r"^(?:(?:Error|ERROR)\s*:\s*)?(?P<title>Barrier error detected\..*?)\s*$")
_UNINIT = re.compile(r"^(?:(?:Error|ERROR)\s*:\s*)?(?P<title>Uninitialized (?:__\w+__ )?"
                     r"memory read of size \d+ bytes?)\s*$")
_AT = re.compile(r"^at (?P<where>.*?)\s*$")
_FRAME = re.compile(r"^(?:#\d+\s+)?Device Frame\s*:\s*(?P<where>.*?)\s*$")
_BY_THREAD = re.compile(r"^by thread \((?P<thread>[^)]*)\) in block \((?P<block>[^)]*)\)")
_ADDRESS = re.compile(r"^Address \S+ (?P<what>.*?)\s*$")
_ERROR_SUMMARY = re.compile(r"(?:ERROR|RACECHECK|SYNCCHECK|INITCHECK) SUMMARY: (?P<n>\d+) "
                            r"(?:errors?|hazards?)")
_FILE_LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+)(?::(?P<func>.*))?$")


@dataclasses.dataclass(frozen=True)
class Location:
    path: str        # as the tool printed it ("" when the module has no line information)
    line: int        # 0 when unknown
    function: str = ""


@dataclasses.dataclass
class Access:
    kind: str        # "write", "read", or "" (memcheck's kind is in the title)
    location: Location
    thread: tuple = None   # (x, y, z)
    frames: tuple = ()     # further locations: the device backtrace, innermost first


@dataclasses.dataclass
class Finding:
    category: str    # "race", "memory", "barrier", "uninitialized"
    title: str       # what the tool says went wrong, without its severity
    severity: str    # "error", "warning", "info" or ""
    accesses: list
    hazards: int = 1           # the hazards a race analysis record counts
    analysis: bool = False     # a racecheck analysis record (counts are totals)
    hazard_type: str = ""      # RAW, WAR or WAW (hazard records)
    block: tuple = None
    detail: str = ""           # memcheck's "Address ... is out of bounds"


def parse_location(where):
    """A Location from the text after "at": "FUNC+0xOFF in FILE:LINE",
    "0xOFF in FILE:LINE:FUNC", or either without " in ..."."""
    where = where.strip()
    if " in " in where:
        head, tail = where.rsplit(" in ", 1)
        m = _FILE_LINE.match(tail.strip())
        if m:
            func = (m.group("func") or "").strip()
            if not func and not head.startswith("0x"):
                func = re.sub(r"\+0x[0-9a-fA-F]+$", "", head).strip()
            return Location(m.group("file").strip(), int(m.group("line")), func)
        return Location("", 0, tail.strip())
    return Location("", 0, re.sub(r"\+0x[0-9a-fA-F]+$", "", where))


def _triple(text):
    try:
        values = tuple(int(v) for v in text.replace(" ", "").split(","))
    except ValueError:
        return None
    return values if len(values) == 3 else None


def _severity(text):
    text = (text or "").lower()
    if text.startswith("warn"):
        return "warning"
    return text


def parse(text):
    """The findings of a compute-sanitizer report, in the order printed.
    A racecheck analysis record with several "and" lines gives one finding
    per pair of locations."""
    findings = []
    current = None       # the finding whose lines follow
    race_first = None    # the first access of an analysis record
    for raw in text.splitlines():
        if not _PREFIX.match(raw):
            current, race_first = (current, race_first) if raw.strip() == "" else (None, None)
            continue
        line = _PREFIX.sub("", raw).strip()
        if not line:
            current = race_first = None
            continue
        m = _RACE.match(line)
        if m:
            race_first = (_severity(m.group("sev")),
                          Access(m.group("kind").lower(), parse_location(m.group("where"))))
            current = None
            if m.group("count"):   # a record on one line
                findings.append(Finding("race", "race", race_first[0], [race_first[1]],
                                        int(m.group("count")), analysis=True))
            continue
        m = _RACE_AND.match(line)
        if m and race_first is not None:
            severity, first = race_first
            second = Access(m.group("kind").lower(), parse_location(m.group("where")))
            findings.append(Finding("race", "race", severity, [first, second],
                                    int(m.group("count") or 1), analysis=True))
            continue
        m = _HAZARD.match(line)
        if m:
            current = Finding("race", f"potential {m.group('type')} hazard",
                              _severity(m.group("sev")), [], 1, hazard_type=m.group("type"),
                              block=_triple(m.group("block")))
            findings.append(current)
            race_first = None
            continue
        m = _HAZARD_THREAD.match(line)
        if m and current is not None and current.category == "race":
            current.accesses.append(Access(m.group("kind").lower(),
                                           parse_location(m.group("where")),
                                           _triple(m.group("thread"))))
            continue
        for pattern, category in ((_MEMORY, "memory"), (_EXCEPTION, "memory"),
                                  (_BARRIER, "barrier"), (_UNINIT, "uninitialized")):
            m = pattern.match(line)
            if m:
                current = Finding(category, m.group("title"), "error", [])
                findings.append(current)
                race_first = None
                break
        if m:
            continue
        if current is None:
            continue
        m = _AT.match(line)
        if m and not current.accesses:
            current.accesses.append(Access("", parse_location(m.group("where"))))
            continue
        m = _FRAME.match(line)
        if m and current.accesses:
            access = current.accesses[-1]
            access.frames = access.frames + (parse_location(m.group("where")),)
            continue
        m = _BY_THREAD.match(line)
        if m:
            if current.accesses:
                current.accesses[-1].thread = _triple(m.group("thread"))
            current.block = _triple(m.group("block"))
            continue
        m = _ADDRESS.match(line)
        if m:
            current.detail = re.sub(r"^is ", "", m.group("what"))
    return findings


def summary_count(text):
    """The number of findings the tool's SUMMARY line counts, or None."""
    counts = [int(m.group("n")) for m in _ERROR_SUMMARY.finditer(text)]
    return max(counts) if counts else None


# ---------------------------------------------------------------- paths


def display_path(path, sources=(), candidates=()):
    """The path a student knows for a file the tool printed.

    sources: (folder, shown) pairs, most specific first: a file under
    `folder` is shown as `shown`/<its path below folder> (the grader builds
    a submission's copy of starter/ elsewhere and still shows starter/...).
    Then the repository (ROOT) itself. A path the tool printed without its
    folders (racecheck on some builds prints the file's name alone) is
    matched against `candidates`, the shown paths of the files the kernel
    was built from. Anything else keeps what the tool printed, from a
    folder the workbook knows (starter/, solutions/, tests/, chapters/)
    when one occurs in it."""
    if not path:
        return ""
    p = pathlib.PurePosixPath(path)
    if p.is_absolute():
        for folder, shown in list(sources) + [(str(ROOT), "")]:
            try:
                rel = p.relative_to(pathlib.PurePosixPath(folder))
            except ValueError:
                continue
            return str(pathlib.PurePosixPath(shown) / rel) if shown else str(rel)
        parts = p.parts
        for known in ("starter", "solutions", "tests", "chapters"):
            if known in parts:
                i = len(parts) - 1 - parts[::-1].index(known)
                return str(pathlib.PurePosixPath(*parts[i:]))
        return path
    text = str(p)
    for c in candidates:
        if c == text or c.endswith("/" + text):
            return c
    return text


# ---------------------------------------------------------------- groups


@dataclasses.dataclass
class Group:
    category: str
    places: tuple        # ((shown path, line, access kind), ...), in the order shown
    hazards: int = 0     # races: hazards; others: findings (threads)
    severity: str = ""
    warp: object = None  # True: lanes of one warp; False: different warps; None: unknown
    hazard_types: set = dataclasses.field(default_factory=set)
    titles: list = dataclasses.field(default_factory=list)
    example: str = ""    # a thread (and block) that made the access
    detail: str = ""
    functions: set = dataclasses.field(default_factory=set)


def _place(access, sources, candidates, prefer):
    """(shown path, line) of an access: its own location, or the innermost
    device frame in the student's file when the access itself lies in a
    header the exercise includes."""
    locations = [access.location] + list(access.frames)
    shown = [(display_path(loc.path, sources, candidates), loc.line) for loc in locations]
    for s in shown:
        if s[0] and prefer(s[0]):
            return s
    return shown[0]


def _same_warp(accesses):
    threads = [a.thread for a in accesses if a.thread]
    if len(threads) < 2:
        return None
    if all(t[1] == 0 and t[2] == 0 for t in threads):
        return len({t[0] // 32 for t in threads}) == 1
    return None


def group(findings, sources=(), candidates=()):
    """Findings grouped by the source locations they name (for a race, the
    pair of locations, whichever the tool printed first), in the order of
    their first finding, groups in the student's files first. Where a
    racecheck report holds both analysis and hazard records (report mode
    all), the analysis records count the hazards and the hazard records only
    say which threads raced."""
    student = set(candidates)

    def prefer(shown):
        # The student's files: the exercise's, those under a source folder
        # given, and the starter's.
        return shown in student or shown.startswith("starter/") or any(shown.startswith(s.rstrip("/") + "/")
                                       for _, s in sources if s)

    has_analysis = any(f.analysis for f in findings)
    groups = collections.OrderedDict()
    for f in findings:
        places = []
        for a in f.accesses:
            path, line = _place(a, sources, candidates, prefer)
            places.append((path, line, a.kind))
        if f.category == "race":
            key_places = tuple(sorted(set(places), key=lambda p: (p[2] != "write", p[0], p[1])))
        else:
            key_places = tuple(places)
        key = (f.category, key_places)
        g = groups.get(key)
        if g is None:
            g = groups[key] = Group(f.category, key_places, severity=f.severity)
        if f.category == "race":
            if f.analysis or not has_analysis:
                g.hazards += f.hazards
            if f.severity == "error" or not g.severity:
                g.severity = f.severity
            warp = _same_warp(f.accesses)
            if warp is not None:
                g.warp = warp if g.warp is None else (g.warp and warp)
            if f.hazard_type:
                g.hazard_types.add(f.hazard_type)
        else:
            g.hazards += 1
            if f.title not in g.titles:
                g.titles.append(f.title)
            if f.detail and not g.detail:
                g.detail = f.detail
        for a in f.accesses:
            if a.location.function:
                g.functions.add(a.location.function)
        if not g.example:
            thread = next((a.thread for a in f.accesses if a.thread), None)
            if thread:
                g.example = "thread (" + ",".join(map(str, thread)) + ")"
                if f.block:
                    g.example += " in block (" + ",".join(map(str, f.block)) + ")"
    ordered = list(groups.values())
    ordered.sort(key=lambda g: not any(p[0] and prefer(p[0]) for p in g.places))
    return ordered


# ---------------------------------------------------------------- words

_VERB = {"write": "writes", "read": "reads", "": ""}


def where_text(places):
    """"starter/x.cu:41 writes, :42 reads" (the file named once when the
    places share it), or "the kernel" when the tool printed no line."""
    parts = []
    previous = None
    for path, line, kind in places:
        if not path:
            continue
        spot = f":{line}" if path == previous else f"{path}:{line}"
        previous = path
        parts.append(spot + (f" {_VERB[kind]}" if kind else ""))
    return ", ".join(parts)


def _between(g):
    warp = g.warp
    if warp is None and g.severity:
        warp = g.severity == "warning"
    if warp is True:
        return "between lanes of one warp"
    if warp is False:
        return "between threads of different warps"
    return "between threads of the block"


def fix_for(g):
    """The kind of fix a group's finding usually needs, in one line."""
    if g.category == "race":
        kinds = {p[2] for p in g.places}
        warp = g.warp if g.warp is not None else (g.severity == "warning" if g.severity else None)
        if warp:
            return ("a __syncwarp() between the warp-level steps (lanes of a warp are not in "
                    "lockstep since Volta; volatile alone does not order them), or "
                    "__shfl_down_sync instead of shared memory")
        if kinds == {"write"} or g.hazard_types == {"WAW"}:
            return ("two threads write the same shared element: check the index, or put a "
                    "__syncthreads() between the two writes")
        if g.hazard_types == {"WAR"}:
            return ("a __syncthreads() before overwriting shared elements that other threads "
                    "may still be reading")
        return ("a __syncthreads() between writing the shared array and reading what other "
                "threads wrote (in a loop, also before the next write over it)")
    if g.category == "memory":
        title = " ".join(g.titles).lower()
        if "misaligned" in title:
            return ("an address that is not a multiple of the access's size: check the index "
                    "arithmetic and the pointer's type")
        return ("a bounds guard: the index runs past the array (check the guard and the index "
                "arithmetic on sizes that are not multiples of the block or the tile)")
    if g.category == "barrier":
        return ("every thread of the block must reach each __syncthreads(): no return before "
                "it, and no barrier inside a branch only some threads take")
    if g.category == "uninitialized":
        return ("a read of global memory nothing wrote: a missing bounds guard on the read, "
                "or the element was never written")
    return ""


def describe(groups, limit=6):
    """A line per group (where, what, how many), followed by the kind of fix
    it usually needs unless the group before needs the same; the first
    `limit` groups, then how many more."""
    lines = []
    previous_fix = None
    for g in groups[:limit]:
        where = where_text(g.places)
        if not where:
            functions = ", ".join(sorted(g.functions)) or "the kernel"
            where = f"{functions} (no line: the module was built without -lineinfo)"
        if g.category == "race":
            n = g.hazards
            what = f"{n} hazard{'s' if n != 1 else ''} {_between(g)}"
            if g.hazard_types:
                what += " (" + ", ".join(sorted(g.hazard_types)) + ")"
        else:
            title = g.titles[0] if g.titles else g.category
            title = title[0].lower() + title[1:]
            n = g.hazards
            what = f"{title} by {n} thread{'s' if n != 1 else ''}"
            if g.detail:
                what += f" ({g.detail})"
        if g.example:
            what += f", e.g. {g.example}"
        lines.append(f"{where}: {what}")
        fix = fix_for(g)
        if fix and fix != previous_fix:
            lines.append(f"  usual fix: {fix}")
        previous_fix = fix
    if len(groups) > limit:
        lines.append(f"... and {len(groups) - limit} more place(s)")
    return lines


def explain(text, sources=(), candidates=(), limit=6):
    """parse, group and describe in one call: the lines to print, or [] when
    the report holds no finding this module reads."""
    findings = parse(text)
    if not findings:
        return []
    lines = describe(group(findings, sources, candidates), limit)
    total = summary_count(text)
    shown = len(findings)
    if total is not None and total > shown and not any(f.analysis for f in findings):
        lines.append(f"(the tool printed {shown} of {total} findings)")
    return lines
