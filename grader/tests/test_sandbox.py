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
from unittest import mock

ROOT = pathlib.Path(__file__).resolve().parents[2]
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

    def test_no_capability_is_left_to_remount_a_read_only_bind(self):
        # As root, bubblewrap would keep every capability inside: a process
        # could remount a read-only bind read-write and write the host's file.
        view = self.tmp / "view"
        view.mkdir()
        (view / "kept.txt").write_text("original")
        done = run(["sh", "-c", f"grep CapEff /proc/self/status; "
                                f"mount -o remount,bind,rw {view}; echo changed > {view}/kept.txt"],
                   read_only=[view])
        self.assertIn("CapEff:\t0000000000000000", done.stdout)
        self.assertEqual((view / "kept.txt").read_text(), "original")

    def test_only_a_profiling_run_keeps_what_the_driver_asks_of_a_profiler(self):
        params = self.tmp / "params"
        bwrap = "/usr/bin/bwrap"
        as_root = mock.patch("os.geteuid", return_value=0)
        # The driver 580 shows the setting as RmProfilingAdminOnly (H100);
        # older documents name it after its module option.
        cases = [(key, 1, True, True, True) for key in ("RmProfilingAdminOnly",
                                                        "RestrictProfilingToAdminUsers")]
        cases += [("RmProfilingAdminOnly", 1, True, False, False),
                  ("RmProfilingAdminOnly", 1, False, True, False),
                  ("RmProfilingAdminOnly", 0, True, True, False)]
        for key, restricted, gpu, profiling, kept in cases:
            params.write_text(f"ResmanDebugLevel: 4294967295\n{key}: {restricted}\n")
            with mock.patch.object(sandbox, "NVIDIA_PARAMS", str(params)), as_root:
                keep = sandbox.keeps_admin(gpu, profiling)
                args = sandbox._sandbox_args(bwrap, (), (), gpu, None, {}, True, keep)
            self.assertIn("--cap-drop", args)
            self.assertEqual("CAP_SYS_ADMIN" in args, kept, (key, restricted, gpu, profiling))
        self.assertFalse(sandbox.profiling_needs_admin(str(self.tmp / "missing")))

    def test_a_run_that_keeps_the_capability_starts_under_the_guard(self):
        # Where it keeps CAP_SYS_ADMIN, the command runs under the launcher
        # that refuses mounts and namespaces (wb_without_admin_calls); with
        # no launcher given or found it does not run at all.
        params = self.tmp / "params"
        params.write_text("RmProfilingAdminOnly: 1\n")
        guard = self.tmp / "wb_without_admin_calls"
        guard.write_text("#!/bin/sh\nexec \"$@\"\n")
        guard.chmod(0o755)
        with mock.patch.object(sandbox, "NVIDIA_PARAMS", str(params)), \
                mock.patch("os.geteuid", return_value=0):
            argv = sandbox.command(["ctest"], gpu=True, profiling=True, admin_guard=guard)
            self.assertEqual(argv[-2:], [str(guard), "ctest"])
            self.assertIn("CAP_SYS_ADMIN", argv)
            for missing in (None, self.tmp / "absent"):
                with self.assertRaises(sandbox.Unavailable) as raised:
                    sandbox.command(["ctest"], gpu=True, profiling=True, admin_guard=missing)
                self.assertIn("wb_without_admin_calls", str(raised.exception))
            # A run that drops every capability needs no guard.
            self.assertEqual(sandbox.command(["ctest"], gpu=True, admin_guard=None)[-1], "ctest")

    @unittest.skipUnless(os.geteuid() == 0, "only root keeps CAP_SYS_ADMIN in the sandbox")
    def test_the_capability_kept_for_the_profiler_remounts_nothing(self):
        # As root, where the driver keeps the counters to administrators, a
        # profiling run keeps CAP_SYS_ADMIN; under the guard it still cannot
        # remount a read-only bind read-write and write the host's file.
        guard = os.environ.get("WB_ADMIN_GUARD", str(ROOT / "build" / "bin" /
                                                     "wb_without_admin_calls"))
        if not os.access(guard, os.X_OK):
            self.skipTest(f"{guard} is not built (cmake --build: target wb_without_admin_calls)")
        params = self.tmp / "params"
        params.write_text("RmProfilingAdminOnly: 1\n")
        view = self.tmp / "view"
        view.mkdir()
        (view / "kept.txt").write_text("original")
        with mock.patch.object(sandbox, "NVIDIA_PARAMS", str(params)):
            done = run(["sh", "-c", f"grep CapEff /proc/self/status; "
                                    f"mount -o remount,bind,rw {view}; echo remount $?; "
                                    f"echo changed > {view}/kept.txt"],
                       read_only=[view], gpu=True, profiling=True, admin_guard=guard)
        capabilities = int(done.stdout.split("CapEff:")[1].split()[0], 16)
        self.assertTrue(capabilities & (1 << 21), "CAP_SYS_ADMIN was not kept: " + done.stdout)
        self.assertIn("remount 32", done.stdout + done.stderr)   # mount's "failure" status
        self.assertEqual((view / "kept.txt").read_text(), "original")

    @unittest.skipUnless(os.geteuid() == 0, "only root could write /proc/sys at all")
    def test_kernel_settings_are_read_only(self):
        # As root, the sandbox's root is the machine's: /proc/sys would
        # otherwise take a new kernel.core_pattern with no capability. The
        # value written back is the one read, so nothing changes where the
        # write gets through.
        done = run(["sh", "-c", "v=$(cat /proc/sys/kernel/printk_ratelimit_burst); "
                                "echo \"$v\" > /proc/sys/kernel/printk_ratelimit_burst "
                                "&& echo written || echo refused"])
        self.assertIn("refused", done.stdout, done.stderr)
        self.assertNotIn("written", done.stdout)

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


