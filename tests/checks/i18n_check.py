#!/usr/bin/env python3
"""The Chinese edition is complete and speaks the glossary's terms.

Fails, naming what to add or change, when: a message of student/i18n.py
lacks a text or its placeholders differ; the student loop prints a string
of its own instead of a message; an exercise's hint steps, TODO tasks or a
section's title and intro have no Chinese in workbook.zh.toml; a known
mistake of tests/mutants/failures.json has none; a Chinese text uses a word
the glossary rejects (another translation, or the English term outside code);
a line shape of the sanitize and profile checks is left in English; the
glossary pages differ from the data; a section's notes have no Chinese
page, or its header names no commit of the English. --self-test breaks
each on purpose and shows it caught; --stale lists Chinese notes whose
English changed since the commit they follow.
"""
import argparse
import ast
import copy
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]

from wbcore import course as wbex  # noqa: E402
from wbcore import diagnosis as wbdiag  # noqa: E402
from wbcore import ncu_source  # noqa: E402
from wbcore import sanitizer_report as sr  # noqa: E402
from student import i18n  # noqa: E402
from student import zh as wbzh  # noqa: E402

CJK = re.compile(r"[\u4e00-\u9fff]")
# The modules whose output a student reads: every print and input there
# goes through i18n.t (or prints data: hints, test output, paths).
LOOP_FILES = ("workbook", "student/progress.py", "student/hints.py", "student/summary.py",
              "student/cluster.py")
PRINTING = ("print", "input", "append", "extend", "LookupError")
# Chinese pages: their English, and the header that says which commit of it
# they follow.
NOTES_HEADER = re.compile(r"<!--\s*follows\s+(?P<path>\S+)\s+@\s+(?P<commit>[0-9a-f]{7,40})\s*-->")
ZH_PAGES = [("chapters/" + s + "/notes.zh.md", "chapters/" + s + "/notes.md")
            for s in wbex.section_names()] + [
    ("docs/errata.zh.md", "docs/errata.md"),
    ("docs/zh/mainpage.md", "docs/mainpage.md"),
]

# Chinese pages with no English twin: held to the glossary only.
ZH_ONLY_PAGES = ["docs/zh/start.md"]

# ---------------------------------------------------------------- messages

def english_words(text):
    """Words of two letters or more outside placeholders."""
    return re.findall(r"[A-Za-z]{2,}", re.sub(r"\{[^}]*\}", "", text))


def check_messages(messages, zh_only=i18n.ZH_ONLY, extra=i18n.ZH_EXTRA_FIELDS):
    problems = []
    from wbcore import build as wbbuild
    for wid, english in wbbuild.WORDS.items():
        if messages.get(wid, ("",))[0] != english:
            problems.append(f"message {wid}: wbcore/build.py says {english!r}; student/i18n.py "
                            "must hold the same English and its Chinese")
    for mid, texts in messages.items():
        if not isinstance(texts, tuple) or len(texts) != 2 or not all(
                isinstance(x, str) and x.strip() for x in texts):
            problems.append(f"message {mid}: needs an English and a Chinese text "
                            "(student/i18n.py, MESSAGES)")
            continue
        en, zh = texts
        want = i18n.placeholders(en) | extra.get(mid, set())
        if i18n.placeholders(zh) != want:
            problems.append(f"message {mid}: the Chinese has the placeholders "
                            f"{sorted(i18n.placeholders(zh))}, the English {sorted(want)}")
        leftover = [w for w in english_words(zh) if w.lower() not in ALLOWED_ASCII]
        if not CJK.search(zh) and zh.lower() != en.lower() and english_words(en) and not set(
                english_words(en)) <= {"workbook"}:
            problems.append(f"message {mid}: the Chinese text is not Chinese: {zh!r}")
        elif leftover and mid not in zh_only and set(leftover) - set(english_words(en)):
            problems.append(f"message {mid}: English words {sorted(set(leftover))} in the "
                            "Chinese that the English does not have")
    return problems


