"""The walls around untrusted exercise files:

- wbcore/object_check.py, the check of a host exercise's object
  (reduction/effectiveBandwidth) before it is linked into its test: the
  pristine solution and starter pass; an object with a static constructor or
  destructor, an exit handler, a call that ends the process, starts one,
  writes a file, reads the environment, loads code or uses GoogleTest, a
  definition of a harness, GoogleTest or library function, an ifunc, a
  system-call instruction, or an executable section holding anything but
  functions (machine code in a const array, a section of its own marked
  executable, bytes between functions) is refused, with a reason that names
  it;
- cmake/compile_with_limits.py, the launcher every exercise compile runs
  under: it passes a command's output and status through, and stops one
  past its CPU, memory, wall-clock or file-size limit with a LIMIT line.

The object tests compile small C++ files with g++ (skipped where g++, nm,
objdump or the CUDA headers, which the contract includes, are missing)."""
import concurrent.futures
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

from gradingtest import ROOT
from wbcore import object_check as oc

KEY = "reduction/effectiveBandwidth"
SOLUTION = ROOT / "solutions" / "reduction" / "effectiveBandwidth.cu"
STARTER = ROOT / "starter" / "reduction" / "effectiveBandwidth.cu"
CHECKER = ROOT / "wbcore" / "object_check.py"
LIMITS = ROOT / "cmake" / "compile_with_limits.py"
# What only the launcher refuses (its assembly check), not the object check.
LAUNCHER_REFUSES = (".incbin", ".include", "holds assembly")


def _cuda_include():
    for base in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if base and (pathlib.Path(base) / "include" / "cuda_runtime.h").exists():
            return pathlib.Path(base) / "include"
    nvcc = shutil.which("nvcc")
    if nvcc:
        include = pathlib.Path(nvcc).resolve().parents[1] / "include"
        if (include / "cuda_runtime.h").exists():
            return include
    return None


CUDA_INCLUDE = _cuda_include()
MISSING = [t for t in ("g++", "nm", "objdump") if not shutil.which(t)]
# Compiled as the build compiles a host exercise: plain C++, optimized.
CXXFLAGS = ["-x", "c++", "-std=c++17", "-O2", "-DNDEBUG", "-Wno-attributes"]

# The contract and the exercise's function, which every source below defines.
HEAD = '#include "reduction/reduction.cuh"\n'
FUNCTION = """
namespace wb::reduction {
double effectiveBandwidthGBs(std::size_t bytesRead, std::size_t bytesWritten, double ms) {
  return (static_cast<double>(bytesRead) + static_cast<double>(bytesWritten)) / 1e6 / ms;
}
}  // namespace wb::reduction
"""