class LauncherCase(unittest.TestCase):
    """Compiles a made-up exercise file as a host exercise is compiled in
    the grader's build: g++ through the launcher, in the sandbox."""

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

    def assertRefused(self, text, names, why="includes "):
        done, seconds = self.compile(text)
        self.assertNotEqual(done.returncode, 0)
        said = done.stdout + done.stderr
        self.assertTrue(said.startswith(f"REFUSED: starter/reduction/ex.cu {why}"), said)
        self.assertIn(names, said)
        self.assertEqual(len(said.strip().splitlines()), 1, said)
        self.assertLess(seconds, 20)
        self.assertFalse((self.tmp / "out" / "ex.o").exists())
        # The check passes leave nothing behind.
        self.assertEqual(sorted(p.name for p in (self.tmp / "out").iterdir()
                                if ".check." in p.name), [])
        return said


@unittest.skipUnless(AVAILABLE, f"the sandbox cannot start here: {WHY}")
@unittest.skipUnless(shutil.which("g++"), "no g++ here")
class IncludeVerdictTest(LauncherCase):
    """The launcher compiles in the sandbox and refuses an exercise file
    that includes anything outside chapters/ and the compiler's headers,
    showing nothing of the compiler's output then."""

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


# A line of /etc/ld.so.conf (Debian's and Ubuntu's first line), which none
# of the launcher's output may show.
LD_SO_CONF_LINE = "include /etc/ld.so.conf.d/*.conf"


