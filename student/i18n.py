"""The student loop in English or Chinese: every message `./workbook` prints
to a student, by id, with named placeholders, and the language to print in.

The language, first match wins:
  ./workbook --lang zh|en ...   this run, and remembered for the next ones
  WB_LANG=zh|en                 this shell (not remembered)
  .workbook-lang                the choice last made with --lang
  en                            the default
`.workbook-lang` lives in the repository root beside .workbook-hints.json,
for the same reason (deleting build/ must not lose it); WB_LANG_STATE names
another file (the tests use a temporary one).

The Chinese of everything that is not a message (hints, the TODO task of
each exercise, section titles and intros, the known mistakes, the glossary)
is data, in workbook.zh.toml (student/zh.py reads it). Messages here use the
glossary's terms; tests/checks/i18n_check.py proves that every message has
both texts with the same placeholders and that no Chinese text uses a term
the glossary rejects.

Lines that the test scripts print (compute-sanitizer's and Nsight Compute's
findings, GoogleTest's failure lines) are written in English by tools that
run inside CTest and are read back by the diagnosis; the loop shows them in
Chinese by rewriting each known line shape (OUTPUT_RULES), keeping file
names, numbers and code as they are.
"""
import os
import pathlib
import re
import string

from wbcore import course as wbex
from wbcore import files as wbfiles

LANGS = ("en", "zh")
DEFAULT = "en"
LANG_ENV = "WB_LANG"
STATE_ENV = "WB_LANG_STATE"
STATE_FILE = ".workbook-lang"

_current = None


def state_path():
    override = os.environ.get(STATE_ENV)
    return pathlib.Path(override) if override else wbex.ROOT / STATE_FILE


def remembered(path=None):
    try:
        text = pathlib.Path(path or state_path()).read_text().strip()
    except OSError:
        return None
    return text if text in LANGS else None


def remember(lang, path=None):
    """Keep the choice for later runs; a file that cannot be written only
    costs the memory of it."""
    path = pathlib.Path(path or state_path())
    try:
        wbfiles.atomic_write(path, lang + "\n")
    except OSError:
        return False
    return True


def choose(cli=None, environ=None, path=None):
    """The language for this run (see the module's docstring); a --lang
    given is remembered."""
    environ = os.environ if environ is None else environ
    if cli in LANGS:
        if remembered(path) != cli:
            remember(cli, path)
        return cli
    env = environ.get(LANG_ENV, "").strip().lower()
    if env.startswith("zh"):
        return "zh"
    if env.startswith("en"):
        return "en"
    return remembered(path) or DEFAULT


def set_lang(lang):
    global _current
    _current = lang if lang in LANGS else DEFAULT


def lang():
    """The language in use: set_lang's, else the environment's or the
    remembered one (a module used without ./workbook's --lang)."""
    if _current is None:
        set_lang(choose())
    return _current


def is_zh():
    return lang() == "zh"


# ---------------------------------------------------------------- messages
# id: (English, Chinese). The English is what ./workbook always printed;
# the tests compare some of it byte for byte.

