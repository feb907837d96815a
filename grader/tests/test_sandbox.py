"""wbcore/sandbox.py, run for real: each test starts bubblewrap (skipped,
saying why, where the sandbox cannot start here) and checks one thing the
sandbox must confine. Also the compile launcher's include verdict
(cmake/compile_with_limits.py --sandbox) on the ways an exercise file can
include a file it may not see."""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from wbcore import sandbox  # noqa: E402

LAUNCHER = ROOT / "cmake" / "compile_with_limits.py"
AVAILABLE, WHY = sandbox.available()


def run(argv, **kwargs):
    timeout = kwargs.pop("timeout", 60)
    return subprocess.run(sandbox.command(argv, **kwargs), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout)


class AvailabilityTest(unittest.TestCase):
    def test_a_missing_bwrap_says_how_to_enable_it(self):
        saved = os.environ.get("WB_BWRAP")
        os.environ["WB_BWRAP"] = "/nonexistent/bwrap"
        try:
            ok, why = sandbox.available()
            self.assertFalse(ok)
            self.assertIn("bubblewrap", why)
            self.assertIn("user namespaces", why)
            with self.assertRaises(sandbox.Unavailable):
                sandbox.command(["true"])
            # The explicit opt-out needs no sandbox.
            self.assertEqual(sandbox.command(["true", 1], unconfined=True), ["true", "1"])
        finally:
            if saved is None:
                del os.environ["WB_BWRAP"]
            else:
                os.environ["WB_BWRAP"] = saved

    def test_limits_apply_in_the_child(self):
        done = subprocess.run([sys.executable, "-c",
                               "import resource; print(resource.getrlimit(resource.RLIMIT_CPU)[0],"
                               " resource.getrlimit(resource.RLIMIT_FSIZE)[0])"],
                              preexec_fn=sandbox.limits(cpu_seconds=7, file_mb=3),
                              capture_output=True, text=True, check=True)
        self.assertEqual(done.stdout.split(), ["7", str(3 * 1024 * 1024)])


@unittest.skipUnless(AVAILABLE, f"the sandbox cannot start here: {WHY}")
class SandboxTest(unittest.TestCase):
    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="wb-sandbox-test-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def test_only_the_given_paths_are_there(self):
        shown = self.tmp / "shown.txt"
        shown.write_text("visible")
        hidden = self.tmp / "hidden.txt"
        hidden.write_text("secret")
        done = run(["sh", "-c", f"cat {shown}; cat {hidden}; ls /root /home {ROOT}/solutions"],
                   read_only=[shown])
        self.assertIn("visible", done.stdout)
        self.assertNotIn("secret", done.stdout)
        self.assertIn("No such file", done.stderr)
        # The system's programs are there, read-only.
        self.assertNotEqual(run(["sh", "-c", "touch /usr/x"]).returncode, 0)

    def test_writes_only_where_allowed(self):
        out = self.tmp / "out"
        out.mkdir()
        view = self.tmp / "view"
        view.mkdir()
        done = run(["sh", "-c", f"echo a > {out}/ok; echo b > {view}/no; echo c > /etc/no"],
                   read_only=[view], writable=[out])
        self.assertEqual((out / "ok").read_text(), "a\n")
        self.assertFalse((view / "no").exists())
        self.assertIn("Read-only file system", done.stderr)

    def test_a_writable_folder_inside_a_read_only_one_stays_writable(self):
        inner = self.tmp / "build" / "Testing"
        inner.mkdir(parents=True)
        done = run(["sh", "-c", f"echo x > {inner}/log && echo y > {inner.parent}/no"],
                   read_only=[inner.parent], writable=[inner])
        self.assertTrue((inner / "log").exists())
        self.assertFalse((inner.parent / "no").exists())
        self.assertNotEqual(done.returncode, 0)

    def test_no_network(self):
        code = ("import socket\n"
                "s = socket.socket()\ns.settimeout(5)\n"
                "try:\n    s.connect(('1.1.1.1', 53)); print('connected')\n"
                "except OSError as e:\n    print('refused', e)\n")
        done = run([sys.executable, "-c", code],
                   read_only=[sys.prefix, sys.base_prefix])
        self.assertIn("refused", done.stdout, done.stderr)

    def test_nothing_outlives_the_sandbox(self):
        out = self.tmp / "out"
        out.mkdir()
        # A background process that would write a file two seconds after
        # the command ended.
        run(["sh", "-c", f"(sleep 2; echo late > {out}/late) & echo started"],
            writable=[out])
        time.sleep(3)
        self.assertFalse((out / "late").exists())

    def test_tmp_is_private(self):
        marker = pathlib.Path("/tmp") / f"wb-sandbox-{os.getpid()}"
        marker.write_text("host")
        self.addCleanup(marker.unlink)
        done = run(["sh", "-c", f"ls /tmp; cat {marker}; echo x > /tmp/inside"])
        self.assertNotIn("host", done.stdout)
        self.assertFalse(pathlib.Path("/tmp/inside").exists())

    def test_the_environment_is_only_what_is_given(self):
        os.environ["WB_SANDBOX_TEST_SECRET"] = "s3cret"
        self.addCleanup(os.environ.pop, "WB_SANDBOX_TEST_SECRET")
        done = run(["env"], env={"WB_GIVEN": "1"})
        self.assertNotIn("s3cret", done.stdout)
        self.assertIn("WB_GIVEN=1", done.stdout)
        self.assertIn("HOME=/tmp", done.stdout)

    def test_cwd_need_not_be_visible(self):
        out = self.tmp / "out"
        out.mkdir()
        done = run(["sh", "-c", "pwd; echo x > out/made"], writable=[out], cwd=self.tmp)
        self.assertEqual(done.stdout.strip(), str(self.tmp))
        self.assertTrue((out / "made").exists())