# name: (source, text every refusal list must hold (each, in one line or
# another)). A source is the text after HEAD, before FUNCTION.
REFUSED = {
    "constructor_attribute": ("""
        namespace { volatile int touched;
        __attribute__((constructor)) void before() { touched = 1; } }
        """, ["has a static constructor (.init_array)", "before main"]),
    "constructor_priority": ("""
        namespace { volatile int touched;
        __attribute__((constructor(101))) void before() { touched = 1; } }
        """, ["has a static constructor (.init_array.00101)"]),
    "global_object_constructor": ("""
        namespace { volatile int touched;
        struct Hello { Hello() { touched = 1; } } hello; }
        """, ["has a static constructor (.init_array)"]),
    "global_object_destructor": ("""
        namespace { volatile int touched;
        struct Bye { ~Bye() { touched = 2; } } bye; }
        """, ["__cxa_atexit", "runs after main"]),
    "static_local_destructor": ("""
        namespace { volatile int touched; struct Bye { ~Bye() { touched = 2; } }; }
        namespace wb::reduction { double once() { static Bye bye; (void)bye; return 0; } }
        """, ["__cxa_atexit"]),
    "atexit_handler": ("""
        #include <cstdlib>
        namespace { void handler() {} __attribute__((used)) void reg() { std::atexit(handler); } }
        """, ["imports atexit: an exercise may not register code to run when the process "
              "exits"]),
    "exit_call": ("""
        #include <cstdlib>
        namespace { __attribute__((used)) void out() { std::exit(0); } }
        """, ["imports exit: an exercise may not end the process"]),
    "underscore_exit_call": ("""
        #include <unistd.h>
        namespace { __attribute__((used)) void out() { _exit(0); } }
        """, ["imports _exit: an exercise may not end the process"]),
    "fork_call": ("""
        #include <unistd.h>
        namespace { __attribute__((used)) int child() { return fork(); } }
        """, ["imports fork: an exercise may not start processes"]),
    "fake_report": ("""
        #include <cstdio>
        namespace { __attribute__((used)) void report() {
          if (std::FILE* f = std::fopen("report.json", "w")) {
            std::fprintf(f, "{\\"tests\\": %d, \\"failures\\": 0}", 1); std::fclose(f); } } }
        """, ["imports fopen", "may not read or write files"]),
    "getenv_call": ("""
        #include <cstdlib>
        namespace { __attribute__((used)) const char* where() { return std::getenv("GTEST_OUTPUT"); } }
        """, ["imports getenv: an exercise may not read or change the environment"]),
    "dlopen_call": ("""
        #include <dlfcn.h>
        namespace { __attribute__((used)) void* lib() { return dlopen("libc.so.6", RTLD_NOW); } }
        """, ["imports dlopen: an exercise may not load"]),
    "iostream_include": ("""
        #include <iostream>
        """, ["has a static constructor (.init_array)", "do not include <iostream>"]),
    "gtest_listener_declared": ("""
        namespace testing {
        class UnitTest { public: static UnitTest* GetInstance(); };
        class EmptyTestEventListener { public: virtual ~EmptyTestEventListener(); };
        }
        namespace { class HideFailures : public testing::EmptyTestEventListener {};
        __attribute__((used)) void* install() { (void)testing::UnitTest::GetInstance();
                                                return new HideFailures; } }
        """, ["uses testing::UnitTest::GetInstance() (_ZN7testing8UnitTest11GetInstanceEv), "
              "which belongs to the test framework (GoogleTest)"]),
    "harness_definition": ("""
        namespace wb { double timeKernel(int) { return 0; } }
        """, ["defines wb::timeKernel(int) (_ZN2wb10timeKernelEi), which belongs to the test "
              "harness: an exercise file may define only its exercise's functions"]),
    "harness_weak_definition": ("""
        namespace wb { __attribute__((weak)) double timeKernel(int) { return 0; } }
        """, ["wb::timeKernel(int)", "belongs to the test harness"]),
    "framework_definition": ("""
        namespace testing { namespace internal { void foo() {} } }
        """, ["defines testing::internal::foo() (_ZN7testing8internal3fooEv), which belongs "
              "to the test framework (GoogleTest)"]),
    "main_definition": ("""
        __attribute__((weak)) int main() { return 0; }
        """, ["defines main, which belongs to the test program"]),
    "operator_new_definition": ("""
        #include <cstdlib>
        #include <new>
        void* operator new(std::size_t n) { return std::malloc(n ? n : 1); }
        """, ["defines operator new(unsigned long) (_Znwm), which the C or C++ library "
              "provides"]),
    "helper_not_static": ("""
        double toSeconds(double ms) { return ms / 1e3; }
        """, ["defines toSeconds(double) (_Z9toSecondsd), which is not one of the exercise's "
              "functions", "static"]),
    "inline_syscall": ("""
        namespace wb::reduction { double quit() {
          asm volatile("mov $231, %%eax\\n\\txor %%edi, %%edi\\n\\tsyscall" ::: "eax", "edi");
          return 0; } }
        """, ["contains the instruction `syscall` (inline assembly) in wb::reduction::quit()"]),
    "inline_int80": ("""
        namespace { __attribute__((used)) void quit() { asm volatile("int $0x80"); } }
        """, ["contains the instruction `int $0x80`"]),
    "assembly_ctors_section": ("""
        asm(".section .ctors,\\"aw\\"\\n.quad 0\\n.text");
        """, ["has a static constructor (.ctors)"]),
    "assembly_init_array_type": ("""
        asm(".section .innocent,\\"aw\\",@init_array\\n.quad 0\\n.text");
        """, ["has a static constructor (.innocent)"]),
    "machine_code_in_text_section": ("""
        namespace { __attribute__((section(".text.x"), used))
        const unsigned char code[] = {0xb8, 0xe7, 0x00, 0x00, 0x00, 0x0f, 0x05}; }
        """, ["has data ((anonymous namespace)::code", "in the executable section .text.x"]),
    "machine_code_in_text": ("""
        namespace { __attribute__((section(".text"), used))
        const unsigned char code[] = {0x0f, 0x05, 0xc3}; }
        """, ["in the executable section .text:"]),
    "assembly_data_object_in_text_section": ("""
        asm(".section .text.x,\\"ax\\",@progbits\\n.type blob,@object\\n"
            "blob: .byte 0x0f,0x05\\n.size blob,2\\n.text");
        """, ["has data (blob) in the executable section .text.x"]),
    "assembly_executable_section_of_its_own": ("""
        asm(".section .fast,\\"ax\\",@progbits\\n.type fast,@function\\n"
            "fast: ret\\n.size fast,1\\n.text");
        """, ["has an executable section named .fast"]),
    "assembly_writable_code": ("""
        asm(".section .text.w,\\"awx\\",@progbits\\n.type fast,@function\\n"
            "fast: ret\\n.size fast,1\\n.text");
        """, ["has a section .text.w that is both writable and executable"]),
    "assembly_bytes_between_functions": ("""
        asm(".text\\n.byte 0xc3,0xc3\\n");
        """, ["of the executable section .text that belong to no function"]),
    "assembly_executable_stack": ("""
        asm(".section .note.GNU-stack,\\"x\\",@progbits\\n.text");
        """, ["has an executable section named .note.GNU-stack"]),
    "ifunc": ("""
        extern "C" { static double impl(double x) { return x; }
        static void* pick() { return reinterpret_cast<void*>(impl); }
        double twice(double) __attribute__((ifunc("pick"))); }
        """, ["defines twice as an indirect function (ifunc), whose resolver runs before main"]),
    "weak_by_hand_in_std": ("""
        namespace std { __attribute__((weak)) void __throw_bad_function_call() { for (;;) {} } }
        """, ["declares std::__throw_bad_function_call() (_ZSt25__throw_bad_function_callv) "
              "weak by hand"]),
    "inline_library_redefinition": ("""
        namespace std { inline void __throw_out_of_range(const char*) { for (;;) {} } }
        namespace { __attribute__((used)) void (*keep)(const char*) = std::__throw_out_of_range; }
        """, ["defines std::__throw_out_of_range(char const*) (_ZSt20__throw_out_of_rangePKc) "
              "again, which the C++ library already provides"]),
    "cuda_runtime_call": ("""
        namespace { __attribute__((used)) void sync() { cudaDeviceSynchronize(); } }
        """, ["imports cudaDeviceSynchronize: this exercise is a host function"]),
    "stream_message": ("""
        #include <sstream>
        #include <stdexcept>
        namespace { [[noreturn]] __attribute__((used)) void bad(double ms) {
          std::ostringstream o; o << ms; throw std::invalid_argument(o.str()); } }
        """, ["streams (std::cout, files, std::ostringstream too) are not allowed"]),
}