MESSAGES = {
    # ./workbook (the front door)
    "cli.interrupted": ("workbook: interrupted", "workbook: 已中断"),
    "cli.error": ("workbook: {err}", "workbook: {err}"),
    "cli.bad_lang": ("workbook: WB_LANG={value} is not a language of the workbook (en, zh); "
                     "English it is",
                     "workbook: WB_LANG={value} 不是本练习册支持的语言（en、zh），改用英文"),
    "cli.description": (
        "The CUDA Shared-Memory Workbook's front door.\n\n"
        "With no command: build what your starter kernels need, test them and show\n"
        "where you stand (works without a GPU too). `./workbook COMMAND --help` shows a\n"
        "command's options; README.md says how a student works.",
        "CUDA 共享内存练习册的入口。\n\n"
        "不带命令时：构建 starter 中核函数所需的内容，运行测试，并显示你的进度\n"
        "（没有 GPU 也能用）。`./workbook COMMAND --help` 列出某个命令的选项；\n"
        "学习流程见 README.md。"),
    "cli.commands": ("commands", "命令"),
    "cli.help_status": ("build for the starter, test it, show progress (the default)",
                        "构建 starter 并测试，显示进度（默认命令）"),
    "cli.help_perf": ("also run the performance tests (for one exercise: its own and the "
                      "comparisons that time it)", "同时运行性能测试（对单个练习: 它自己的以及为它计时的比较）"),
    "cli.help_test": ("build and run the whole test suite", "构建并运行全部测试"),
    "cli.help_preset": ("default: the build in build/; ci: warnings as errors, in build-ci/ "
                        "(.ci/run sets WB_PRESET=ci)",
                        "default: 构建在 build/ 中；ci: 警告视为错误，构建在 build-ci/ 中"
                        "（.ci/run 设置 WB_PRESET=ci）"),
    "cli.help_check": ("test one exercise or section of your starter",
                       "测试 starter 中的一道练习或一节"),
    "cli.help_check_name": ("an exercise (setRowReadCol, layout/setRowReadCol, or book-5.15 "
                            "for the book's end-of-chapter exercise 15) or a section",
                            "练习名（setRowReadCol、layout/setRowReadCol，或用 book-5.15 "
                            "表示书中章末习题 15）或节名"),
    "cli.help_watch": ("re-run check whenever a file under starter/ changes",
                       "starter/ 下的文件一保存就重新运行 check"),
    "cli.help_watch_name": ("an exercise; default: the one you edit",
                            "练习名；默认为你正在编辑的那道"),
    "cli.help_hint": ("show the next hint step for an exercise", "显示某道练习的下一步提示"),
    "cli.help_hint_name": ("an exercise; default: the next unsolved one",
                           "练习名；默认为下一道未完成的练习"),
    "cli.help_step": ("show step N instead of the next one", "显示第 N 步提示，而不是下一步"),
    "cli.help_reset": ("restore one exercise to its pristine starter",
                       "把一道练习恢复为原始的 starter 文件"),
    "cli.help_reset_name": ("the exercise to restore", "要恢复的练习"),
    "cli.help_yes": ("do not ask before overwriting", "覆盖前不再询问"),
    "cli.help_grade": ("grade submissions (instructors; ./workbook grade --help)",
                       "批改提交的作业（教师用；./workbook grade --help）"),
    "cli.help_bench": ("run the benchmark (./workbook bench --help)",
                       "运行基准测试（./workbook bench --help）"),
    "cli.help_slurm": ("run the command as a Slurm job on a GPU node and wait for it; "
                       "sbatch options follow `--` (README: On a cluster with Slurm)",
                       "把命令作为 Slurm 作业提交到 GPU 节点上运行并等待结束；"
                       "sbatch 的选项写在 `--` 之后（见 README: On a cluster with Slurm）"),
    "cli.help_lang": ("the language of the student loop, remembered for later runs "
                      "(WB_LANG sets it for one shell)",
                      "学习流程使用的语言，之后的运行会沿用（WB_LANG 只对当前 shell 生效）"),

    # the build (wbcore/build.py's WORDS, whose English these repeat)
    "build.step": ("building: step {n} of {total}: {what}",
                   "正在构建: 第 {n} 步，共 {total} 步: {what}"),
    "build.configure_failed_log": ("configuring failed; see {log}", "配置失败；详见 {log}"),
    "build.configure_failed": ("configuring failed (above)", "配置失败（见上面的输出）"),
    "build.failed_first_errors": ("the build failed; the first errors (the whole log: {log}):",
                                  "构建失败；最先出现的错误如下（完整日志: {log}）:"),
    "build.fix_first": ("fix the first error first.", "请先修正第一个错误。"),
    "build.failed_above": ("the build failed: the compiler's messages are above; fix the first "
                           "error first.",
                           "构建失败: 编译器的消息在上面；请先修正第一个错误。"),

    # status
    "status.running": ("running your starter's tests (CTest's output: {log}) ...",
                       "正在运行你的 starter 的测试（CTest 输出: {log}）..."),
    "status.section": ("\n{section} (book {book}): {done} of {total} pass",
                       "\n{section}（书中 {book} 节，{title}）: {total} 道中 {done} 道通过"),
    "status.note_gpu_not_run": (" (GPU tests not run)", "（GPU 测试未运行）"),
    "status.note_todo_left": (" (TODO left)", "（还有 TODO）"),
    "status.note_book": (" (book exercise {refs})", "（书中章末习题 {refs}）"),
    "check.perf_ran": ("performance tests run ({count}): {names}",
                       "运行的性能测试（{count} 个）: {names}"),
    "status.note_not_attempted": (" (not attempted: the file is as shipped; its tests were not run)",
                                  "（尚未开始: 文件与发放时相同，未运行其测试）"),
    "status.no_gpu": (
        "\nNo GPU here: {note}.\nYour starter compiled and the host tests ran; the GPU tests "
        "were reported as skipped. Run ./workbook on a machine with an NVIDIA GPU (compute "
        "capability 7.5 or newer) to check your kernels.",
        "\n这台机器上没有 GPU: {note}。\n你的 starter 已通过编译，主机端测试也已运行；GPU 测试"
        "记为跳过。请在装有 NVIDIA GPU（计算能力 7.5 或更高）的机器上运行 ./workbook 来检查"
        "你的核函数。"),
    "status.all_pass": (
        "\nEvery exercise passes. Try ./workbook check <section> --perf for the performance "
        "tests, and ./workbook bench.",
        "\n所有练习都已通过。可以试试 ./workbook check <section> --perf 运行性能测试，"
        "以及 ./workbook bench。"),
    "status.next": ("\nNext: {key}  ->  {where}", "\n下一题: {key}  ->  {where}"),
    "status.task": ("  task: {task}", "  任务: {task}"),
    "status.first_failing": ("  first failing test: {name}\n{excerpt}",
                             "  第一个失败的测试: {name}\n{excerpt}"),
    "status.hint": ("  hint: {text}", "  提示: {text}"),
    "status.hint_count": ("        (hint 1 of {count}; ./workbook hint {name} steps through them)",
                          "        （第 1 步提示，共 {count} 步；用 ./workbook hint {name} "
                          "逐步查看）"),
    "status.test_alone": ("  test it alone: ./workbook check {name}",
                          "  单独测试它: ./workbook check {name}"),
    "progress.line": ("progress: [{bar}] {done} of {total} exercises pass",
                      "进度: [{bar}] {total} 道练习中 {done} 道通过"),

    # check
    "check.running": ("running the tests of {name} (CTest's output: {log}) ...",
                      "正在运行 {name} 的测试（CTest 输出: {log}）..."),
    "check.no_results": ("CTest wrote no results; its output is in {log}",
                         "CTest 没有写出结果；它的输出在 {log}"),
    "check.no_match": ("no tests matched {name}; CTest's output is in {log}",
                       "没有与 {name} 匹配的测试；CTest 的输出在 {log}"),
    "check.no_exercise": ("no exercise called '{name}'. Exercises: {choices}",
                          "没有名为“{name}”的练习。可选的练习: {choices}"),
    "check.ambiguous": ("'{name}' is ambiguous: {choices}",
                        "“{name}”有歧义，可能是: {choices}"),
    "check.book_not_yet": ("{name} is not in the workbook yet; mapped: {mapped}",
                           "{name} 还没有收入练习册；已收入的章末习题: {mapped}"),
    "check.book_malformed": ("'{name}' names no end-of-chapter exercise: write {form} with N "
                             "from 1 to {count}; mapped: {mapped}",
                             "“{name}”不是章末习题的名字: 请写 {form}，N 为 1 到 {count}；"
                             "已收入的章末习题: {mapped}"),

    # the summary of a CTest run
    "summary.group": ("  {where} [{kind}]: {counts}", "  {where} [{kind}]: {counts}"),
    "summary.passed": ("{n} passed", "{n} 个通过"),
    "summary.failed": ("{n} failed", "{n} 个失败"),
    "summary.skipped": ("{n} skipped", "{n} 个跳过"),
    "summary.total": ("  total: {passed} passed, {failed} failed, {skipped} skipped",
                      "  合计: {passed} 个通过，{failed} 个失败，{skipped} 个跳过"),
    "summary.failed_test": ("  FAILED {name}", "  失败 {name}"),
    "summary.more": ("  ... and {n} more failures", "  ……另有 {n} 个失败"),
    "summary.more_failures": ("(and {n} more failure(s) in this test)",
                              "（本测试另有 {n} 处失败）"),
    "summary.not_listed": ("(not listed)", "（未登记）"),
    "summary.workbook": ("(workbook)", "（练习册）"),
    "kind.host": ("host", "主机端"),
    "kind.gpu": ("gpu", "GPU"),
    "kind.perf": ("perf", "性能"),
    "kind.profile": ("profile", "性能分析"),
    "kind.sanitize": ("sanitize", "检测工具"),
    "kind.method": ("method", "写法"),

    # diagnosis by known mistakes
    "diagnosis.known": ("  {key} fails like a known mistake, {file}: {bug}",
                        "  {key} 的失败方式与一个已知错误相同，{file}: {bug}"),
    "diagnosis.errata": ("    errata: \"{entry}\" ({page})", "    勘误: “{entry}”（{page}）"),

    # watch
    "watch.checking": ("checking {key} ({path})", "正在检查 {key}（{path}）"),
    "watch.waiting": ("watching starter/ for your next save of {name}; Ctrl-C stops",
                      "正在监视 starter/，等你下次保存 {name}；按 Ctrl-C 停止"),
    "watch.all_pass": ("Every exercise passes. ./workbook check <section> --perf runs the "
                       "performance tests.",
                       "所有练习都已通过。./workbook check <section> --perf 可运行性能测试。"),
    "watch.next": ("{name} passes. Next: {key} -> {where}; watching it (Ctrl-C stops)",
                   "{name} 已通过。下一题: {key} -> {where}；正在监视它（按 Ctrl-C 停止）"),
    "watch.all_pass_anyway": ("Every exercise passes; watching starter/ anyway (Ctrl-C stops)",
                              "所有练习都已通过；仍然监视 starter/（按 Ctrl-C 停止）"),
    "watch.saved": ("\n{file} saved", "\n已保存 {file}"),
    "watch.stopped": ("\nstopped watching", "\n已停止监视"),

    # hint
    "hint.no_todo": ("No TODO is left in starter/. Run ./workbook to see which tests still fail.",
                     "starter/ 中已经没有 TODO 了。运行 ./workbook 看看还有哪些测试没通过。"),
    "hint.record_failed": ("workbook: could not record the hint step in {path}: {err}",
                           "workbook: 无法把提示进度记录到 {path}: {err}"),
    "hint.where": ("{key} ({where})", "{key}（{where}）"),
    "hint.none_written": ("No hint is written for this exercise; read its TODO and the contract "
                          "in chapters/{section}/.",
                          "这道练习没有写提示；请阅读它的 TODO 和 chapters/{section}/ 中的接口约定。"),
    "hint.step_range_one": ("workbook: {name} has {count} hint step; --step takes 1 to {count}",
                            "workbook: {name} 只有 {count} 步提示；--step 只能取 1 到 {count}"),
    "hint.step_range_many": ("workbook: {name} has {count} hint steps; --step takes 1 to {count}",
                             "workbook: {name} 共有 {count} 步提示；--step 取 1 到 {count}"),
    "hint.header": ("{key} ({where}): hint {number} of {count}{note}",
                    "{key}（{where}）: 第 {number} 步提示，共 {count} 步{note}"),
    "hint.task": ("task: {task}", "任务: {task}"),
    "hint.note_only_one": (" (the only one)", "（仅此一步）"),
    "hint.note_all_shown": (" (all shown; the last one again)", "（已全部看过；再次显示最后一步）"),
    "hint.all_shown": ("\nAll {count} hints for {name} have been shown. "
                       "`./workbook hint {name} --step N` shows any one of them.",
                       "\n{name} 的 {count} 步提示已全部显示。"
                       "`./workbook hint {name} --step N` 可以查看其中任意一步。"),
    "hint.stuck": ("\nStuck? `./workbook hint {name}` again shows hint {next} of {count}.",
                   "\n还卡着？再运行一次 `./workbook hint {name}` 显示第 {next} 步提示"
                   "（共 {count} 步）。"),
    "hint.last": ("\nThat was the last hint.", "\n这是最后一步提示了。"),

    # reset
    "reset.cannot": ("workbook: cannot restore {rel}: {err}", "workbook: 无法恢复 {rel}: {err}"),
    "reset.already": ("{rel} is already pristine.", "{rel} 已经是原始版本。"),
    "reset.ask": ("Overwrite {rel} with the pristine starter? Your version is saved beside it "
                  "as .bak. [y/N] ",
                  "用原始的 starter 覆盖 {rel} 吗？你的版本会另存为同目录下的 .bak 文件。[y/N] "),
    "reset.unchanged": ("left unchanged", "未做修改"),
    "reset.done": ("restored {rel}", "已恢复 {rel}"),
    "reset.done_backup": ("restored {rel} (your version: {backup})",
                          "已恢复 {rel}（你的版本: {backup}）"),

    # --slurm
    "slurm.no_sbatch": ("workbook: cannot run sbatch ({err}); is this a Slurm cluster?",
                        "workbook: 无法运行 sbatch（{err}）；这是 Slurm 集群吗？"),
    "slurm.ended": ("workbook: Slurm job {job} ended with exit status {rc} (its output: {log})",
                    "workbook: Slurm 作业 {job} 已结束，退出状态 {rc}（输出: {log}）"),
}