# ASCII words that stay in Chinese text: commands, tools, API, file names.
ALLOWED_ASCII = {"workbook", "ctest", "starter", "check", "perf", "bench", "hint", "step",
                 "gpu", "nvidia", "readme", "md", "ctrl", "bak", "sbatch", "slurm", "on", "a",
                 "cluster", "with", "wb_preset", "ci", "build", "default", "run", "wb_lang",
                 "shell", "cuda", "chapters", "en", "zh", "section", "command", "help",
                 "status", "test", "watch", "reset", "grade", "errata", "sm"}


def string_parts(node):
    """The literal text of a str constant or f-string (placeholders left out)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [v.value for v in node.values
                if isinstance(v, ast.Constant) and isinstance(v.value, str)]
    return []


# Two words in a row: a sentence a student would read (not a key, a flag or
# a job script's #SBATCH line).
PHRASE = re.compile(r"[A-Za-z]{2,}[ ,;:']+[A-Za-z]{2,}")


def check_loop_code(files=LOOP_FILES, root=ROOT):
    """Strings with words printed by the loop, not taken from the messages."""
    problems = []
    for rel in files:
        path = pathlib.Path(root) / rel
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else (
                node.func.attr if isinstance(node.func, ast.Attribute) else "")
            if name not in PRINTING:
                continue
            for arg in node.args:
                ids = {id(c.args[0]) for c in ast.walk(arg) if isinstance(c, ast.Call)
                       and isinstance(c.func, ast.Name) and c.func.id == "t" and c.args}
                for sub in ast.walk(arg):
                    if id(sub) in ids:
                        continue   # a message id
                    for text in string_parts(sub):
                        if PHRASE.search(text):
                            problems.append(f"{rel}:{sub.lineno}: {name}() of {text[:50]!r}: "
                                            "put the text in student/i18n.py's MESSAGES and "
                                            "print t(id, ...)")
    return problems


# ---------------------------------------------------------------- the data

def todo_count(e, root=ROOT):
    try:
        return len(wbex.TODO_RE.findall(e.starter_file(root).read_text()))
    except OSError:
        return 0


def check_data(data, root=ROOT):
    problems = []
    sections = data.get("section", {})
    for s in wbex.sections(root):
        zh = sections.get(s.name, {})
        for field in ("title", "intro"):
            if not isinstance(zh.get(field), str) or not CJK.search(zh[field]):
                problems.append(f"section {s.name}: no Chinese {field} "
                                f"([section.{s.name}] {field} in {wbzh.DATA_FILE})")
    exercises = data.get("exercise", {})
    for e in wbex.exercises(root):
        zh = exercises.get(e.key)
        where = f"[exercise.\"{e.key}\"] in {wbzh.DATA_FILE}"
        if zh is None:
            problems.append(f"{e.key}: no Chinese ({where})")
            continue
        hints = zh.get("hints", [])
        if len(hints) != len(e.hints):
            problems.append(f"{e.key}: {len(e.hints)} hint steps in workbook.toml, "
                            f"{len(hints)} in Chinese ({where})")
        for i, (en, text) in enumerate(zip(e.hints, hints), 1):
            if not CJK.search(text):
                problems.append(f"{e.key}: hint {i} is not Chinese ({where})")
            missing = [c for c in re.findall(r"`([^`]+)`", en) if c not in text]
            if missing:
                problems.append(f"{e.key}: hint {i} drops the code {missing[:3]} of the "
                                f"English (code stays as it is; {where})")
            en_numbers = sorted(re.findall(r"(?<![\w.])\d+(?:\.\d+)?", en))
            lost = [n for n in set(en_numbers) if n not in re.findall(
                r"(?<![\w.])\d+(?:\.\d+)?", text)]
            if lost:
                problems.append(f"{e.key}: hint {i} lacks the number(s) {sorted(lost)} of the "
                                f"English ({where})")
        todos = zh.get("todo", [])
        if len(todos) != todo_count(e, root):
            problems.append(f"{e.key}: {todo_count(e, root)} TODO block(s) in "
                            f"{e.starter_file(root).relative_to(root)}, {len(todos)} Chinese "
                            f"task line(s) ({where}, todo)")
        for line in todos:
            if not CJK.search(line) or "\n" in line.strip():
                problems.append(f"{e.key}: a TODO task must be one line of Chinese ({where})")
    known = set(wbex.section_names(root))
    for key in exercises:
        if key.split("/")[0] not in known or not any(e.key == key for e in wbex.exercises(root)):
            problems.append(f"{wbzh.DATA_FILE}: [exercise.\"{key}\"] names no exercise of "
                            "workbook.toml")
    problems += check_mistakes(data, root)
    problems += check_method_whys(data, root)
    return problems


def check_method_whys(data, root=ROOT):
    """Every reason of a method fact, and every instruction class, has its
    Chinese (what the method check's lines say in ./workbook check)."""
    from wbcore import method as wbmethod
    from wbcore import sass
    problems = []
    whys = data.get("method_why", {})
    for e in wbex.exercises(root):
        for fact in wbmethod.exercise_facts(list(getattr(e, "method", ()))):
            if fact.why and not CJK.search(whys.get(fact.why, "")):
                problems.append(f"{e.key}: the method fact {fact.text!r} has no Chinese reason "
                                f"([method_why] in {wbzh.DATA_FILE})")
    for cls in sass.CLASSES:
        if cls not in i18n.CLASSES_ZH:
            problems.append(f"instruction class {cls} has no Chinese (student/i18n.py, CLASSES_ZH)")
    return problems


def shipped_mistakes(root=ROOT):
    """SEC/FILE of every mutant the shipped records name (what a student's
    diagnosis can show)."""
    records = wbdiag.load_records("/nonexistent", shipped=pathlib.Path(root) / "tests" /
                                  "mutants" / "failures.json")
    refs = []
    for r in records.values():
        path = pathlib.PurePosixPath(r["file"])
        refs.append((f"{r['section']}/{path.stem}", r["file"]))
    return sorted(set(refs))


def check_mistakes(data, root=ROOT):
    problems = []
    mistakes = data.get("mistake", {})
    for ref, file in shipped_mistakes(root):
        bug = mistakes.get(ref, {}).get("bug")
        if not isinstance(bug, str) or not CJK.search(bug):
            problems.append(f"known mistake {file}: no Chinese for its `// bug:` line "
                            f"([mistake.\"{ref}\"] bug in {wbzh.DATA_FILE})")
            continue
        english = wbdiag.bug_line(pathlib.Path(root) / file)
        missing = [c for c in re.findall(r"`([^`]+)`", english) if c not in bug]
        if missing:
            problems.append(f"known mistake {ref}: the Chinese drops the code {missing[:3]}")
    return problems


# ---------------------------------------------------------------- terms

def prose(text):
    """The Chinese prose of a text: code blocks, `code`, links, doxygen
    commands, paths and （parenthesised English） taken out."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    text = re.sub(r"^(?: {4}|\t).*$", " ", text, flags=re.M)
    text = re.sub(r"`[^`\n]*`", " ", text)
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = re.sub(r"^\s*[@\\](?:image|ref|anchor|section|page)\b.*$", " ", text, flags=re.M)
    text = re.sub(r"@ref\s+\S+(?:\s+\"[^\"]*\")?", " ", text)
    text = re.sub(r"\{#[^}]*\}", " ", text)
    text = re.sub(r"（[\x00-\x7f]*）|\([\x00-\x7f]*\)", " ", text)
    text = re.sub(r"[\w./-]+\.(?:md|cu|cuh|h|py|toml|svg|csv)\b", " ", text)
    text = re.sub(r"[\w.-]+/[\w./-]*", " ", text)             # section/exercise, paths
    text = re.sub(r"\w+(?:\[[^\]\n]*\])+", " ", text)          # tile[icol][irow]
    return text


def term_problems(texts, terms):
    """(where, text) pairs checked against every term's avoid list."""
    problems = []
    for where, text in texts:
        body = prose(text)
        for term in terms:
            for bad in term.get("avoid", []):
                if re.fullmatch(r"[A-Za-z][A-Za-z -]*", bad):
                    hit = re.search(rf"(?<![\w-]){re.escape(bad)}(?![\w-])", body, re.I)
                else:
                    hit = bad in body
                if hit:
                    problems.append(f"{where}: uses \"{bad}\"; the glossary's term is "
                                    f"\"{term['zh']}\" ({term['en']})")
    return problems


def zh_texts(data, messages=i18n.MESSAGES, root=ROOT, pages=True):
    texts = [(f"message {mid}", zh) for mid, (_, zh) in messages.items()]
    texts += [(f"section {n} {f}", s.get(f, "")) for n, s in data.get("section", {}).items()
              for f in ("title", "intro")]
    for key, e in data.get("exercise", {}).items():
        texts += [(f"{key} hint {i}", h) for i, h in enumerate(e.get("hints", []), 1)]
        texts += [(f"{key} TODO task {i}", h) for i, h in enumerate(e.get("todo", []), 1)]
    texts += [(f"known mistake {k}", m.get("bug", "")) for k, m in data.get("mistake", {}).items()]
    texts += [(f"glossary {t['en']}", t.get("meaning_zh", "")) for t in data.get("term", [])]
    texts += [("output rule " + rid, fn(pattern.match(sample)))
              for rid, pattern, fn in i18n.OUTPUT_RULES for sample in SAMPLES.get(rid, [])]
    texts += [("sanitizer fix", text) for text in i18n.FIXES.values()]
    if pages:
        for rel in ZH_ONLY_PAGES + [rel for rel, _ in ZH_PAGES]:
            path = pathlib.Path(root) / rel
            if path.exists():
                texts.append((rel, path.read_text(encoding="utf-8")))
    return texts


# ---------------------------------------------------------------- test output

# One line of each shape the rules translate, as the checks print it.
SAMPLES = {
    "sanitize.reports": ["FAILED reduction/reduceSmem: racecheck reports 40 hazards:"],
    "sanitize.findings": ["FAILED layout/setColReadRow: memcheck reports 3 finding(s):"],
    "sanitize.run_failed": ["FAILED layout/x: under memcheck the kernel never returned (exit 124):"],
    "sanitize.clean": ["layout/setRowReadCol: synccheck clean"],
    "sanitize.race": ["  starter/reduction/reduceSmem.cu:41 writes, :42 reads: 40 hazards "
                      "between lanes of one warp (RAW), e.g. thread (5,0,0) in block (0,0,0)"],
    "sanitize.by_threads": ["  starter/layout/x.cu:27: invalid __shared__ write of size 4 bytes "
                            "by 2 threads (out of bounds), e.g. thread (0,31,0) in block (0,0,0)"],
    "sanitize.fix": ["    usual fix: " + text for text in i18n.FIXES],
    "sanitize.more_places": ["  ... and 4 more place(s)"],
    "sanitize.printed_of": ["  (the tool printed 3 of 1024 findings)"],
    "profile.must_be_correct": ["FAILED layout/x: the kernel must be correct before its bank "
                                "behaviour is graded:",
                                "FAILED reduction/reduceSmem: the kernel must be correct before "
                                "its technique is graded:"],
    "profile.wavefronts_bad": ["FAILED layout/setRowReadColPad: shared load wavefronts per "
                               "request 32.00, expected 1.00 from the bank model: a bank "
                               "conflict the exercise must avoid"],
    "profile.wavefronts_ok": ["layout/setRowReadCol: shared store wavefronts per request 1.00 "
                              "= expected 1.00"],
    "profile.no_shared": ["transpose/x: no shared-memory loads at all (expected 1.00 "
                          "wavefronts per request)"],
    "profile.where": ["  where: starter/transpose/transposeSmemPad.cu:38: 240 excess shared "
                      "wavefronts (256 taken, 16 needed): out[o] = tile[icol][irow];"],
    "profile.more_lines": ["         ... and 2 more line(s)"],
    "profile.lines_unavailable": ["  (the lines of the conflicting accesses are not available: "
                                  "ncu failed)"],
    "profile.no_line": ["  (Nsight Compute's source page shows no line with excess shared "
                        "wavefronts)"],
    "profile.store_sectors": ["transpose/naiveGmem: global store sectors per request 32.00, "
                              "expected 4.00: the writes are not coalesced"],
    "profile.constant": ["constant/constantBroadcast: constant-cache requests per warp-level "
                         "load 32.00 (2048 over 64 loads), expected 1.00 from the constant "
                         "model: the lanes of a warp read more distinct constant words than "
                         "the exercise asks (serialised)"],
    "method.finding": ["  reduceShfl: no SHFL instruction: each warp adds its values in registers, "
                       "by shuffle; the kernel is at starter/shuffle/reduceShfl.cu:14",
                       "  shflSwap: 2 LDG instruction(s), expected at most 1: each lane loads only "
                       "its own value; the partner's comes by shuffle, not from global memory; "
                       "at starter/shuffle/shflSwap.cu:17, :19",
                       "  reduceSmem: 3 STS instruction(s), expected none: "
                       "a shared-memory store (STS); at a.cu:1"],
    "method.failed": ["FAILED shuffle/reduceShfl (method):"],
    "method.failed_facts": ["  failed facts: needs SHFL | no BAR"],
    "method.passed": ["PASSED shuffle/reduceShfl (method): needs SHFL in reduceShfl (sm_90)"],
    "tools.missing": ["the workbook cannot build without: ninja (apt-get install ninja-build); "
                      "nvcc, the CUDA 13 compiler (install the CUDA Toolkit from NVIDIA and put "
                      "/usr/local/cuda/bin on PATH)"],
    "tests.unlisted": ["ctest could not list the tests: [Errno 2] No such file or directory"],
    "gpu.no_smi": ["nvidia-smi is not installed, so no NVIDIA driver is present"],
    "gpu.smi_failed": ["nvidia-smi failed: [Errno 13] Permission denied"],
    "gpu.no_gpu": ["nvidia-smi lists no GPU: No devices were found"],
    "test.skipped": ["skipped: no GPU"],
    "test.failed_plain": ["FAILED layout/x: the runner crashed"],
    "gtest.equality": ["Expected equality of these values:"],
    "gtest.which_is": ["    Which is: 7"],
    "gtest.value_of": ["Value of: ok"],
    "gtest.actual": ["  Actual: false"],
    "gtest.expected": ["Expected: true"],
    "gtest.near": ["The difference between actual.value and expected is 1, which exceeds "
                   "1e-9 * expected, where"],
    "gtest.evaluates": ["expected evaluates to 1, and", "1e-9 * expected evaluates to 1e-09."],
    "gtest.failure": ["tests/layout/layout_test.cu:120: Failure"],
    "counters.active_threads": [
        "reduction/reduceSmem: active threads per warp instruction 31.0 of 32, at least 24",
        "FAILED reduction/reduceSmem: active threads per warp instruction 14.4 of 32, expected "
        "at least 24: most instructions run with few lanes, as when one thread adds the "
        "block's values one by one; a tree halves them each step with the whole warp"],
    "counters.load_efficiency": [
        "shuffle/reduceShfl: global-load efficiency 99% of the bytes fetched, at least 80%",
        "FAILED shuffle/reduceShflUnroll: global-load efficiency 25% of the bytes fetched, "
        "expected at least 80%: the loads are not coalesced (the lanes of a warp must read "
        "consecutive words; an unrolled thread's elements are a block apart)"],
    "harness.output": [
        "reduceSmem left 32768 of 32768 output element(s) unwritten, the first at 0.",
        "transposeSmem wrote before the start of its output: 3 guard element(s) changed, the "
        "first at offset -2. transposeSmem left 5 of 100 output element(s) unwritten, the first "
        "at (row 1, col 2). transposeSmem wrote past the end of its output (100 elements): 1 "
        "guard element(s) changed, the first at offset 100.",
        "setRowReadCol: 3 of 1024 element(s) differ from the reference",
        "cannot time reduceSmem before it is correct: reduceSmem left 4 of 4 output element(s) "
        "unwritten, the first at 0.",
        "reduceSmemUnroll was wrong in timed run 1 on 16777216 elements: reduceSmemUnroll left "
        "32768 of 32768 output element(s) unwritten, the first at 0."],
    "harness.mismatch_at": ["  at (row 0, col 1): expected 3, got poison (never written)",
                            "  at 7: expected 12, got 5 (off by 2 shared-memory poison words)"],
    "harness.ratio": ["reference reduceGmem 0.1230 ms / reduceSmem 0.0870 ms = 1.41x "
                      "(need >= 1.20x)"],
}


def check_output_rules(rules=None, fixes=None):
    """Every rule has a sample it turns into Chinese; every fix the
    sanitizer report gives, and every line it and the ncu reader write on
    the shipped tool texts, comes out in Chinese."""
    rules = i18n.OUTPUT_RULES if rules is None else rules
    fixes = i18n.FIXES if fixes is None else fixes
    problems = []
    for rid, pattern, fn in rules:
        samples = SAMPLES.get(rid)
        if not samples:
            problems.append(f"output rule {rid}: no sample line in tests/checks/i18n_check.py")
        for line in samples or []:
            m = pattern.match(line)
            if not m or not CJK.search(fn(m)):
                problems.append(f"output rule {rid}: does not turn its sample into Chinese: "
                                f"{line!r}")
    # Every answer of fix_for.
    groups = [sr.Group("race", (("a.cu", 1, "write"), ("a.cu", 2, "read")), warp=True),
              sr.Group("race", (("a.cu", 1, "write"),), warp=False),
              sr.Group("race", (("a.cu", 1, "write"), ("a.cu", 2, "read")), warp=False,
                       hazard_types={"WAR"}),
              sr.Group("race", (("a.cu", 1, "write"), ("a.cu", 2, "read")), warp=False),
              sr.Group("memory", (), titles=["Misaligned Shared Write"]),
              sr.Group("memory", (), titles=["Invalid __global__ read"]),
              sr.Group("barrier", ()), sr.Group("uninitialized", ())]
    for g in groups:
        fix = sr.fix_for(g)
        if fix not in fixes:
            problems.append(f"the sanitizer's fix {fix[:60]!r}... has no Chinese "
                            "(student/i18n.py, FIXES)")
    lines = []
    data = ROOT / "tests" / "checks" / "data"
    for path in sorted((data / "sanitizer").glob("*.txt")):
        lines += ["  " + l for l in sr.explain(path.read_text(), [("/srv/x", "starter")], [])]
    for path in sorted((data / "ncu_source").glob("*view.txt")):
        try:
            found = ncu_source.describe(ncu_source.parse(path.read_text()))
        except ncu_source.SourcePageError:
            continue
        lines += ["  where: " + found[0]] + ["         " + l for l in found[1:]] if found else []
    saved = i18n._current
    i18n.set_lang("zh")
    try:
        for line in lines:
            out = _translate(line, rules)
            if not CJK.search(out):
                problems.append(f"a line the checks print stays English: {line.strip()[:90]!r}")
    finally:
        i18n._current = saved
    return problems


def _translate(line, rules):
    for _, pattern, fn in rules:
        m = pattern.match(line)
        if m:
            return fn(m)
    return line


# ---------------------------------------------------------------- pages

def check_glossary_pages(root=ROOT):
    problems = []
    for term in wbzh.terms(root):
        for field in ("en", "zh", "meaning", "meaning_zh"):
            if "<" in re.sub(r"`[^`]*`", "", term.get(field, "")):
                problems.append(f"glossary term {term['en']!r}: {field} has a '<' outside "
                                "`code`, which Doxygen reads as an HTML tag")
    for rel, text in ((wbzh.GLOSSARY_EN, wbzh.glossary_en(root)),
                      (wbzh.GLOSSARY_ZH, wbzh.glossary_zh(root))):
        path = pathlib.Path(root) / rel
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            problems.append(f"{rel} differs from the glossary in {wbzh.DATA_FILE}: "
                            "run python3 -m student.zh --glossary")
    return problems


def check_pages(root=ROOT):
    problems = []
    for rel, english in ZH_PAGES:
        path = pathlib.Path(root) / rel
        if not path.exists():
            problems.append(f"{rel}: missing (the Chinese of {english})")
            continue
        text = path.read_text(encoding="utf-8")
        m = NOTES_HEADER.search(text.split("\n", 3)[0] + text.split("\n", 3)[1]
                                if text.count("\n") > 1 else text)
        if not m or m["path"] != english:
            problems.append(f"{rel}: its first lines must say which English it follows: "
                            f"<!-- follows {english} @ COMMIT -->")
        elif not CJK.search(text):
            problems.append(f"{rel}: not Chinese")
        else:
            problems += page_fidelity(rel, text, english_at(english, m["commit"], root))
    return problems


NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*")
MUTANT_REF = re.compile(r"\b\w+/\w+__\w+\b")
IMAGE = re.compile(r"@image html (\S+)")
REF_GLUED = re.compile(r"@ref \w+[^\x00-\x7f]")


def english_at(english, commit, root=ROOT):
    """The English page as it was at the commit the Chinese follows (the
    file as it is now where git cannot say)."""
    shown = subprocess.run(["git", "show", f"{commit}:{english}"], cwd=root,
                           capture_output=True, text=True)
    if shown.returncode == 0:
        return shown.stdout
    try:
        return (pathlib.Path(root) / english).read_text(encoding="utf-8")
    except OSError:
        return ""


def page_fidelity(rel, text, english):
    """What a faithful Chinese page keeps of its English: every number (so
    every measurement keeps its source), every mutant and picture it names;
    and Doxygen must see where each @ref ends."""
    problems = []
    for what, pattern in (("number", NUMBER), ("known mistake", MUTANT_REF),
                          ("picture", IMAGE)):
        lost = sorted(set(pattern.findall(english)) - set(pattern.findall(text)))
        if lost:
            problems.append(f"{rel}: lacks the {what}(s) {lost[:6]} of its English")
    for hit in REF_GLUED.findall(text):
        problems.append(f"{rel}: {hit!r}: Doxygen reads the Chinese after @ref as part of "
                        "the name; quote the link text: @ref name \"文字\"")
    return problems


def stale_pages(root=ROOT):
    """(page, english, commit) of each Chinese page whose English changed
    after the commit it follows."""
    out = []
    for rel, english in ZH_PAGES:
        path = pathlib.Path(root) / rel
        if not path.exists():
            continue
        m = NOTES_HEADER.search(path.read_text(encoding="utf-8"))
        if not m:
            continue
        diff = subprocess.run(["git", "diff", "--quiet", m["commit"], "--", english],
                              cwd=root, capture_output=True)
        if diff.returncode != 0:
            out.append((rel, english, m["commit"]))
    return out


def all_problems(data=None, messages=None, root=ROOT, pages=True):
    data = wbzh.load(root) if data is None else data
    messages = i18n.MESSAGES if messages is None else messages
    problems = check_messages(messages) + check_loop_code(root=root) + check_data(data, root)
    problems += term_problems(zh_texts(data, messages, root, pages), data.get("term", []))
    problems += check_output_rules()
    if pages:
        problems += check_glossary_pages(root) + check_pages(root)
    return problems


# ---------------------------------------------------------------- self-test

def self_test():
    """Each kind of gap, made on purpose, is caught."""
    data = wbzh.load()
    failures = []

    def expect(what, problems, needle):
        if not any(needle in p for p in problems):
            failures.append(f"not caught: {what} (looked for {needle!r} in {problems[:3]})")
        else:
            print(f"caught: {what}")

    broken = dict(i18n.MESSAGES)
    broken["status.next"] = (broken["status.next"][0], "")
    expect("a message without Chinese", check_messages(broken), "status.next")
    broken = dict(i18n.MESSAGES)
    broken["hint.header"] = (broken["hint.header"][0], "第 {number} 步提示")
    expect("a Chinese message that drops a placeholder", check_messages(broken), "hint.header")

    d = copy.deepcopy(data)
    d["exercise"]["layout/setColReadCol"]["hints"].pop()
    expect("a hint step without Chinese", check_data(d), "layout/setColReadCol: 3 hint steps")
    d = copy.deepcopy(data)
    d["exercise"]["layout/setColReadCol"]["todo"].pop()
    expect("a TODO block without its Chinese task", check_data(d), "TODO block")
    d = copy.deepcopy(data)
    del d["section"]["shuffle"]["intro"]
    expect("a section without its Chinese intro", check_data(d), "section shuffle")
    d = copy.deepcopy(data)
    d["mistake"].pop(next(iter(d["mistake"])))
    expect("a known mistake without Chinese", check_data(d), "known mistake")
    d = copy.deepcopy(data)
    hints = d["exercise"]["reduction/reduceSmem"]["hints"]
    hints[0] = hints[0].replace("`__syncthreads()`", "__syncthreads()")
    hints[1] = hints[1].replace("`__syncthreads()`", "屏障函数")
    expect("a hint that drops the code of the English", check_data(d), "drops the code")
    d = copy.deepcopy(data)
    hints = d["exercise"]["transpose/transposeSmemUnrollPad"]["hints"]
    hints[0] = hints[0].replace("64", "六十四")
    expect("a hint that loses a number of the English", check_data(d), "lacks the number")

    terms = data["term"]
    expect("another word for 归约", term_problems([("hint", "用共享内存做并行规约")], terms),
           "\"规约\"")
    expect("another word for 存储体冲突",
           term_problems([("hint", "这样会产生 bank 冲突")], terms), "存储体冲突")
    expect("the English term in Chinese prose",
           term_problems([("hint", "每个 warp 有 32 个通道")], terms), "\"warp\"")
    expect("another word for 线程束洗牌指令",
           term_problems([("hint", "用线程束混洗交换寄存器")], terms), "线程束混洗")
    ok = term_problems([("hint", "线程束（warp）调用 `__shfl_down_sync`，见 warp_model.h")],
                       terms)
    if ok:
        failures.append(f"code, a parenthesis and a file name are not prose: {ok}")
    else:
        print("passed: code, a parenthesis and a file name are not prose")

    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        student = pathlib.Path(tmp) / "student"
        student.mkdir()
        (student / "loop.py").write_text('print(f"running the tests of {name} ...")\n'
                                         'print(t("check.running", name=name, log=log))\n')
        expect("a string printed past the messages",
               check_loop_code(files=("student/loop.py",), root=tmp), "student/loop.py:1")

    english = "Measured on an H100: 0.0647 ms, 28.5x; mutant layout/setRowReadCol__no_barrier."
    expect("a page that loses a number of its English",
           page_fidelity("p.zh.md", "在 H100 上测得 28.5 倍；错误版本 layout/setRowReadCol__no_barrier。",
                         english), "0.0647")
    expect("a page that loses a known mistake of its English",
           page_fidelity("p.zh.md", "在 H100 上测得 0.0647 ms，28.5 倍。", english),
           "layout/setRowReadCol__no_barrier")
    expect("an @ref glued to Chinese", page_fidelity("p.zh.md", "见 @ref errata。", ""),
           "quote the link text")

    rules = [r for r in i18n.OUTPUT_RULES if r[0] != "sanitize.race"]
    expect("a race line left in English", check_output_rules(rules=rules), "stays English")
    fixes = dict(i18n.FIXES)
    fixes.pop(next(iter(fixes)))
    expect("a sanitizer fix without Chinese", check_output_rules(fixes=fixes), "has no Chinese")

    if failures:
        print("\n".join(failures))
        return 1
    print("self-test: every gap made on purpose was caught")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--self-test", action="store_true", help="break each check on purpose")
    ap.add_argument("--stale", action="store_true",
                    help="list Chinese pages whose English changed since the commit they follow")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if args.stale:
        stale = stale_pages()
        for rel, english, commit in stale:
            print(f"{rel}: {english} changed since {commit} (git diff {commit} -- {english})")
        print(f"{len(stale)} stale Chinese page(s)")
        return 1 if stale else 0
    try:
        problems = all_problems()
    except wbzh.DataError as err:
        print(f"PROBLEM {err}")
        return 1
    for p in problems:
        print(f"PROBLEM {p}")
    # Mutants no GPU run has recorded yet reach no student's diagnosis: a
    # note, not a failure, until tests/mutants/failures.json names them.
    mistakes = wbzh.load().get("mistake", {})
    for path in sorted((ROOT / "tests" / "mutants").glob("*/*.cu")):
        ref = f"{path.parent.name}/{path.stem}"
        if wbdiag.bug_line(path) and ref not in mistakes:
            print(f"note: {path.relative_to(ROOT)} has no Chinese yet "
                  f"([mistake.\"{ref}\"] bug in {wbzh.DATA_FILE})")
    if problems:
        print(f"{len(problems)} problem(s) in the Chinese edition")
        return 1
    print("the Chinese edition is complete: every message, hint step, TODO task, section, "
          "known mistake and page, in the glossary's terms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