# A file that does not include the contract: its own std::basic_string,
# instantiated for char, replaces the C++ library's for the whole program.
FAKE_LIBRARY_TEMPLATE = """
#include <cstddef>
namespace std {
template <class C> struct char_traits;
template <class C> class allocator;
inline namespace __cxx11 {
template <class C, class T, class A> struct basic_string { void _M_dispose(); };
}  // namespace __cxx11
}  // namespace std
template <class C, class T, class A>
void std::__cxx11::basic_string<C, T, A>::_M_dispose() { for (;;) {} }
template struct std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char>>;
""" + FUNCTION

# What an exercise may use: std::string, the standard exceptions (and one of
# its own), <cmath>, <algorithm>, a static local constant, snprintf.
ALLOWED = """
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
namespace {
struct BadTime : std::invalid_argument { using std::invalid_argument::invalid_argument; };
double seconds(double ms) { static const double k = std::pow(10.0, 3.0); return ms / k; }
std::string show(double x) { char b[32]; std::snprintf(b, sizeof b, "%g", x); return b; }
}  // namespace
namespace wb::reduction {
double effectiveBandwidthGBs(std::size_t bytesRead, std::size_t bytesWritten, double ms) {
  if (!(ms > 0.0) || !std::isfinite(ms)) {
    throw BadTime("needs a positive time, got " + std::to_string(ms) + " ms (" + show(ms) + ")");
  }
  if (ms > 1e300) throw std::out_of_range(std::string("too long: ") + show(ms));
  const double bytes = static_cast<double>(bytesRead) + static_cast<double>(bytesWritten);
  return std::max(0.0, std::floor(bytes) / 1e9 / seconds(ms));
}
}  // namespace wb::reduction
"""

