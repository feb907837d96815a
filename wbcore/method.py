"""Method checks: does an exercise's compiled kernel use the technique the
exercise teaches? Read from the module's machine code (wbcore/sass.py),
without a GPU: a right answer computed another way earns the correctness
points but not these.

Each kernel exercise's entry in workbook.toml may list its method facts,
one string each, in this vocabulary (CLASS is a key of
wbcore.sass.CLASSES: SHFL, SHFL.DOWN, SHFL.BFLY, LDS, STS, ATOMS, REDUX,
BAR, LDG, LDG.RO, LDG.PLAIN, LDG.VEC, STG, ATOMG, CONST, LOCAL, FIMM,
GENERIC, VOTE, SHFL.ADDRESSED, PARAM.ADDRESSED, COEF.PLAIN):

  "needs CLASS"          at least one instruction of the class
  "needs N CLASS"        at least N
  "no CLASS"             none
  "at most N CLASS"      at most N (instructions in the code, not executions;
                         for the global loads, LDG, LDG.PLAIN and LDG.RO, one
                         inside a loop breaks the bound: it runs more times
                         than the code shows)

optionally followed by ": why", said when the fact fails. Every kernel
the module defines (both tile shapes of a layout exercise) must meet
every fact, on every architecture the module holds code for.

Every kernel exercise also meets the facts of EVERY_KERNEL, unless its own
list bounds the same class the same way: a load or store through a generic
address is invisible to the classes of global and shared memory, so a
kernel could hide the loads a fact forbids behind one (a pointer passed
through a shuffle or an asm statement compiles to LD/ST), and a shuffle
that moves an index or an address, not the value, lets a kernel load the
partner's value itself (SHFL.ADDRESSED), and a barrier that counts
(BAR.RED, __syncthreads_count) can add a block's values bit by bit without
shared memory or shuffles, and so can a tensor-core product with a vector of
ones (MMA) and the arrival counts of a shared-memory mbarrier (MBARRIER). No
reference kernel does any of these.
"""
import dataclasses
import re

from wbcore import sanitizer_report
from wbcore import sass

_FACT_RE = re.compile(r"^(needs|no|at most)\s+(?:(\d+)\s+)?([A-Z][A-Z.]*)\s*(?::\s*(.+))?$")
# Source lines named per failing fact, at most.
LINES_SHOWN = 4
# The classes whose "at most N" bound an instruction inside a loop breaks:
# the global loads, bounded to say how many elements a thread reads (a
# rolled loop around one load reads its neighbours from global memory while
# the code holds one load).
LOOP_BOUNDED = ("LDG", "LDG.PLAIN", "LDG.RO")


EVERY_KERNEL = ["no GENERIC: every load and store must name its memory (global, shared, "
                "constant); a generic LD or ST hides which one it reaches from these checks",
                "no SHFL.ADDRESSED: a shuffle moves values between lanes; loading from an "
                "address a shuffle computed fetches the value instead of moving it",
                "no BAR.RED: a count or vote taken by the barrier itself "
                "(__syncthreads_count) is not one of the chapter's techniques; a block sum "
                "can be built from such counts bit by bit",
                "no MMA: the tensor cores are not one of the chapter's techniques; a matrix "
                "product with a vector of ones sums a warp's values without a shuffle or "
                "shared memory",
                "no MBARRIER: an mbarrier is not one of the chapter's techniques; its "
                "arrival counts add the threads' values as an atomic would, without the "
                "tree or the shuffles"]


class FactError(ValueError):
    """A method fact that the vocabulary does not say."""


@dataclasses.dataclass(frozen=True)
class Fact:
    rule: str       # "needs", "no", "at most"
    count: int      # the bound: at least `count` (needs) or at most (no: 0)
    cls: str        # a key of sass.CLASSES
    why: str = ""

    @property
    def text(self):
        if self.rule == "no":
            return f"no {self.cls}"
        if self.rule == "needs" and self.count == 1:
            return f"needs {self.cls}"
        return f"{self.rule} {self.count} {self.cls}"

    def holds(self, count):
        if self.rule == "needs":
            return count >= self.count
        return count <= self.count


