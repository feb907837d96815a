#!/usr/bin/env python3
"""The Chinese page of the layout kernels' bank diagrams, written from the
English page that docs/generators/docgen draws at build time (same pictures,
same numbers). Each line of the English has a known shape; a line of any
other shape stops the build, so the two pages cannot drift apart.

  python3 docs/zh/layout_diagrams.py ENGLISH.md CHINESE.md
"""
import pathlib
import re
import sys

INTRO = """\
# 布局核函数的存储体示意图 {#layout_diagrams}

每张图画出布局核函数的一个线程束（线程束 0）访问它的共享内存瓦片: 瓦片的格子按所在存储体
着色，线程束访问的 32 个格子加框并标出通道号；下方逐个通道画出每个线程命中的存储体，以及每个
存储体必须送出多少个不同的字。最高的那根柱子就是冲突的路数: 这次请求需要的趟数（Nsight
Compute 中称为波前）。

这些图在构建时由 `docs/generators/docgen` 根据 `chapters/layout/layout_maps.h` 画出，所用的
下标映射与测试和存储体模型相同；性能分析测试在 GPU 上检查的也是同样的数字。
"""

ACCESS = {"row": "按行", "column": "按列"}
SHAPE = {"Square": "方形", "Rectangular": "矩形"}


def line_zh(line):
    m = re.fullmatch(r"## (Square|Rectangular) tile, (\d+) rows of (\d+) ints \(book ([\d.]+)\)", line)
    if m:
        return f"## {SHAPE[m[1]]}瓦片，{m[2]} 行，每行 {m[3]} 个 int（书 {m[4]} 节）"
    m = re.fullmatch(r"### (square|rect) (\w+)", line)
    if m:
        return line
    m = re.fullmatch(r"Store: (row|column), (\d+)-way\. Load: (row|column), (\d+)-way\."
                     r"( Dynamic shared memory: the same banks as the static tile\.)?", line)
    if m:
        tail = " 动态共享内存: 存储体与静态瓦片完全相同。" if m[5] else ""
        return (f"存储: {ACCESS[m[1]]}，{m[2]} 路存储体冲突。加载: {ACCESS[m[3]]}，"
                f"{m[4]} 路存储体冲突。{tail}").replace("，1 路存储体冲突", "，没有冲突")
    m = re.fullmatch(r'@image html (\S+\.svg) "(\w+) (\w+): the (store|load)"', line)
    if m:
        return f'@image html {m[1]} "{m[2]} {m[3]}: {"存储" if m[4] == "store" else "加载"}"'
    if not line.strip():
        return line
    raise ValueError(f"a line of the English bank-diagram page this script does not know: "
                     f"{line!r}; teach docs/zh/layout_diagrams.py its Chinese")


def translate(text):
    lines = text.splitlines()
    # The English intro: the title and its two paragraphs, up to the first "## ".
    first = next(i for i, l in enumerate(lines) if l.startswith("## "))
    return INTRO + "\n" + "\n".join(line_zh(l) for l in lines[first:]) + "\n"


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    try:
        text = translate(pathlib.Path(argv[0]).read_text(encoding="utf-8"))
    except (OSError, ValueError, StopIteration) as err:
        print(f"layout_diagrams.py: {err}", file=sys.stderr)
        return 1
    out = pathlib.Path(argv[1])
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