GTEST_LISTENER = """
#include <gtest/gtest.h>
namespace { class HideFailures : public testing::EmptyTestEventListener {}; }
namespace wb::reduction {
double effectiveBandwidthGBs(std::size_t, std::size_t, double) {
  testing::UnitTest::GetInstance()->listeners().Append(new HideFailures);
  return 0.0;
}
}  // namespace wb::reduction
"""


# Section config (book 5.1) configures kernels through the CUDA runtime: its
# configuration calls pass, against a reference that makes none, and
# anything else of the runtime is still refused.
CONFIG_KEY = "config/preferSharedCarveout"
CONFIG_STUB = """
#include "config/config.cuh"
namespace wb::config {
cudaError_t preferSharedCarveout(const void*, int) { return cudaSuccess; }
}  // namespace wb::config
"""
CONFIG_CALLS = """
#include "config/config.cuh"
namespace wb::config {
cudaError_t preferSharedCarveout(const void* kernel, int percent) {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) return cudaErrorInvalidValue;
  cudaFuncAttributes attributes{};
  (void)cudaFuncGetAttributes(&attributes, kernel);
  return cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, percent);
}
}  // namespace wb::config
"""
CONFIG_SYNCHRONIZES = """
#include "config/config.cuh"
namespace wb::config {
cudaError_t preferSharedCarveout(const void* kernel, int percent) {
  (void)cudaDeviceSynchronize();
  return cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, percent);
}
}  // namespace wb::config
"""