@unittest.skipUnless(AVAILABLE, f"the sandbox cannot start here: {WHY}")
@unittest.skipUnless(shutil.which("g++"), "no g++ here")
class IncludeVerdictTest(unittest.TestCase):
    """The launcher compiles in the sandbox and refuses an exercise file
    that includes anything outside chapters/ and the compiler's headers,
    showing nothing of the compiler's output then."""

    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="wb-include-test-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)
        (self.tmp / "out").mkdir()
        # A sibling file beside the exercise (another exercise of the same
        # submission) and a secret of the grader's.
        (self.tmp / "sibling.cu").write_text("int sibling_secret_line_42;\n")

    def compile(self, text, wall=30, cpu=20):
        source = self.tmp / "ex.cu"
        source.write_bytes(text.encode())
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, str(LAUNCHER), "--sandbox", "--source", str(source), "--allow",
             str(ROOT / "chapters"), "--name", "reduction/ex", "--wall-seconds", str(wall),
             "--cpu-seconds", str(cpu), "--",
             "g++", "-x", "c++", "-c", f"-I{ROOT / 'chapters'}", "-MD", "-MT", "out/ex.o", "-MF",
             "out/ex.o.d", "-o", "out/ex.o", str(source)],
            cwd=self.tmp, stdin=subprocess.DEVNULL, capture_output=True, text=True,
            timeout=wall + 30)
        return done, time.monotonic() - started

    def assertRefused(self, text, names):
        done, seconds = self.compile(text)
        self.assertNotEqual(done.returncode, 0)
        said = done.stdout + done.stderr
        self.assertTrue(said.startswith("REFUSED: starter/reduction/ex.cu includes "), said)
        self.assertIn(names, said)
        self.assertEqual(len(said.strip().splitlines()), 1, said)
        self.assertLess(seconds, 20)
        self.assertFalse((self.tmp / "out" / "ex.o").exists())

    def test_contract_and_system_headers_compile(self):
        done, _ = self.compile('#include "reduction/reduction.cuh"\n#include <vector>\n'
                               '#include <cuda_runtime.h>\nint x;\n')
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stderr.strip(), "")
        self.assertTrue((self.tmp / "out" / "ex.o").exists())

    def test_a_compile_error_is_shown(self):
        done, _ = self.compile("int x = ;\n")
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("error", done.stderr)
        self.assertNotIn("REFUSED", done.stderr)

    def test_ways_to_include_a_file_outside_are_refused(self):
        attempts = {
            '#include "/etc/passwd"\n': "/etc/passwd",
            '#inc\\ \nlude "/etc/passwd"\n': "/etc/passwd",
            '# /* a\n */ include "/etc/passwd"\n': "/etc/passwd",
            '/* x */ #include "/usr/share/common-licenses/GPL-3"\n': "GPL-3",
            '#include "reduction/../../solutions/reduction/reduceSmem.cu"\n': "solutions/",
            '#include "../../solutions/reduction/reduceSmem.cu"\n': "",
            '#include "/proc/self/fd/1"\n': "/proc/self/fd/1",
            '#include "/proc/self/fd/2"\n': "/proc/self/fd/2",
            '#include "sibling.cu"\n': "sibling.cu",
            '#define F "/etc/passwd"\n#include F\n': "/etc/passwd",
            '%:include "/etc/passwd"\n': "/etc/passwd",
            '#include_next "/etc/passwd"\n': "/etc/passwd",
            '#import "/etc/passwd"\n': "/etc/passwd",
            '#include <../../etc/passwd>\n': "etc/passwd",
        }
        for text, names in attempts.items():
            with self.subTest(text=text):
                if names:
                    if names == "GPL-3" and not os.path.exists("/usr/share/common-licenses/GPL-3"):
                        continue
                    self.assertRefused(text, names)
                else:
                    # Not there from where the file is: not found, quoting nothing.
                    done, _ = self.compile(text)
                    self.assertNotEqual(done.returncode, 0)

    def test_a_block_comment_inside_the_word_is_no_directive(self):
        done, _ = self.compile('#inc/**/lude "/etc/passwd"\n')
        self.assertNotEqual(done.returncode, 0)
        self.assertNotIn("root:", done.stdout + done.stderr)

    def test_a_limit_hit_in_the_sandbox_is_named(self):
        # The sandbox's processes are measured inside it: a macro bomb is
        # named as the CPU limit, not a compiler crash.
        bomb = "#define T0 x = x + 1;\n" + "".join(
            f"#define T{i} T{i - 1} T{i - 1}\n" for i in range(1, 41))
        done, seconds = self.compile(bomb + "void f(int x) { T40 }\n", cpu=2)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("LIMIT: compiling reduction/ex used more than 2 s of CPU time",
                      done.stderr)
        self.assertLess(seconds, 20)

    def test_an_endless_file_is_stopped_by_a_limit(self):
        done, seconds = self.compile('#include "/dev/zero"\n')
        self.assertNotEqual(done.returncode, 0)
        self.assertRegex(done.stdout + done.stderr, "^(REFUSED|LIMIT)|\nLIMIT")
        self.assertLess(seconds, 40)