def parse_fact(text):
    """A Fact from its text; FactError says what is wrong with it."""
    if not isinstance(text, str):
        raise FactError(f"a method fact is a string, not {type(text).__name__}")
    m = _FACT_RE.match(text.strip())
    if not m:
        raise FactError(f"'{text}' is not a method fact: write 'needs [N] CLASS', 'no CLASS' "
                        f"or 'at most N CLASS', optionally followed by ': why'")
    rule, number, cls, why = m.group(1), m.group(2), m.group(3), (m.group(4) or "").strip()
    if cls not in sass.CLASSES:
        raise FactError(f"'{text}': {cls} is not a class of instructions; the classes are "
                        + ", ".join(sass.CLASSES))
    if rule == "no" and number is not None:
        raise FactError(f"'{text}': 'no' takes no number (write 'at most N {cls}')")
    if rule == "at most" and number is None:
        raise FactError(f"'{text}': 'at most' needs a number")
    count = 0 if rule == "no" else int(number or 1)
    if rule == "needs" and count < 1:
        raise FactError(f"'{text}': 'needs' needs at least 1")
    return Fact(rule, count, cls, why)


def parse_facts(texts):
    """The Facts of one exercise's `method` list; FactError for the first
    that is wrong, or when one class is bounded twice the same way."""
    if not isinstance(texts, list):
        raise FactError("method must be a list of strings")
    facts = [parse_fact(t) for t in texts]
    seen = set()
    for f in facts:
        key = (f.cls, f.rule == "needs")
        if key in seen:
            raise FactError(f"'{f.text}': the list bounds {f.cls} "
                            f"{'from below' if key[1] else 'from above'} twice")
        seen.add(key)
    return facts


def exercise_facts(texts):
    """The Facts an exercise's kernels are held to: its own `method` list
    (parse_facts) and each fact of EVERY_KERNEL whose class and direction
    the list does not bound itself."""
    facts = parse_facts(texts)
    bounded = {(f.cls, f.rule == "needs") for f in facts}
    for text in EVERY_KERNEL:
        fact = parse_fact(text)
        if (fact.cls, fact.rule == "needs") not in bounded:
            facts.append(fact)
    return facts


@dataclasses.dataclass
class Finding:
    kernel: str     # the kernel's own name
    arch: str
    fact: Fact
    found: int
    lines: list     # "starter/shuffle/shflSwap.cu:17" of the instructions counted
    looped: int = 0  # of those, inside a loop (an "at most" bound of LOOP_BOUNDED)

    def message(self):
        """kernel: what was expected and found: why; where."""
        cls, n = self.fact.cls, self.fact.count
        if self.found < 0:
            head = (f"{cls} could not be judged: the module's parameters were not read "
                    f"(cuobjdump -elf)")
        elif self.fact.rule == "needs":
            head = (f"no {cls} instruction" if self.found == 0
                    else f"{self.found} {cls} instruction(s), expected at least {n}")
        else:
            head = (f"{self.found} {cls} instruction(s), expected "
                    + ("none" if self.fact.rule == "no" else f"at most {n}"))
            if self.looped:
                head += (f", {self.looped} of them inside a loop, which runs them more "
                         "times than the code shows")
        said = f"{self.kernel}: {head}: {self.fact.why or sass.CLASSES[cls]}"
        if self.lines:
            said += ("; the kernel is at " if self.fact.rule == "needs" else "; at ")
            said += _join_lines(self.lines)
        return said