# argparse's own words (its usage line, headings and errors), which it
# looks up through gettext; install_argparse() hands it these in Chinese.
ARGPARSE_ZH = {
    "usage: ": "用法: ",
    "options": "选项",
    "positional arguments": "位置参数",
    "show this help message and exit": "显示本帮助并退出",
    "%(prog)s: error: %(message)s\n": "%(prog)s: 错误: %(message)s\n",
    "argument %(argument_name)s: %(message)s": "参数 %(argument_name)s: %(message)s",
    "invalid choice: %(value)r (choose from %(choices)s)":
        "无效的选项值: %(value)r（可选: %(choices)s）",
    "invalid %(type)s value: %(value)r": "无效的 %(type)s 值: %(value)r",
    "the following arguments are required: %s": "缺少以下参数: %s",
    "unrecognized arguments: %s": "无法识别的参数: %s",
    "expected one argument": "需要一个参数",
    "ambiguous option: %(option)s could match %(matches)s":
        "选项有歧义: %(option)s 可能是 %(matches)s",
}


def install_argparse():
    """Make argparse print its own words in the language in use."""
    import argparse
    if is_zh():
        argparse._ = lambda text: ARGPARSE_ZH.get(text, text)


# Answers that mean yes to reset's question, in either language.
YES = ("y", "yes", "是", "好")