@unittest.skipUnless(AVAILABLE, f"the sandbox cannot start here: {WHY}")
@unittest.skipUnless(shutil.which("g++"), "no g++ here")
@unittest.skipUnless(os.path.exists("/etc/ld.so.conf"), "no /etc/ld.so.conf here")
class HostAssemblyAndDiagnosticsTest(LauncherCase):
    """A host exercise holds no assembly (the assembler reads files the
    preprocessor never saw), and no diagnostic quotes or names a file
    outside the allowed set (#line makes the compiler quote any file)."""

    def assertQuotesNothing(self, text, names, why):
        said = self.assertRefused(text, names, why)
        self.assertNotIn(LD_SO_CONF_LINE, said)

    def test_a_line_directive_naming_a_file_outside_is_refused(self):
        for text in ('#line 1 "/etc/ld.so.conf"\nint a = not_declared;\n',
                     '# 1 "/etc/ld.so.conf"\nint a = not_declared;\n',
                     '#define F "/etc/ld.so.conf"\n#line 1 F\nint a = 1;\n',
                     '#line 1 "/etc/../etc/ld.so.conf"\nint a = 1;\n',
                     '#line 1 "../../../../../../../../etc/ld.so.conf"\nint a = not_declared;\n'):
            with self.subTest(text=text):
                self.assertQuotesNothing(text, "ld.so.conf", "names ")

    def test_a_line_directive_naming_the_exercise_itself_compiles(self):
        done, _ = self.compile('#line 10 "ex.cu"\nint a = 1;\n')
        self.assertEqual(done.returncode, 0, done.stderr)

    def test_assembly_is_refused(self):
        attempts = {
            'asm(".section .rodata\\n.incbin \\"/etc/ld.so.conf\\"\\n.text");\n': ".incbin",
            'asm(".include \\"/etc/ld.so.conf\\"");\n': ".include",
            'void f() { asm volatile("nop"); }\n': "an asm statement",
            'void f() { __asm__ ("syscall"); }\n': "syscall",
            '#define A(x) __as##m__(x)\nA(".INCBIN \\"/etc/ld.so.conf\\"");\n': ".incbin",
            # No asm statement: text smuggled in a section name, an asm
            # label (symbol name) and a weak reference's target.
            'int x __attribute__((section(".data\\n.incbin \\"/etc/ld.so.conf\\"\\n#")))'
            ' = 1;\n': ".incbin",
            'extern "C" int y asm("y\\n.include \\"/etc/ld.so.conf\\"\\n#");\n'
            'int g() { return y; }\n': ".include",
            'static int w __attribute__((weakref("v\\n.incbin \\"/etc/ld.so.conf\\"\\n#")));\n'
            'int h() { return w; }\n': ".incbin",
            # A directive split by a comment, which the assembler removes.
            'int c __attribute__((section(".data\\n.inc/**/bin \\"/etc/ld.so.conf\\"\\n#")))'
            ' = 1;\n': ".incbin",
            'int d __attribute__((section(".data\\n.in/* x */clude \\"/etc/ld.so.conf\\"\\n#")))'
            ' = 1;\n': ".include",
            # A character constant's quote, which would open a string for a
            # check that skipped the assembler's strings.
            'int z __attribute__((section(".data\\n.byte \'\\"; .incbin \\"/etc/ld.so.conf\\"'
            '\\n#"))) = 1;\n': ".incbin",
        }
        for text, names in attempts.items():
            with self.subTest(text=text):
                self.assertQuotesNothing(text, names, "holds assembly")

    def test_a_string_that_reads_like_a_directive_compiles(self):
        done, _ = self.compile('const char* s = "x\\n.incbin \\"/etc/ld.so.conf\\"";\n'
                               'const char* f() { return s; }\n')
        self.assertEqual(done.returncode, 0, done.stderr)

    def test_errors_are_shown_without_the_caret_display_and_warnings_once(self):
        done, _ = self.compile('#warning look here\nint f() { return 1 }\n')
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("error", done.stderr)
        self.assertNotIn("REFUSED", done.stderr)
        self.assertNotIn(" | ", done.stderr)   # no quoted source line
        self.assertEqual(done.stderr.count("look here"), 1, done.stderr)
        done, _ = self.compile('#warning look here\nint f() { return 1; }\n')
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stderr.count("look here"), 1, done.stderr)
        self.assertTrue((self.tmp / "out" / "ex.o").exists())

    def test_the_reference_and_the_pristine_host_exercises_hold_no_assembly(self):
        sources = [ROOT / impl / "reduction" / "effectiveBandwidth.cu"
                   for impl in ("solutions", "starter")]
        sources += sorted((ROOT / "solutions" / "config").glob("*.cu"))
        sources += sorted((ROOT / "starter" / "config").glob("*.cu"))
        for source in sources:
            with self.subTest(source=source.relative_to(ROOT)):
                assembly = self.tmp / "out" / f"{source.stem}.s"
                done = subprocess.run(
                    ["g++", "-x", "c++", "-S", "-O3", "-std=c++17", "-Wno-attributes",
                     f"-I{ROOT / 'chapters'}", *CUDA_INCLUDE, "-o", str(assembly),
                     str(source)], capture_output=True, text=True, timeout=120)
                self.assertEqual(done.returncode, 0, done.stderr)
                self.assertNotIn("#APP", assembly.read_text())
                done, _ = self.compile(source.read_text())
                self.assertEqual(done.returncode, 0, done.stderr)


class DiagnosticNamesTest(unittest.TestCase):
    """Which files the launcher finds named in a compiler's diagnostics."""

    def refusal(self, text):
        import importlib.util
        spec = importlib.util.spec_from_file_location("compile_with_limits", LAUNCHER)
        launcher = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(launcher)
        args = launcher.parse_args(["--check-includes", "--source", "ex.cu", "--allow",
                                    str(ROOT / "chapters"), "--name", "reduction/ex",
                                    "--", "g++", "-c", "ex.cu"])
        return launcher.diagnostic_refusal(args, args.command, str(ROOT), text)

    def test_a_file_outside_named_in_any_form_is_refused(self):
        for text in ("/etc/ld.so.conf:1: Error: no such instruction: `x'\n",
                     "/etc/ld.so.conf: Assembler messages:\n",
                     "/etc/ld.so.conf:3:21: error: 'x' was not declared in this scope\n",
                     "/etc/ld.so.conf: In function 'int f()':\n",
                     "In file included from /etc/ld.so.conf:2,\n",
                     "                 from /etc/ld.so.conf:2:\n",
                     "/etc/ld.so.conf(4): error: identifier \"x\" is undefined\n"):
            with self.subTest(text=text):
                said = self.refusal(text)
                self.assertIsNotNone(said)
                self.assertIn("/etc/ld.so.conf", said)

    def test_the_exercise_the_headers_and_the_compilers_own_files_are_not(self):
        header = ROOT / "chapters" / "reduction" / "reduction.cuh"
        for text in ("ex.cu:3:5: error: expected ';'\n",
                     "ex.cu: In function 'int f()':\n",
                     f"In file included from {header}:2,\n",
                     "ex.cu(4): warning #177-D: variable \"x\" was declared but never used\n",
                     "/tmp/ccA1b2C3.s: Assembler messages:\n",
                     "<command-line>: warning: \"X\" redefined\n",
                     "ptxas /tmp/tmpxft_0001_00000000-6_ex.ptx, line 25; fatal   : Parsing error\n",
                     "collect2: error: ld returned 1 exit status\n",
                     "nvcc warning : The -std=c++17 flag is ignored\n"):
            with self.subTest(text=text):
                self.assertIsNone(self.refusal(text))


