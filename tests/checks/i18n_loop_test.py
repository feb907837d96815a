#!/usr/bin/env python3
"""The student loop in Chinese, on the host: the language chosen by --lang
(remembered), WB_LANG or the default; hint, summary, progress, watch and the
diagnosis by known mistakes speaking Chinese with the exercise list's
Chinese (task line, hint steps, known mistake, errata entry); the checks'
sanitizer and bank-conflict lines rewritten; English unchanged where the
language is English. Runs in seconds, without a build."""
import contextlib
import io
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]

from wbcore import course as wbex  # noqa: E402
from wbcore import ctest_listing  # noqa: E402
from wbcore import diagnosis as wbdiag  # noqa: E402
from wbcore import results as wbres  # noqa: E402
from student import hints as wbhints  # noqa: E402
from student import i18n  # noqa: E402
from student import progress as wbprogress  # noqa: E402
from student import summary as wbsummary  # noqa: E402
from student import zh as wbzh  # noqa: E402


def printed(fn, *args, **kwargs):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        rc = fn(*args, **kwargs)
    return rc, out.getvalue()


class Language(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.state = pathlib.Path(self.tmp.name) / "lang"

    def tearDown(self):
        self.tmp.cleanup()

    def test_default_is_english(self):
        self.assertEqual(i18n.choose(None, {}, self.state), "en")

    def test_lang_is_remembered(self):
        self.assertEqual(i18n.choose("zh", {}, self.state), "zh")
        self.assertEqual(self.state.read_text().strip(), "zh")
        self.assertEqual(i18n.choose(None, {}, self.state), "zh")
        self.assertEqual(i18n.choose("en", {}, self.state), "en")
        self.assertEqual(i18n.choose(None, {}, self.state), "en")

    def test_environment_beats_the_remembered_choice_and_is_not_kept(self):
        i18n.choose("en", {}, self.state)
        self.assertEqual(i18n.choose(None, {"WB_LANG": "zh_CN.UTF-8"}, self.state), "zh")
        self.assertEqual(self.state.read_text().strip(), "en")
        self.assertEqual(i18n.choose("en", {"WB_LANG": "zh"}, self.state), "en")

    def test_workbook_lang_zh_is_remembered(self):
        env = dict(os.environ, WB_LANG_STATE=str(self.state),
                   WB_HINT_STATE=str(pathlib.Path(self.tmp.name) / "hints.json"))
        env.pop("WB_LANG", None)
        run = subprocess.run([sys.executable, str(ROOT / "workbook"), "--lang", "zh", "hint",
                              "setColReadCol"], env=env, capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("第 1 步提示，共 3 步", run.stdout)
        self.assertIn("任务: 把 g 按列存入静态共享内存瓦片", run.stdout)
        again = subprocess.run([sys.executable, str(ROOT / "workbook"), "hint", "setColReadCol"],
                               env=env, capture_output=True, text=True)
        self.assertIn("第 2 步提示，共 3 步", again.stdout)
        help_zh = subprocess.run([sys.executable, str(ROOT / "workbook"), "--help"], env=env,
                                 capture_output=True, text=True)
        self.assertIn("用法: workbook", help_zh.stdout)
        self.assertIn("显示某道练习的下一步提示", help_zh.stdout)


class InChinese(unittest.TestCase):
    def setUp(self):
        i18n.set_lang("zh")

    def tearDown(self):
        i18n.set_lang("en")

    def test_hint_steps_with_the_task(self):
        e = wbex.find_exercise("reduceSmem")
        with tempfile.TemporaryDirectory() as tmp:
            state = pathlib.Path(tmp) / "hints.json"
            rc, out = printed(wbhints.show, e, None, state)
            self.assertEqual(rc, 0)
            self.assertIn("reduction/reduceSmem（starter/reduction/reduceSmem.cu:", out)
            self.assertIn("第 1 步提示，共 4 步", out)
            self.assertIn("任务: 在静态共享数组上执行 reduceGmem 的各步", out)
            self.assertIn(wbzh.hints(e)[0], out)
            self.assertIn("还卡着？", out)
            rc, out = printed(wbhints.show, e, 9, state)
            self.assertEqual(rc, 2)
            self.assertIn("共有 4 步提示；--step 取 1 到 4", out)

    def test_every_exercise_has_its_chinese_steps(self):
        for e in wbex.exercises():
            self.assertEqual(len(wbzh.hints(e)), len(e.hints), e.key)
            self.assertNotEqual(wbzh.hints(e), e.hints, e.key)

    def test_summary_and_its_failure_lines(self):
        results = [
            wbres.TestResult("starter.reduction.sanitize.reduceSmem", "failed", 1,
                             "reduction/reduceSmem: memcheck clean\n"
                             "FAILED reduction/reduceSmem: racecheck reports 40 hazards:\n"
                             "  starter/reduction/reduceSmem.cu:41 writes, :42 reads: 40 hazards "
                             "between lanes of one warp\n"
                             "    usual fix: " + next(iter(i18n.FIXES)) + "\n"),
            wbres.TestResult("starter.layout.profile.setRowReadColPad", "failed", 1,
                             "FAILED layout/setRowReadColPad: shared load wavefronts per request "
                             "32.00, expected 1.00 from the bank model: a bank conflict the "
                             "exercise must avoid\n"
                             "  where: starter/layout/setRowReadColPad.cu:26: 992 excess shared "
                             "wavefronts (1024 taken, 32 needed): out[g] = tile[c][r];\n"),
            wbres.TestResult("starter.layout.x", "passed", 1, ""),
        ]
        text = "\n".join(wbsummary.summary_lines(results, {}))
        self.assertIn("合计: 1 个通过，2 个失败，0 个跳过", text)
        self.assertIn("失败 reduction/reduceSmem: racecheck 报告了 40 处竞争冒险:", text)
        self.assertIn("reduceSmem.cu:41 写, :42 读: 同一线程束的通道之间有 40 处竞争冒险", text)
        self.assertIn("常见改法: 在线程束级的各步之间加 __syncwarp()", text)
        self.assertIn("存储体冲突", text)
        self.assertIn("位置: starter/layout/setRowReadColPad.cu:26: 存储体冲突多出 992 个", text)

    def test_progress_line(self):
        self.assertEqual(wbprogress.progress_line({}, width=4),
                         f"进度: [----] {len(wbex.exercises())} 道练习中 0 道通过")

    def test_unknown_exercise(self):
        rc, out = printed(wbprogress.show_hint, "nosuch")
        self.assertEqual(rc, 2)
        self.assertIn("没有名为“nosuch”的练习", out)

    def test_known_mistake_in_chinese(self):
        records = wbdiag.load_records("/nonexistent")
        ref = "reduction_reduceSmem__volatile_tail_without_syncwarp"
        record = records[ref]
        e = wbex.find_exercise("reduceSmem")
        results, listed = run_like(record, e)
        lines = wbprogress.diagnose_zh(results, listed, e, {ref: record})
        self.assertTrue(lines, "the mutant's own failures must match it")
        self.assertIn("reduction/reduceSmem 的失败方式与一个已知错误相同", lines[0])
        self.assertIn(wbzh.mistake("reduction/reduceSmem__volatile_tail_without_syncwarp"),
                      lines[0])
        self.assertIn("勘误: “没有 `__syncwarp()` 的 `volatile` 线程束尾部（5.1、5.3）”"
                      "（docs/errata.zh.md）", lines[1])
        i18n.set_lang("en")
        self.assertEqual(wbprogress.known_mistakes(results, listed, build="/nonexistent")[:1],
                         wbdiag.diagnose(results, listed, e, records)[:1])


def run_like(record, e):
    """CTest results and listing that fail exactly as the mutant's record."""
    results, listed = [], {}
    sanitize = {}
    for check in record["checked"]:
        bad = check in record["failed"]
        kind, _, rest = check.partition(":")
        if kind == "test":
            name = f"starter.{e.section}.{rest}"
            results.append(wbres.TestResult(name, "failed" if bad else "passed", 1, ""))
            listed[name] = ctest_listing.ListedTest(
                name, ("starter", e.section, "gpu"), e.section, e, "gpu",
                ("python3", "gtest_verdict.py", "--test", rest, "--", "tests"))
        elif kind == "sanitize":
            kernel, tool = rest.split(":")
            sanitize.setdefault(kernel, []).append(
                f"FAILED {e.section}/{kernel}: {tool} reports 4 hazards:" if bad
                else f"{e.section}/{kernel}: {tool} clean")
    for kernel, lines in sanitize.items():
        name = f"starter.{e.section}.sanitize.{kernel}"
        bad = any(l.startswith("FAILED") for l in lines)
        results.append(wbres.TestResult(name, "failed" if bad else "passed", 1, "\n".join(lines)))
        listed[name] = ctest_listing.ListedTest(name, ("starter", e.section, "sanitize"),
                                                e.section, e, "sanitize",
                                                ("python3", "sanitize_check.py"))
    return results, listed


class EnglishUnchanged(unittest.TestCase):
    def setUp(self):
        i18n.set_lang("en")

    def test_messages_are_the_old_words(self):
        self.assertEqual(wbprogress.progress_line({}, width=4),
                         f"progress: [----] 0 of {len(wbex.exercises())} exercises pass")
        self.assertEqual(i18n.output_line("FAILED a/b: racecheck reports 4 hazards:"),
                         "FAILED a/b: racecheck reports 4 hazards:")
        e = wbex.find_exercise("setColReadCol")
        with tempfile.TemporaryDirectory() as tmp:
            rc, out = printed(wbhints.show, e, 1, pathlib.Path(tmp) / "h.json")
        self.assertTrue(out.startswith("layout/setColReadCol (starter/layout/setColReadCol.cu:"),
                        out)
        self.assertIn(": hint 1 of 3\n" + e.hints[0], out)


if __name__ == "__main__":
    unittest.main()