# Lines printed in Chinese only: in English the task is the TODO comment
# itself, which the student reads in the file.
ZH_ONLY = ("status.task", "hint.task")
# Fields a Chinese message shows that its English does not.
ZH_EXTRA_FIELDS = {"status.section": {"title"}}


def t(msg_id, **fields):
    """The message `msg_id` in the language in use, its placeholders filled."""
    en, zh = MESSAGES[msg_id]
    text = zh if is_zh() else en
    return text.format(**fields) if fields else text


def placeholders(text):
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


# ------------------------------------------------- the test scripts' lines
# Each rule: (id, pattern on one line, Chinese with the pattern's groups).
# Groups named in _GROUP_WORDS have their English words replaced too.

_HAZARDS_BETWEEN = {
    "lanes of one warp": "同一线程束的通道之间",
    "threads of different warps": "不同线程束的线程之间",
    "threads of the block": "线程块内的线程之间",
}
_RUN_END = {
    "gave a wrong result": "给出了错误结果",
    "never returned": "一直没有返回",
    "failed": "运行失败",
}
_SIDE = {"load": "加载", "store": "存储", "loads": "加载", "stores": "存储"}

# wbcore/sanitizer_report.py's fix_for, line by line (i18n_check proves
# that each of its answers is here).
FIXES = {
    "a __syncwarp() between the warp-level steps (lanes of a warp are not in lockstep since "
    "Volta; volatile alone does not order them), or __shfl_down_sync instead of shared memory":
        "在线程束级的各步之间加 __syncwarp()（从 Volta 起，同一线程束的各通道不再保证步调一致；"
        "只靠 volatile 无法确定它们的先后），或者改用 __shfl_down_sync 代替共享内存",
    "two threads write the same shared element: check the index, or put a __syncthreads() "
    "between the two writes":
        "两个线程写了同一个共享内存元素: 检查下标，或者在两次写之间加 __syncthreads()",
    "a __syncthreads() before overwriting shared elements that other threads may still be "
    "reading":
        "在覆盖其他线程可能还在读的共享内存元素之前加 __syncthreads()",
    "a __syncthreads() between writing the shared array and reading what other threads wrote "
    "(in a loop, also before the next write over it)":
        "在写共享数组和读取其他线程写入的数据之间加 __syncthreads()（在循环中，下一次覆盖写之前"
        "也要加）",
    "an address that is not a multiple of the access's size: check the index arithmetic and "
    "the pointer's type":
        "地址不是访问大小的整数倍（未对齐访问）: 检查下标运算和指针类型",
    "a bounds guard: the index runs past the array (check the guard and the index arithmetic "
    "on sizes that are not multiples of the block or the tile)":
        "需要边界检查: 下标越过了数组末尾（越界访问；在大小不是线程块或瓦片整数倍时，检查边界"
        "条件和下标运算）",
    "every thread of the block must reach each __syncthreads(): no return before it, and no "
    "barrier inside a branch only some threads take":
        "线程块中的每个线程都必须到达每一个 __syncthreads(): 屏障之前不能 return，也不能把屏障"
        "放进只有部分线程会进入的分支",
    "a read of global memory nothing wrote: a missing bounds guard on the read, or the element "
    "was never written":
        "读取了没有被写过的全局内存: 读操作缺少边界检查，或者该元素从未被写入",
}


def _where_zh(text):
    """"starter/x.cu:41 writes, :42 reads" with the verbs in Chinese."""
    text = re.sub(r"(:\d+) writes\b", r"\1 写", text)
    text = re.sub(r"(:\d+) reads\b", r"\1 读", text)
    return text.replace(" (no line: the module was built without -lineinfo)",
                        "（没有行号: 模块编译时未加 -lineinfo）").replace("the kernel", "核函数")


def _example_zh(text):
    if not text:
        return ""
    m = re.match(r"thread \(([^)]*)\)(?: in block \(([^)]*)\))?$", text)
    if not m:
        return f"，例如 {text}"
    out = f"，例如线程 ({m.group(1)})"
    if m.group(2):
        out += f"，线程块 ({m.group(2)})"
    return out