def _compile(source_path, object_path):
    result = subprocess.run(["g++", "-c", *CXXFLAGS, f"-I{ROOT / 'chapters'}",
                             f"-I{CUDA_INCLUDE}", "-o", str(object_path), str(source_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
    return result.returncode, result.stdout.decode("utf-8", "replace")


@unittest.skipIf(MISSING, f"needs {', '.join(MISSING)}")
@unittest.skipIf(CUDA_INCLUDE is None, "needs the CUDA headers (cuda_runtime.h)")
class ObjectCheckTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="object_check_test_")
        folder = pathlib.Path(cls.tmp.name)
        sources = {"solution": SOLUTION, "starter": STARTER}
        texts = {name: HEAD + textwrap.dedent(text) + FUNCTION
                 for name, (text, _) in REFUSED.items()}
        texts["allowed"] = HEAD + ALLOWED
        texts["fake_library_template"] = FAKE_LIBRARY_TEMPLATE
        texts["gtest_listener"] = HEAD + GTEST_LISTENER
        texts["config_stub"] = CONFIG_STUB
        texts["config_calls"] = CONFIG_CALLS
        texts["config_synchronizes"] = CONFIG_SYNCHRONIZES
        for name, text in texts.items():
            sources[name] = folder / f"{name}.cpp"
            sources[name].write_text(text)
        # grader/tests/forgeries/effectiveBandwidth__*.cu, which say what the
        # grader must name: "// expect: refused TEXT".
        cls.forgeries = {}
        for path in sorted((ROOT / "grader" / "tests" / "forgeries")
                           .glob("effectiveBandwidth__*.cu")):
            expect = next((line.split("refused", 1)[1].strip()
                           for line in path.read_text().splitlines()
                           if line.startswith("// expect: refused")), None)
            # A refusal that names a file (solutions/..., /proc/self/fd/1) is
            # the include check's, made before anything is compiled: such a
            # file may not even compile (it includes the compiler's own pipe).
            # One that names an assembler directive reading a file is the
            # launcher's assembly check's, made before the object exists.
            if expect is not None and "/" not in expect and expect not in LAUNCHER_REFUSES:
                cls.forgeries[path.stem] = expect
                sources[path.stem] = path
        cls.objects, cls.errors = {}, {}
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            jobs = {name: pool.submit(_compile, path, folder / f"{name}.o")
                    for name, path in sources.items()}
            for name, job in jobs.items():
                status, output = job.result()
                if status == 0:
                    cls.objects[name] = folder / f"{name}.o"
                else:
                    cls.errors[name] = output

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def obj(self, name):
        if name not in self.objects:
            self.fail(f"{name} did not compile:\n{self.errors.get(name, '')[:3000]}")
        return self.objects[name]

    def check(self, name, reference="solution"):
        return oc.check_object(self.obj(name), self.obj(reference), KEY)

    def test_the_reference_and_the_pristine_starter_pass(self):
        self.assertEqual(self.check("solution"), [])
        self.assertEqual(self.check("starter"), [])
        self.assertEqual(self.check("solution", reference="starter"), [])

    def test_config_may_make_configuration_calls_and_nothing_else(self):
        self.assertEqual(oc.check_object(self.obj("config_calls"), self.obj("config_stub"),
                                         CONFIG_KEY), [])
        text = "\n".join(oc.check_object(self.obj("config_synchronizes"),
                                         self.obj("config_stub"), CONFIG_KEY))
        self.assertIn("imports cudaDeviceSynchronize", text)
        self.assertNotIn("imports cudaFuncSetAttribute", text)

    def test_what_an_exercise_may_use_passes_on_the_allowlists_alone(self):
        # Against the starter, which imports nothing: the allowlists alone.
        self.assertEqual(self.check("allowed", reference="starter"), [])

    def test_each_forgery_is_refused_with_its_reason(self):
        for name, (_, expected) in REFUSED.items():
            with self.subTest(name):
                problems = self.check(name)
                self.assertTrue(problems, f"{name} was not refused")
                for line in problems:
                    self.assertTrue(line.startswith(f"REFUSED: starter/{KEY}.cu "), line)
                text = "\n".join(problems)
                for part in expected:
                    self.assertIn(part, text)

    def test_a_copy_of_a_library_template_of_ones_own_is_refused(self):
        text = "\n".join(self.check("fake_library_template"))
        self.assertIn("basic_string<char, std::char_traits<char>, std::allocator<char> >"
                      "::_M_dispose()", text)
        self.assertIn("again, which the C++ library already provides", text)

    def test_a_googletest_listener_is_refused(self):
        if "gtest_listener" in self.errors and "gtest/gtest.h" in self.errors["gtest_listener"]:
            self.skipTest("GoogleTest's headers are not installed")
        text = "\n".join(self.check("gtest_listener"))
        self.assertIn("uses testing::UnitTest::GetInstance()", text)
        self.assertIn("belongs to the test framework (GoogleTest)", text)

    def test_the_forgery_submissions_are_refused_for_what_they_expect(self):
        self.assertTrue(self.forgeries)
        for name, expect in self.forgeries.items():
            with self.subTest(name):
                if "gtest/gtest.h" in self.errors.get(name, ""):
                    continue   # no GoogleTest headers here
                self.assertIn(expect, "\n".join(self.check(name)))

    def test_command_line(self):
        def run(*args, env=None):
            return subprocess.run([sys.executable, str(CHECKER), *map(str, args)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                                  text=True, timeout=120)
        ok = run("--object", self.obj("solution"), "--reference", self.obj("solution"),
                 "--name", KEY)
        self.assertEqual(ok.returncode, 0, ok.stdout + ok.stderr)
        self.assertLessEqual(len(ok.stdout.splitlines()), 1)
        refused = run("--object", self.obj("harness_definition"), "--reference",
                      self.obj("solution"), "--name", KEY)
        self.assertEqual(refused.returncode, 1)
        self.assertTrue(refused.stdout.startswith(f"REFUSED: starter/{KEY}.cu defines "
                                                  f"wb::timeKernel(int)"), refused.stdout)
        for bad in (["--object", self.obj("solution"), "--reference", "/nonexistent.o",
                     "--name", KEY],
                    ["--object", self.obj("solution"), "--reference", self.obj("solution"),
                     "--name", "../x"],
                    ["--object", self.obj("solution")]):
            with self.subTest(bad=bad):
                self.assertEqual(run(*bad).returncode, 2)
        with tempfile.TemporaryDirectory() as empty:
            no_tools = run("--object", self.obj("solution"), "--reference",
                           self.obj("solution"), "--name", KEY,
                           env={**os.environ, "PATH": empty})
        self.assertEqual(no_tools.returncode, 2)
        self.assertIn("binutils", no_tools.stderr)

    def test_a_file_that_is_not_an_object_is_refused(self):
        with tempfile.NamedTemporaryFile(suffix=".o") as f:
            f.write(b"not an object")
            f.flush()
            problems = oc.check_object(f.name, self.obj("solution"), KEY)
        self.assertEqual(problems, [f"REFUSED: starter/{KEY}.cu is not an ELF object file"])


LINK_MAP = """Archive member included to satisfy reference by file (symbol)

Discarded input sections

 .note.GNU-stack
                0x0000000000000000        0x0 tests/x/test.o
 .group         0x0000000000000000        0x8 /usr/lib/x86_64-linux-gnu/libgtest.a(gtest-all.cc.o)
 .text._ZNSt6vectorIiSaIiEE17_M_realloc_insertIJiEEEvv
                0x0000000000000000      0x157 {loser}
 .text._ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE10_M_disposeEv
                0x0000000000000000       0x40 tests/ex/libex_exercise.a(ex.cu.o)

Memory Configuration

Linker script and memory map

 .text          0x0000000000001000       0x30 tests/x/test.o
 .text._ZNSt6vectorIiSaIiEE17_M_realloc_insertIJiEEEvv
                0x0000000000002000      0x157 {winner}
 .text._ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE10_M_disposeEv
                0x0000000000003000       0x40 tests/x/test.o
 .text          0x0000000000004000       0x20 tests/ex/libex_exercise.a(ex.cu.o)
"""


class LinkMapTest(unittest.TestCase):
    """After linking: no section of the exercise's replaced another input's
    copy (a weak template definition of its own that runs for GoogleTest)."""

    EXERCISE = "tests/ex/libex_exercise.a(ex.cu.o)"
    GTEST = "/usr/lib/x86_64-linux-gnu/libgtest.a(gtest-all.cc.o)"

    def problems(self, winner, loser):
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "test.map"
            path.write_text(LINK_MAP.format(winner=winner, loser=loser))
            return oc.link_map_problems(path, "libex_exercise.a(", "reduction/effectiveBandwidth")

    def test_the_exercises_copy_chosen_over_another_is_refused(self):
        problems = self.problems(winner=self.EXERCISE, loser=self.GTEST)
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("REFUSED: starter/reduction/effectiveBandwidth.cu gives the test program "
                      "its own copy of", problems[0])
        self.assertIn("_M_realloc_insert", problems[0])

    def test_another_inputs_copy_chosen_over_the_exercises_is_fine(self):
        self.assertEqual(self.problems(winner=self.GTEST, loser=self.EXERCISE), [])

    def test_a_file_that_is_no_map_is_an_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "x.map"
            path.write_text("nothing here\n")
            with self.assertRaises(ValueError):
                oc.link_map_problems(path, "x", "reduction/effectiveBandwidth")


class ScopeTest(unittest.TestCase):
    def test_scopes_from_mangled_names(self):
        cases = {
            "_ZN2wb9reduction21effectiveBandwidthGBsEmmd": ("wb", "reduction",
                                                           "effectiveBandwidthGBs"),
            "_ZSt3minIlERKT_S2_S2_": ("std", "min"),
            "_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE4sizeEv":
                ("std", "__cxx11", "basic_string"),
            "_ZNSaIcEC1Ev": ("std", "allocator"),
            "_ZTIN7testing22EmptyTestEventListenerE": ("testing", "EmptyTestEventListener"),
            "_ZGVZN2wb10timeKernelEiE1x": ("wb", "timeKernel"),
            "_ZThn8_N7testing4TestD0Ev": ("testing", "Test"),
            "_ZN9__gnu_cxx12__to_xstringINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEc"
            "EET_PFiPT0_mPKS8_P13__va_list_tagEmSB_z": ("__gnu_cxx", "__to_xstring"),
            "main": ("main",),
            "_Z9toSecondsd": ("toSeconds",),
        }
        for mangled, scope in cases.items():
            with self.subTest(mangled):
                self.assertEqual(oc.scope_of(mangled)[:len(scope)], scope)


def _limits(*args, timeout=60):
    return subprocess.run([sys.executable, str(LIMITS), *map(str, args)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=timeout)


@unittest.skipUnless(os.name == "posix", "POSIX resource limits")
class CompileWithLimitsTest(unittest.TestCase):
    def limit_line(self, result):
        lines = [l for l in result.stderr.splitlines() if l.startswith("LIMIT: ")]
        self.assertEqual(len(lines), 1, result.stderr[-3000:])
        return lines[0]

    def test_a_command_passes_through_with_its_status(self):
        result = _limits("--name", "reduction/reduceSmem", "--", "sh", "-c",
                         "echo out; echo err >&2; exit 3")
        self.assertEqual(result.returncode, 3)
        self.assertEqual(result.stdout, "out\n")
        self.assertEqual(result.stderr, "err\n")
        self.assertEqual(_limits("--", "true").returncode, 0)

    def test_an_ordinary_error_says_nothing_of_limits(self):
        # A compiler error whose echoed source line says "out of memory".
        result = _limits("--memory-mb", "2560", "--", "sh", "-c",
                         'echo "x.cu(3): error: identifier \\"oom\\" is undefined"; '
                         'echo "  throw std::runtime_error(\\"out of memory\\");"; exit 1')
        self.assertEqual(result.returncode, 1)
        self.assertNotIn("LIMIT", result.stderr)

    def test_the_cpu_limit(self):
        started = time.monotonic()
        result = _limits("--cpu-seconds", "1", "--name", "reduction/reduceSmem", "--",
                         sys.executable, "-c", "while True: pass")
        self.assertLess(time.monotonic() - started, 20)
        self.assertNotEqual(result.returncode, 0)
        line = self.limit_line(result)
        self.assertIn("compiling reduction/reduceSmem used more than 1 s of CPU time", line)
        self.assertIn("WB_COMPILE_CPU_SECONDS", line)

    def test_the_memory_limit(self):
        result = _limits("--memory-mb", "300", "--name", "reduction/reduceSmem", "--",
                         sys.executable, "-c",
                         "x = []\nwhile True: x.append(bytearray(16 << 20))")
        self.assertNotEqual(result.returncode, 0)
        line = self.limit_line(result)
        self.assertIn("used more than 300 MB of memory", line)
        self.assertIn("WB_COMPILE_MEMORY_MB", line)

    def test_the_wall_clock_limit_stops_the_whole_group(self):
        with tempfile.TemporaryDirectory() as folder:
            pid_file = pathlib.Path(folder) / "pid"
            started = time.monotonic()
            result = _limits("--wall-seconds", "1", "--name", "reduction/reduceSmem", "--",
                             "sh", "-c", f"sleep 30 & echo $! > {pid_file}; sleep 30")
            self.assertLess(time.monotonic() - started, 15)
            self.assertEqual(result.returncode, 124)
            line = self.limit_line(result)
            self.assertIn("took more than 1 s", line)
            self.assertIn("WB_COMPILE_WALL_SECONDS", line)
            self.assertFalse(_alive(int(pid_file.read_text())),
                             "the command's background process survived")

    def test_the_file_size_limit(self):
        with tempfile.TemporaryDirectory() as folder:
            result = _limits("--file-mb", "1", "--name", "reduction/reduceSmem", "--",
                             sys.executable, "-c",
                             f"open({str(pathlib.Path(folder) / 'big')!r}, 'wb')"
                             f".write(bytes(4 << 20))")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("wrote a file larger than 1 MB", self.limit_line(result))

    def test_stopping_the_launcher_stops_the_command(self):
        with tempfile.TemporaryDirectory() as folder:
            pid_file = pathlib.Path(folder) / "pid"
            launcher = subprocess.Popen([sys.executable, str(LIMITS), "--", "sh", "-c",
                                         f"echo $$ > {pid_file}; exec sleep 30"])
            deadline = time.monotonic() + 10
            while not (pid_file.exists() and pid_file.read_text().strip()):
                self.assertLess(time.monotonic(), deadline)
                time.sleep(0.05)
            launcher.send_signal(signal.SIGTERM)
            self.assertEqual(launcher.wait(timeout=10), 128 + signal.SIGTERM)
            self.assertFalse(_alive(int(pid_file.read_text())))

    def test_usage_errors(self):
        self.assertEqual(_limits("--cpu-seconds", "1", "true").returncode, 2)
        self.assertEqual(_limits("--").returncode, 2)


def _alive(pid, wait=3.0):
    """Whether a process (not a zombie) still runs after up to `wait` s."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return False
        except FileNotFoundError:
            return False
        except OSError:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return False
        time.sleep(0.05)
    return True


if __name__ == "__main__":
    unittest.main()