def _nvcc():
    found = shutil.which("nvcc")
    return found or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc")
                     else None)


CUDA_INCLUDE = ([f"-I{os.path.dirname(os.path.dirname(os.path.realpath(_nvcc())))}/include"]
                if _nvcc() else [])


@unittest.skipUnless(AVAILABLE, f"the sandbox cannot start here: {WHY}")
@unittest.skipUnless(_nvcc(), "no nvcc here")
@unittest.skipUnless(os.path.exists("/etc/ld.so.conf"), "no /etc/ld.so.conf here")
class KernelModuleTricksTest(unittest.TestCase):
    """The host exercises' three ways to read a file, tried on a kernel
    module (nvcc -fatbin, as the grader's build compiles one): refused, or
    failing without quoting the file, or without its bytes in the module."""

    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="wb-module-test-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)
        (self.tmp / "out").mkdir()

    def compile(self, text):
        source = self.tmp / "ex.cu"
        source.write_text(text)
        done = subprocess.run(
            [sys.executable, str(LAUNCHER), "--sandbox", "--source", str(source), "--allow",
             str(ROOT / "chapters"), "--name", "reduction/ex", "--",
             _nvcc(), "-fatbin", "-std=c++17", "-lineinfo", "-DWB_EXERCISE_MODULE",
             f"-I{ROOT / 'chapters'}", "--generate-code=arch=compute_90,code=sm_90", "-MD",
             "-MF", "out/ex.fatbin.d", "-o", "out/ex.fatbin", str(source)],
            cwd=self.tmp, stdin=subprocess.DEVNULL, capture_output=True, text=True,
            timeout=240)
        return done, done.stdout + done.stderr

    def test_a_line_directive_naming_a_file_outside_is_refused(self):
        done, said = self.compile('#line 1 "/etc/ld.so.conf"\n'
                                  '__global__ void k(int* p) { *p = not_declared; }\n')
        self.assertNotEqual(done.returncode, 0)
        self.assertTrue(said.startswith("REFUSED: "), said)
        self.assertIn("/etc/ld.so.conf", said)
        self.assertNotIn(LD_SO_CONF_LINE, said)

    def test_device_assembly_cannot_read_a_file(self):
        # PTX has neither directive: ptxas fails on its name alone.
        for directive in (".incbin", ".include"):
            with self.subTest(directive=directive):
                done, said = self.compile(
                    f'__global__ void k(int* p) {{ asm volatile("{directive} '
                    f'\\"/etc/ld.so.conf\\""); }}\n')
                self.assertNotEqual(done.returncode, 0)
                self.assertNotIn(LD_SO_CONF_LINE, said)
                self.assertFalse((self.tmp / "out" / "ex.fatbin").exists())

    def test_top_level_assembly_is_not_in_a_module(self):
        # A module is device code only: the host's top-level asm is dropped.
        for directive in (".incbin", ".include"):
            with self.subTest(directive=directive):
                done, said = self.compile(f'asm("{directive} \\"/etc/ld.so.conf\\"");\n'
                                          '__global__ void k(int* p) { *p = 1; }\n')
                self.assertNotIn(LD_SO_CONF_LINE, said)
                if done.returncode == 0:
                    module = (self.tmp / "out" / "ex.fatbin").read_bytes()
                    self.assertNotIn(b"ld.so.conf.d", module)


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
                               gpu_note="", cmake_args=("-DWB_COMPILE_WALL_SECONDS=30",))
        self.assertEqual(options.build_args, ("-DWB_COMPILE_WALL_SECONDS=30",))
        options.confined = False
        # The include check (WB_CHECK_INCLUDES, on in the grader preset) stays.
        self.assertEqual(options.build_args, ("-DWB_COMPILE_WALL_SECONDS=30", "-DWB_SANDBOX_COMPILES=OFF"))

    def test_slurm_tasks_get_unconfined_passed_on(self):
        from grader import grade
        args = grade.parse_args(["sub", "--unconfined", "--no-gpu"])
        self.assertIn("--unconfined", grade.grading_argv(args))
        args = grade.parse_args(["sub"])
        self.assertNotIn("--unconfined", grade.grading_argv(args))


if __name__ == "__main__":
    unittest.main()