# wbcore/sass.py's CLASSES: what each instruction class is (the reason a
# method fact without one of its own gives).
CLASSES_ZH = {
    "SHFL": "线程束洗牌指令（SHFL，__shfl*_sync）在线程束的通道之间传递值",
    "SHFL.DOWN": "向下移位的洗牌指令（SHFL.DOWN，__shfl_down_sync）: 通道 L 读取通道 L + delta 的值",
    "SHFL.BFLY": "蝶式交换的洗牌指令（SHFL.BFLY，__shfl_xor_sync）: 通道 L 读取通道 L ^ laneMask 的值",
    "LDS": "共享内存加载（LDS、LDSM）",
    "STS": "共享内存存储（STS）",
    "ATOMS": "共享内存原子操作（ATOMS）",
    "REDUX": "一条指令完成的线程束归约（REDUX，__reduce_*_sync，sm_80 及更新）",
    "BAR": "线程块屏障（BAR，__syncthreads）",
    "LDG": "全局内存加载（LDG），任何通路",
    "LDG.RO": "经只读缓存的全局加载（LDG .CONSTANT 或 .NC，__ldg）",
    "LDG.PLAIN": "不走只读通路的全局加载",
    "LDG.VEC": "向量全局加载（LDG .64 或 .128: 一个线程读 8 或 16 个相邻字节）",
    "STG": "全局内存存储（STG）",
    "ATOMG": "全局内存原子操作或归约（ATOMG、ATOM、RED）",
    "CONST": "对 __constant__ 存储区的读取（c[0x3] 的操作数或 LDC）",
    "LOCAL": "本地内存访问（LDL、STL）: 编译器没能放在寄存器里的数组",
    "FIMM": "带字面常数操作数（立即数）的浮点乘法或加法",
    "GENERIC": "通过通用地址的加载或存储（LD、ST）: 编译器无法判断它访问的是全局内存还是共享内存",
    "VOTE": "线程束投票（VOTE、MATCH: __ballot_sync、__all_sync、__any_sync、__match_*_sync）",
    "MMA": "张量核心上的矩阵乘加（HMMA、IMMA、DMMA、BMMA、线程束组的 GMMA、MOVM）: 它把一个线程束各通道的值合在一起",
    "MBARRIER": "共享内存中 mbarrier 上的操作（SYNCS、ARRIVES: mbarrier.init、.arrive、.pending_count，sm_80 及更新）: 它的到达计数像共享内存原子操作那样把各线程的值加起来",
    "BAR.RED": "同时在整个线程块内计数或投票的屏障（BAR.RED: __syncthreads_count、__syncthreads_and、__syncthreads_or）",
    "SHFL.ADDRESSED": "地址由洗牌结果算出的全局加载（LDG 或通用 LD）: 值是从洗牌指向的地方取来的，而不是由洗牌传递的",
    "COEF.PLAIN": "不经只读通路（没有 .CONSTANT 或 .NC）、地址由核函数最后一个参数（模板计算的 coef）算出的全局加载: 用 __ldcg 或普通加载读取系数，绕过了只读缓存",
    "PARAM.ADDRESSED": "地址由 4 字节及以下的参数（交换练习的宽度、delta、通道号或掩码）算出的全局加载或存储: 配对通道的值是从参数指向的地方读来的，而不是由洗牌传递的",
}


def method_why_zh(why):
    """The Chinese of a method fact's reason: workbook.zh.toml's [method_why],
    or the class's description; the English where neither has it."""
    from wbcore import sass
    for cls, text in sass.CLASSES.items():
        if why == text and cls in CLASSES_ZH:
            return CLASSES_ZH[cls]
    from student import zh as wbzh
    return wbzh.method_why(why) or why