class GradeNeedsTheSandboxTest(unittest.TestCase):
    """./workbook grade stops where the sandbox cannot start, unless
    --unconfined, which Slurm tasks are given too."""

    def test_without_a_sandbox_grading_stops_and_says_how_to_enable_it(self):
        from wbcore import build as wbbuild
        try:
            wbbuild.require_tools()
        except wbbuild.ToolMissing as err:
            self.skipTest(f"grading needs its tools first: {err}")
        with tempfile.TemporaryDirectory() as tmp:
            sub = pathlib.Path(tmp) / "alice"
            (sub / "layout").mkdir(parents=True)
            shutil.copyfile(ROOT / "starter" / "layout" / "setRowReadCol.cu",
                            sub / "layout" / "setRowReadCol.cu")
            done = subprocess.run([sys.executable, str(ROOT / "grader" / "grade.py"), str(sub),
                                   "--work", str(pathlib.Path(tmp) / "work"), "--out",
                                   str(pathlib.Path(tmp) / "out"), "--no-gpu"],
                                  env=dict(os.environ, WB_BWRAP="/nonexistent/bwrap"),
                                  stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                  timeout=120)
            graded = (pathlib.Path(tmp) / "out").exists()
        self.assertFalse(graded)
        self.assertEqual(done.returncode, 2, done.stdout + done.stderr)
        self.assertIn("cannot be confined", done.stderr)
        self.assertIn("bubblewrap", done.stderr)
        self.assertIn("--unconfined", done.stderr)

    def test_unconfined_takes_the_compiles_out_of_the_sandbox_only(self):
        from grader import run as grun
        options = grun.Options(points=None, work_dir=pathlib.Path("w"), gpu_present=False,
                               gpu_note="", cmake_args=("-DX=1",))
        self.assertEqual(options.build_args, ("-DX=1",))
        options.confined = False
        # The include check (WB_CHECK_INCLUDES, on in the grader preset) stays.
        self.assertEqual(options.build_args, ("-DX=1", "-DWB_SANDBOX_COMPILES=OFF"))

    def test_slurm_tasks_get_unconfined_passed_on(self):
        from grader import grade
        args = grade.parse_args(["sub", "--unconfined", "--no-gpu"])
        self.assertIn("--unconfined", grade.grading_argv(args))
        args = grade.parse_args(["sub"])
        self.assertNotIn("--unconfined", grade.grading_argv(args))


if __name__ == "__main__":
    unittest.main()
