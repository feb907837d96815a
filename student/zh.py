"""The Chinese edition's data: workbook.zh.toml, beside workbook.toml.

It holds, keyed by the names workbook.toml uses:
  [[term]]                the glossary (English, Chinese, meaning in both,
                          and the variants a Chinese text must not use);
                          docs/glossary.md and docs/zh/glossary.md are
                          written from it (python3 -m student.zh --glossary)
  [section.NAME]          title and intro of a section
  [exercise."SEC/NAME"]   todo: the task of each TODO block of the starter
                          file, one line each, in the file's order;
                          hints: one string per hint step of workbook.toml
  [mistake."SEC/FILE"]    bug: the known mistake a mutant makes (the
                          `// bug:` line of tests/mutants/SEC/FILE.cu)
  [method_why]            the reasons of workbook.toml's method facts,
                          English = Chinese
The English stays in workbook.toml and the files; nothing here replaces it.
tests/checks/i18n_check.py proves that every hint step, TODO block, section
and known mistake has its Chinese and that the texts use the glossary's terms.

  python3 -m student.zh --glossary   rewrite both glossary pages from the data
"""
import pathlib
import sys

from wbcore import course as wbex
from wbcore import files as wbfiles

DATA_FILE = "workbook.zh.toml"
GLOSSARY_EN = pathlib.PurePosixPath("docs") / "glossary.md"
GLOSSARY_ZH = pathlib.PurePosixPath("docs") / "zh" / "glossary.md"

_cache = {}


class DataError(RuntimeError):
    """workbook.zh.toml cannot be read."""


def load(root=wbex.ROOT):
    path = pathlib.Path(root) / DATA_FILE
    key = (str(path), path.stat().st_mtime_ns if path.exists() else None)
    if key in _cache:
        return _cache[key]
    if wbex.tomllib is None:
        raise DataError(f"reading {DATA_FILE} needs Python 3.11 or newer, or tomli")
    try:
        data = wbex.tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise DataError(f"cannot read {path}: {err.strerror}") from None
    except wbex.tomllib.TOMLDecodeError as err:
        raise DataError(f"{path}: {err}") from None
    _cache.clear()
    _cache[key] = data
    return data


def _safe(root=wbex.ROOT):
    """The data, or {} when it cannot be read: the loop then falls back to
    English rather than failing a student's run."""
    try:
        return load(root)
    except DataError:
        return {}


def _strip(text):
    return text.strip() if isinstance(text, str) else None


def section_title(name, root=wbex.ROOT):
    return _strip(_safe(root).get("section", {}).get(name, {}).get("title"))


def section_intro(name, root=wbex.ROOT):
    return _strip(_safe(root).get("section", {}).get(name, {}).get("intro"))


def hints(e, root=wbex.ROOT):
    """The Chinese hint steps of exercise e, or its English ones where the
    Chinese is missing or has another number of steps."""
    zh = _safe(root).get("exercise", {}).get(e.key, {}).get("hints")
    if isinstance(zh, list) and len(zh) == len(e.hints) and all(isinstance(h, str) for h in zh):
        return tuple(h.strip() for h in zh)
    return e.hints


def todo(e, index=0, root=wbex.ROOT):
    """The Chinese task of the exercise's index-th TODO block, or None."""
    lines = _safe(root).get("exercise", {}).get(e.key, {}).get("todo", [])
    return _strip(lines[index]) if isinstance(lines, list) and index < len(lines) else None


def mistake(ref, root=wbex.ROOT):
    """The Chinese of a mutant's `// bug:` line (ref: SEC/FILE stem), or None."""
    return _strip(_safe(root).get("mistake", {}).get(ref, {}).get("bug"))


def method_why(text, root=wbex.ROOT):
    """The Chinese of a method fact's reason (workbook.toml), or None."""
    return _strip(_safe(root).get("method_why", {}).get(text))


def terms(root=wbex.ROOT):
    return list(load(root).get("term", []))


# ---------------------------------------------------------------- glossary

def _cell(text):
    return (text or "").replace("|", "\\|").strip()


def _row(*cells):
    return ("| " + " | ".join(_cell(c) for c in cells) + " |").replace("|  |", "| |")


def glossary_en(root=wbex.ROOT):
    lines = ["# Glossary: English and Chinese terms {#glossary}", "",
             "The terms this workbook uses, with the words the Chinese edition of the book",
             "(*CUDA C编程权威指南*) and most Chinese CUDA material use for them.",
             "Written from workbook.zh.toml (`python3 -m student.zh --glossary`), which the",
             "Chinese hints, messages and notes take their terms from.", "",
             "| English | 中文 | meaning here |", "|---|---|---|"]
    for term in terms(root):
        lines.append(_row(term["en"], term["zh"], term.get("meaning")))
    return "\n".join(lines) + "\n"


def glossary_zh(root=wbex.ROOT):
    lines = ["# 术语表：中英文对照 {#glossary}", "",
             "本练习册使用的术语，中文采用《CUDA C编程权威指南》及大多数中文 CUDA 资料的译法。",
             "本页由 workbook.zh.toml 生成（`python3 -m student.zh --glossary`），",
             "中文提示、消息和笔记都以这里的译法为准。", "",
             "| 中文 | English | 含义 |", "|---|---|---|"]
    for term in terms(root):
        lines.append(_row(term["zh"], term["en"], term.get("meaning_zh")))
    return "\n".join(lines) + "\n"


def write_glossaries(root=wbex.ROOT):
    written = []
    for rel, text in ((GLOSSARY_EN, glossary_en(root)), (GLOSSARY_ZH, glossary_zh(root))):
        path = pathlib.Path(root) / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        wbfiles.atomic_write(path, text)
        written.append(str(rel))
    return written


def main(argv):
    if argv == ["--glossary"]:
        print("wrote " + ", ".join(write_glossaries()))
        return 0
    print("usage: python3 -m student.zh --glossary", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