def _rule_fns():
    """[(id, compiled pattern, function of the match giving the Chinese)]."""
    rules = []

    def rule(rule_id, pattern):
        def register(fn):
            rules.append((rule_id, re.compile(pattern), fn))
            return fn
        return register

    @rule("sanitize.reports",
          r"^(?P<i>\s*)FAILED (?P<k>\S+): (?P<tool>\w+) reports (?P<n>\d+) hazards?:$")
    def _(m):
        return f"{m['i']}失败 {m['k']}: {m['tool']} 报告了 {m['n']} 处竞争冒险:"

    @rule("sanitize.findings",
          r"^(?P<i>\s*)FAILED (?P<k>\S+): (?P<tool>\w+) reports (?P<n>\d+) finding\(s\):$")
    def _(m):
        return f"{m['i']}失败 {m['k']}: {m['tool']} 报告了 {m['n']} 处问题:"

    @rule("sanitize.run_failed",
          r"^(?P<i>\s*)FAILED (?P<k>\S+): under (?P<tool>\w+) the kernel "
          r"(?P<what>gave a wrong result|never returned|failed) \(exit (?P<rc>-?\d+)\):$")
    def _(m):
        return (f"{m['i']}失败 {m['k']}: 在 {m['tool']} 下核函数{_RUN_END[m['what']]}"
                f"（退出码 {m['rc']}）:")

    @rule("sanitize.clean", r"^(?P<i>\s*)(?P<k>\S+): (?P<tool>\w+) clean$")
    def _(m):
        return f"{m['i']}{m['k']}: {m['tool']} 未发现问题"

    @rule("sanitize.race",
          r"^(?P<i>\s*)(?P<where>.+?): (?P<n>\d+) hazards? between "
          r"(?P<between>lanes of one warp|threads of different warps|threads of the block)"
          r"(?: \((?P<types>[A-Z, ]+)\))?(?:, e\.g\. (?P<eg>.*))?$")
    def _(m):
        types = f"（{m['types']}）" if m["types"] else ""
        return (f"{m['i']}{_where_zh(m['where'])}: {_HAZARDS_BETWEEN[m['between']]}"
                f"有 {m['n']} 处竞争冒险{types}{_example_zh(m['eg'])}")

    @rule("sanitize.by_threads",
          r"^(?P<i>\s*)(?P<where>.+?): (?P<title>.+?) by (?P<n>\d+) threads?"
          r"(?: \((?P<detail>.*?)\))?(?:, e\.g\. (?P<eg>thread .*))?$")
    def _(m):
        detail = f"（{m['detail']}）" if m["detail"] else ""
        return (f"{m['i']}{_where_zh(m['where'])}: {m['n']} 个线程出现 {m['title']}{detail}"
                f"{_example_zh(m['eg'])}")

    @rule("sanitize.fix", r"^(?P<i>\s*)usual fix: (?P<fix>.*)$")
    def _(m):
        return f"{m['i']}常见改法: {FIXES.get(m['fix'], m['fix'])}"

    @rule("sanitize.more_places", r"^(?P<i>\s*)\.\.\. and (?P<n>\d+) more place\(s\)$")
    def _(m):
        return f"{m['i']}……另有 {m['n']} 处"

    @rule("sanitize.printed_of",
          r"^(?P<i>\s*)\(the tool printed (?P<shown>\d+) of (?P<total>\d+) findings\)$")
    def _(m):
        return f"{m['i']}（工具只打印了 {m['total']} 处中的 {m['shown']} 处）"

    @rule("profile.must_be_correct",
          r"^(?P<i>\s*)FAILED (?P<k>\S+): the kernel must be correct before its "
          r"(?P<what>bank behaviour|constant-cache behaviour|technique) is graded:$")
    def _(m):
        what = {"bank behaviour": "存储体访问行为", "constant-cache behaviour": "常量缓存访问行为",
                "technique": "写法（指令计数）"}[m["what"]]
        return f"{m['i']}失败 {m['k']}: 核函数的结果必须先正确，才会评判它的{what}:"

    @rule("profile.wavefronts_bad",
          r"^(?P<i>\s*)FAILED (?P<k>\S+): shared (?P<side>load|store) wavefronts per request "
          r"(?P<m>[\d.]+), expected (?P<e>[\d.]+) from the bank model: (?P<why>.*)$")
    def _(m):
        why = ("存在本练习必须避免的存储体冲突" if m["why"].startswith("a bank conflict")
               else "波前数比该访问模式所需的还少: 访问模式是练习要求的那种吗？")
        return (f"{m['i']}失败 {m['k']}: 每个共享内存{_SIDE[m['side']]}请求的波前数为 {m['m']}，"
                f"按存储体模型应为 {m['e']}: {why}")

    @rule("profile.wavefronts_ok",
          r"^(?P<i>\s*)(?P<k>\S+): shared (?P<side>load|store) wavefronts per request "
          r"(?P<m>[\d.]+)(?P<rest> = expected [\d.]+| \(not graded\))$")
    def _(m):
        rest = m["rest"]
        rest = "（不评分）" if "not graded" in rest else rest.replace("expected", "期望值")
        return f"{m['i']}{m['k']}: 每个共享内存{_SIDE[m['side']]}请求的波前数 {m['m']}{rest}"

    @rule("profile.no_shared",
          r"^(?P<i>\s*)(?P<k>\S+): no shared-memory (?P<side>loads|stores) at all"
          r"(?: \(expected (?P<e>[\d.]+) wavefronts per request\))?$")
    def _(m):
        e = f"（期望每个请求 {m['e']} 个波前）" if m["e"] else ""
        return f"{m['i']}{m['k']}: 完全没有共享内存{_SIDE[m['side']]}{e}"

    @rule("profile.where",
          r"^(?P<i>\s*)(?P<lead>where: |\s*)(?P<path>\S+:\d+): (?P<x>\d+) excess shared "
          r"wavefronts(?: \((?P<taken>\d+) taken, (?P<needed>\d+) needed\))?(?P<code>: .*)?$")
    def _(m):
        lead = "位置: " if m["lead"] == "where: " else m["lead"]
        counts = f"；实际 {m['taken']} 个，只需 {m['needed']} 个" if m["taken"] else ""
        return (f"{m['i']}{lead}{m['path']}: 存储体冲突多出 {m['x']} 个共享内存波前（{counts[1:]}）"
                if counts else
                f"{m['i']}{lead}{m['path']}: 存储体冲突多出 {m['x']} 个共享内存波前") + (m['code'] or '')

    @rule("profile.more_lines", r"^(?P<i>\s*)\.\.\. and (?P<n>\d+) more line\(s\)$")
    def _(m):
        return f"{m['i']}……另有 {m['n']} 行"

    @rule("profile.lines_unavailable",
          r"^(?P<i>\s*)\(the lines of the conflicting accesses are not available: (?P<err>.*)\)$")
    def _(m):
        return f"{m['i']}（无法得到发生冲突的访问所在的行: {m['err']}）"

    @rule("profile.no_line",
          r"^(?P<i>\s*)\(Nsight Compute's source page shows no line with excess shared "
          r"wavefronts\)$")
    def _(m):
        return f"{m['i']}（Nsight Compute 的源代码页中没有多出共享内存波前的行）"

    @rule("profile.store_sectors",
          r"^(?P<i>\s*)(?P<k>\S+): global store sectors per request (?P<m>[\d.]+)"
          r"(?:(?P<ok> = expected [\d.]+)|, expected (?P<e>[\d.]+): (?P<why>.*))$")
    def _(m):
        head = f"{m['i']}{m['k']}: 每个全局内存存储请求的扇区数 {m['m']}"
        if m["ok"]:
            return head + m["ok"].replace("expected", "期望值")
        why = ("写操作不是合并访问" if m["why"].startswith("the writes are not coalesced")
               else "核函数的存储方式与练习要求的不同")
        return f"{head}，期望值 {m['e']}: {why}"

    @rule("profile.constant",
          r"^(?P<i>\s*)(?P<k>\S+): constant-cache requests per warp-level load (?P<m>[\d.]+) "
          r"\((?P<req>\d+) over (?P<loads>\d+) loads\)(?:(?P<ok> = expected (?P<ok_e>[\d.]+) "
          r"distinct words per warp)|, expected (?P<e>[\d.]+) from the constant model: "
          r"(?P<why>.*))$")
    def _(m):
        head = (f"{m['i']}{m['k']}: 每次线程束级加载的常量缓存请求数 {m['m']}"
                f"（{m['loads']} 次加载共 {m['req']} 个请求）")
        if m["ok"]:
            return f"{head} = 期望值 {m['ok_e']}（每个线程束读取的不同字数）"
        why = ("线程束中各通道读取的不同常量字比练习要求的多（访问被串行化）"
               if m["why"].startswith("the lanes") else
               "请求数比该访问模式所需的还少: 核函数是按练习要求读取常量表的吗？")
        return f"{head}，按常量内存模型应为 {m['e']}: {why}"

    @rule("method.finding",
          r"^(?P<i>\s*)(?P<k>\w+): (?:no (?P<c1>[\w.]+) instruction|(?P<f>\d+) (?P<c2>[\w.]+) "
          r"instruction\(s\), expected (?P<exp>at least \d+|none|at most \d+)): (?P<rest>.*)$")
    def _(m):
        cls = m["c1"] or m["c2"]
        if m["c1"]:
            head = f"没有 {cls} 指令"
        else:
            exp = m["exp"].replace("at least", "至少").replace("at most", "最多")
            head = f"有 {m['f']} 条 {cls} 指令，期望{'没有' if exp == 'none' else exp + ' 条'}"
        why, where = m["rest"], ""
        for cut, said in (("; the kernel is at ", "；核函数在 "), ("; at ", "；位置: ")):
            if cut in why:
                why, _, at = why.rpartition(cut)
                where = said + at.replace(" more)", " 处)").replace("(and ", "(另有 ")
                break
        return f"{m['i']}{m['k']}: {head}: {method_why_zh(why)}{where}"

    @rule("method.failed", r"^(?P<i>\s*)FAILED (?P<k>\S+) \(method\):(?P<rest>.*)$")
    def _(m):
        rest = m["rest"].replace(" the module could not be read:", " 无法读取模块:")
        return f"{m['i']}失败 {m['k']}（写法检查）:{rest}"

    @rule("method.failed_facts", r"^(?P<i>\s*)failed facts: (?P<facts>.*)$")
    def _(m):
        return f"{m['i']}未满足的写法要求: {m['facts']}"

    @rule("method.passed", r"^(?P<i>\s*)PASSED (?P<k>\S+) \(method\): (?P<facts>.*)$")
    def _(m):
        return f"{m['i']}通过 {m['k']}（写法检查）: {m['facts']}"

    # wbcore/build.py's require_tools: what to install.
    @rule("tools.missing", r"^the workbook cannot build without: (?P<list>.*)$")
    def _(m):
        text = m["list"].replace("nvcc, the CUDA 13 compiler (install the CUDA Toolkit from "
                                 "NVIDIA and put /usr/local/cuda/bin on PATH)",
                                 "nvcc，即 CUDA 13 编译器（从 NVIDIA 安装 CUDA Toolkit，并把 "
                                 "/usr/local/cuda/bin 加入 PATH）")
        return f"练习册缺少构建所需的工具，请安装: {text.replace('; ', '；')}"

    # wbcore/ctest_listing.py: CTest could not list the tests.
    @rule("tests.unlisted", r"^ctest could not list the tests:(?P<rest>.*)$")
    def _(m):
        return f"ctest 无法列出测试:{m['rest']}"

    # wbcore/build.py's gpu_present: why there is no GPU.
    @rule("gpu.no_smi", r"^nvidia-smi is not installed, so no NVIDIA driver is present$")
    def _(m):
        return "没有安装 nvidia-smi，说明没有 NVIDIA 驱动"

    @rule("gpu.smi_failed", r"^nvidia-smi failed: (?P<err>.*)$")
    def _(m):
        return f"nvidia-smi 运行失败: {m['err']}"

    @rule("gpu.no_gpu", r"^nvidia-smi lists no GPU: (?P<said>.*)$")
    def _(m):
        return f"nvidia-smi 没有列出任何 GPU: {m['said']}"

    # tests/checks/profile_check.py: the technique's counters (method).
    def counter_zh(m, measured, unit, why):
        head = f"{m['i']}{'失败 ' if m['bad'] else ''}{m['k']}: {measured}"
        if m["ok"]:
            return f"{head}，不少于 {m['ok']}{unit}"
        return f"{head}，应不少于 {m['e']}{unit}: {why}"

    @rule("counters.active_threads",
          r"^(?P<i>\s*)(?P<bad>FAILED )?(?P<k>\S+): active threads per warp instruction "
          r"(?P<a>[\d.]+) of 32, (?:at least (?P<ok>[\d.]+)|expected at least (?P<e>[\d.]+): .*)$")
    def _(m):
        return counter_zh(m, f"每条线程束指令平均活跃线程 {m['a']}（满 32）", "",
                          "大多数指令只有少数通道在工作，就像由一个线程逐个累加线程块的值；"
                          "树形归约每一步用整个线程束把值减半")

    @rule("counters.load_efficiency",
          r"^(?P<i>\s*)(?P<bad>FAILED )?(?P<k>\S+): global-load efficiency (?P<p>\d+)% of the "
          r"bytes fetched, (?:at least (?P<ok>\d+)%|expected at least (?P<e>\d+)%: .*)$")
    def _(m):
        return counter_zh(m, f"全局加载效率为取回字节的 {m['p']}%", "%",
                          "加载没有合并（一个线程束的各通道必须读连续的字；展开后一个线程的各元素"
                          "相隔一个线程块）")

    # The harness's checks of an output (tests/harness/include/wb/verify.h)
    # and of a timing (perf_ratio.h, the timing helpers): several sentences
    # may share a line, each rewritten where it stands.
    @rule("harness.output",
          r"^(?P<line>.*(?:output element\(s\) unwritten|guard element\(s\) changed|"
          r"element\(s\) differ from the reference|before it is correct|"
          r"was wrong in timed run).*)$")
    def _(m):
        return harness_sentences_zh(m["line"])

    @rule("harness.mismatch_at",
          r"^(?P<i>\s*)at (?P<where>.+?): expected (?P<e>.+?), got (?P<g>.+)$")
    def _(m):
        got = m["g"].replace("poison (never written)", "毒化值（从未写入）")
        got = re.sub(r" ?\(off by (\d+) shared-memory poison words\)", r"（差了 \1 个共享内存毒化字）", got)
        return f"{m['i']}在 {m['where']}: 期望 {m['e']}，实际 {got}"

    @rule("harness.ratio",
          r"^(?P<i>\s*)(?P<a>.+?) (?P<x>[\d.]+) ms / (?P<b>.+?) (?P<y>[\d.]+) ms = "
          r"(?P<r>[\d.]+)x \(need (?P<op>[<>]=) (?P<q>[\d.]+)x\)$")
    def _(m):
        return (f"{m['i']}{m['a']} {m['x']} ms / {m['b']} {m['y']} ms = {m['r']} 倍"
                f"（要求 {m['op']} {m['q']} 倍）")

    @rule("test.skipped", r"^(?P<i>\s*)skipped: (?P<why>.*)$")
    def _(m):
        return f"{m['i']}跳过: {m['why']}"

    @rule("test.failed_plain", r"^(?P<i>\s*)FAILED (?P<k>\S+): (?P<err>.*)$")
    def _(m):
        return f"{m['i']}失败 {m['k']}: {m['err']}"

    @rule("gtest.equality", r"^(?P<i>\s*)Expected equality of these values:$")
    def _(m):
        return f"{m['i']}期望以下两个值相等:"

    @rule("gtest.which_is", r"^(?P<i>\s*)Which is: (?P<v>.*)$")
    def _(m):
        return f"{m['i']}即: {m['v']}"

    @rule("gtest.value_of", r"^(?P<i>\s*)Value of: (?P<v>.*)$")
    def _(m):
        return f"{m['i']}表达式: {m['v']}"

    @rule("gtest.actual", r"^(?P<i>\s*)Actual: (?P<v>.*)$")
    def _(m):
        return f"{m['i']}实际: {m['v']}"

    @rule("gtest.expected", r"^(?P<i>\s*)Expected: (?P<v>.*)$")
    def _(m):
        return f"{m['i']}期望: {m['v']}"

    @rule("gtest.near",
          r"^(?P<i>\s*)The difference between (?P<a>.+?) and (?P<b>.+?) is (?P<d>\S+), which "
          r"exceeds (?P<tol>.+), where$")
    def _(m):
        return f"{m['i']}{m['a']} 与 {m['b']} 之差为 {m['d']}，超过了允许的 {m['tol']}，其中"

    @rule("gtest.evaluates",
          r"^(?P<i>\s*)(?P<x>\S.*?) evaluates to (?P<v>.*?)(?P<tail>, and|\.)?$")
    def _(m):
        tail = "，" if m["tail"] == ", and" else ("。" if m["tail"] else "")
        return f"{m['i']}{m['x']} 的值为 {m['v']}{tail}"

    @rule("gtest.failure", r"^(?P<i>\s*)(?P<where>\S+:\d+): Failure$")
    def _(m):
        return f"{m['i']}{m['where']}: 失败"

    return rules