def _join_lines(lines):
    """"a.cu:14, :17" (the file named once), at most LINES_SHOWN of them."""
    shown, last_file = [], None
    for item in lines[:LINES_SHOWN]:
        path, _, line = item.rpartition(":")
        shown.append(item if path != last_file else f":{line}")
        last_file = path
    more = len(lines) - LINES_SHOWN
    return ", ".join(shown) + (f" (and {more} more)" if more > 0 else "")


def _lines(instructions, sources, exercise_file):
    """The distinct source lines of instructions, as shown to the student,
    in the order of the file (the first instruction's file first)."""
    out = []
    suffixes = (exercise_file,) if exercise_file else ()
    for i in instructions:
        loc = i.line_in(suffixes) if suffixes else (i.locations[-1] if i.locations else None)
        if loc is None:
            continue
        item = (sanitizer_report.display_path(loc.path, sources), loc.line)
        if item not in out:
            out.append(item)
    files = list(dict.fromkeys(path for path, _ in out))
    return [f"{path}:{line}" for path, line in sorted(out, key=lambda x: (files.index(x[0]), x[1]))]


def evaluate(listings, facts, sources=(), exercise_file=""):
    """(kernels checked, [Finding]) for the listings of one module
    ([(arch, nvdisasm text)], wbcore.sass.disassemble) against its facts.
    exercise_file: the end of the exercise file's path
    (shuffle/shflSwap.cu), whose lines are preferred to a header's."""
    checked, findings = [], []
    for listing in listings:
        arch, text = listing
        # A plain (arch, text) pair says nothing of the parameters: a fact
        # on PARAM.ADDRESSED then fails rather than holds unread.
        scalars = getattr(listing, "scalars", None)
        for name, instructions in sass.kernels(sass.parse(text)).items():
            kernel = sass.short_name(name)
            checked.append(f"{kernel} ({arch})" if arch else kernel)
            by_class = {}
            for i in sass.counted(instructions):
                for cls in sass.classes(i):
                    by_class.setdefault(cls, []).append(i)
            # The kernel's own reads of the active mask are votes too.
            mask_votes = sass.mask_votes(instructions)
            if mask_votes:
                by_class.setdefault("VOTE", []).extend(mask_votes)
            inside_loops = set(sass.in_loops(instructions))
            addressed = sass.shuffle_addressed(instructions)
            if addressed:
                by_class["SHFL.ADDRESSED"] = addressed
            if scalars is not None:
                addressed = sass.parameter_addressed(instructions, scalars.get(name, []))
                if addressed:
                    by_class["PARAM.ADDRESSED"] = addressed
            params = getattr(listing, "params", None)
            if params is not None:
                plain = sass.last_parameter_plain_loads(instructions, params.get(name, {}))
                if plain:
                    by_class["COEF.PLAIN"] = plain
            for fact in facts:
                unread = (scalars if fact.cls == "PARAM.ADDRESSED" else
                          params if fact.cls == "COEF.PLAIN" else True)
                if unread is None:
                    findings.append(Finding(kernel, arch, fact, -1, []))
                    continue
                counted = by_class.get(fact.cls, [])
                looped = 0
                if fact.rule == "at most" and fact.cls in LOOP_BOUNDED:
                    looped = sum(1 for i in counted if i in inside_loops)
                if fact.holds(len(counted)) and not looped:
                    continue
                if fact.rule == "needs":
                    # Where the kernel is: its first line in the exercise file.
                    where = _lines(instructions, sources, exercise_file)[:1]
                else:
                    where = _lines(counted, sources, exercise_file)
                findings.append(Finding(kernel, arch, fact, len(counted), where, looped))
    return checked, findings


def describe(findings):
    """One line per failing fact and kernel; a kernel built for several
    architectures that fails alike on each is named once."""
    out = []
    for f in findings:
        line = f.message()
        if line not in out:
            out.append(line)
    return out


def failed_facts(findings):
    """The texts of the facts that failed, each once, in order."""
    out = []
    for f in findings:
        if f.fact.text not in out:
            out.append(f.fact.text)
    return out