# The sentences of the harness's output checks, in the order they are
# tried; each keeps its names, numbers and positions.
HARNESS_SENTENCES = (
    (r"(\S+) wrote before the start of its output: (\d+) guard element\(s\) changed, the first "
     r"at offset -(\d+)\.", r"\1 写到了输出起点之前: 改动了 \2 个保护元素，第一个在偏移 -\3 处。"),
    (r"(\S+) left (\d+) of (\d+) output element\(s\) unwritten, the first at (.+?)\.(?= |$)",
     r"\1 的 \3 个输出元素中有 \2 个没有写入，第一个在 \4。"),
    (r"(\S+) wrote past the end of its output \((\d+) elements\): (\d+) guard element\(s\) "
     r"changed, the first at offset (\d+)\.", r"\1 写过了输出的末尾（共 \2 个元素）: 改动了 \3 个"
     r"保护元素，第一个在偏移 \4 处。"),
    (r"(\S+): (\d+) of (\d+) element\(s\) differ from the reference",
     r"\1: \3 个元素中有 \2 个与参考结果不同"),
    (r"cannot time (\S+) before it is correct: ", r"\1 结果正确之前无法计时: "),
    (r"(\S+) was wrong in timed run (\d+) on (\d+) elements: ", r"\1 在第 \2 次计时运行（\3 个元素）中"
     r"结果错误: "),
)


def harness_sentences_zh(line):
    """A line of the harness's output checks with each known sentence in
    Chinese."""
    for pattern, chinese in HARNESS_SENTENCES:
        line = re.sub(pattern, chinese, line)
    return line


OUTPUT_RULES = _rule_fns()


def output_line(line):
    """One line of a test's output, in the language in use: the Chinese of
    a known line shape, else the line as it is (file names, numbers, code
    and the tools' own words stay)."""
    if not is_zh():
        return line
    for _, pattern, fn in OUTPUT_RULES:
        m = pattern.match(line)
        if m:
            return fn(m)
    return line
