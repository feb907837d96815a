#!/usr/bin/env python3
"""The wall around a host exercise's object file.

A host exercise (reduction/effectiveBandwidth) is a plain C++ function that
the student writes; its file is compiled as C++ into an object that is linked
into a GoogleTest executable. The tests call the function in a child process
(tests/harness/src/isolated.cpp), but an object can run code in the test
process itself without being called: a static constructor, an exit handler, a
static destructor, or a definition that replaces a function of the harness,
of GoogleTest or of the C++ library. This module refuses such objects before
they are linked:

  - defined symbols: the strong global definitions must be among the
    reference object's (the pristine solution compiled the same way), so the
    list of what an exercise may define is written nowhere by hand; weak
    definitions (the compiler's copies of inline functions and templates) only
    in the C++ library's namespaces and the exercise's own (wb::<section>),
    never replacing what the C/C++ runtime libraries export, never declared
    weak by hand, never an indirect function (ifunc);
  - imported symbols: an allowlist (arithmetic, <cmath>, std::string,
    exceptions, operator new/delete), the CUDA runtime's configuration calls
    for the exercises of section config (book 5.1) alone, plus whatever the
    reference imports;
  - sections: no .init_array, .fini_array, .preinit_array, .ctors, .dtors,
    .init, .fini (by name or by section type); no symbol of the exercise's in
    the unwind tables (.eh_frame, .gcc_except_table), which the compiler
    fills without one;
  - executable sections: only the compiler's functions (no data symbol, no
    section of another name than .text*, none writable, no bytes outside a
    function but the assembler's padding), so no machine code hides as data;
  - instructions: no system-call instruction (syscall, sysenter, int $0x80).

    python3 wbcore/object_check.py --object STUDENT.o \\
        --reference REFERENCE.o --name reduction/effectiveBandwidth

exits 0 when the object is acceptable, 1 with one `REFUSED: starter/<name>.cu
...` line per problem, 2 on a usage error or a missing tool (binutils).
The grader imports check_object().

What this cannot see: code that reaches a library function through pointer
arithmetic (from the address of an allowed function, or the global offset
table) needs no import, and bytes of a system-call instruction hidden inside
another instruction are not one to a disassembler. The child process the
tests call the function in, confined by a seccomp filter
(tests/harness/src/confine.cpp), is the wall against what the function itself
does; this check keeps the object from running code anywhere else.
"""
import argparse
import functools
import glob
import os
import pathlib
import re
import shutil
import struct
import subprocess
import sys

# ---------------------------------------------------------------------------
# Allowlists and refusal rules: every list the check uses is here.
# Names are matched in their mangled (linker) form, which starts with the
# entity's scope also for a template instantiation (whose demangled form
# starts with its return type); the demangled form is in each comment.
# ---------------------------------------------------------------------------

# Weak definitions (nm W, V, u) are the compiler's copies of inline functions,
# templates and their static data, one per object, merged by the linker.
# Allowed in these namespaces only: the C++ library's (std::, __gnu_cxx::) and
# the exercise's own (wb::<section>::, added from --name). A weak definition
# anywhere else (testing::, wb::timeKernel, main, operator new) would replace
# the harness's, GoogleTest's or the C library's function of that name.
WEAK_DEFINITION_NAMESPACES = ("std", "__gnu_cxx")
# Compiler-made weak data: the pointer to the exception personality routine
# that the unwind tables of any function with a try/catch or cleanup use.
WEAK_DEFINITION_NAMES = frozenset({"DW.ref.__gxx_personality_v0",
                                   "DW.ref.__gcc_personality_v0"})

# Imports (nm U, w, v) an exercise may use: exact C names.
ALLOWED_IMPORTS = frozenset({
    # The C++ exception machinery: throwing, catching, unwinding.
    "__cxa_allocate_exception", "__cxa_free_exception", "__cxa_throw",
    "__cxa_begin_catch", "__cxa_end_catch", "__cxa_rethrow", "__cxa_get_exception_ptr",
    "__cxa_call_unexpected", "__cxa_call_terminate", "__gxx_personality_v0",
    "__gcc_personality_v0", "_Unwind_Resume",
    # Other pieces of the C++ runtime the compiler calls on its own: thread-safe
    # initialization of a static local (with no destructor: that one needs
    # __cxa_atexit, refused), pure/deleted virtual calls, dynamic_cast, typeid.
    "__cxa_guard_acquire", "__cxa_guard_release", "__cxa_guard_abort",
    "__cxa_pure_virtual", "__cxa_deleted_virtual", "__dynamic_cast",
    "__cxa_bad_cast", "__cxa_bad_typeid",
    # Stack protector (-fstack-protector): aborts on a smashed stack, a failure.
    "__stack_chk_fail", "__stack_chk_guard",
    # assert() when NDEBUG is not defined: prints and aborts, a failure.
    "__assert_fail",
    # Made by the linker; position-independent code refers to it.
    "_GLOBAL_OFFSET_TABLE_",
    # Memory and string primitives (the compiler also calls them for copies),
    # with their _FORTIFY_SOURCE variants (abort on overflow).
    "memcpy", "memmove", "memset", "memcmp", "memchr", "strlen", "strnlen",
    "strcmp", "strncmp", "__memcpy_chk", "__memmove_chk", "__memset_chk",
    # Allocation, as operator new/delete do it.
    "malloc", "calloc", "realloc", "free",
    # Formatting into a buffer: std::to_string(double) calls vsnprintf.
    "vsnprintf", "snprintf", "__vsnprintf_chk", "__snprintf_chk",
} | {
    # <cmath>: pure functions, in double, float (f) and long double (l).
    name + suffix
    for name in ("sqrt", "cbrt", "pow", "fabs", "floor", "ceil", "fmod", "remainder",
                 "ldexp", "frexp", "modf", "exp", "exp2", "expm1", "log", "log2", "log10",
                 "log1p", "nan", "round", "lround", "llround", "trunc", "rint", "lrint",
                 "llrint", "nearbyint", "fmin", "fmax", "fma", "hypot", "copysign")
    for suffix in ("", "f", "l")
})

# Imports an exercise may use: mangled-name patterns.
ALLOWED_IMPORT_PATTERNS = tuple(re.compile(p) for p in (
    # operator new, new[], delete, delete[] in all their forms (_Znwm: operator
    # new(unsigned long), _ZdlPvm: operator delete(void*, unsigned long), ...).
    r"^_Z(nw|na|dl|da)",
    # std::nothrow (operator new(size, std::nothrow)).
    r"^_ZSt7nothrow$",
    # std::__throw_length_error(char const*) and the other helpers that throw
    # the standard exceptions; std::__glibcxx_assert_fail (_GLIBCXX_ASSERTIONS)
    # and std::terminate(), which abort: a failure, never a pass.
    r"^_ZSt\d+__throw_", r"^_ZSt21__glibcxx_assert_fail", r"^_ZSt9terminatev$",
    # The members of std::string that libstdc++ compiles once for all:
    # std::__cxx11::basic_string<char, std::char_traits<char>,
    # std::allocator<char> >::... (and the old ABI's std::string::...,
    # std::basic_string<char, ...>::...), and std::allocator<char>::...
    r"^_ZN[rVK]*[RO]?St7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE",
    r"^_ZN[rVK]*[RO]?SbIcSt11char_traitsIcESaIcEE", r"^_ZN[rVK]*[RO]?Ss",
    r"^_ZN[rVK]*[RO]?SaIcE",
    # The standard exception classes: constructors, destructors, what(),
    # typeinfo (_ZTI), typeinfo name (_ZTS) and vtable (_ZTV); and the runtime's
    # typeinfo classes, whose vtables an exercise's own class with virtual
    # functions (an exception class of its own) refers to.
    r"^_Z(N[rVK]*|T[ISV])St(%s)" % "|".join(
        f"{len(c)}{c}" for c in ("invalid_argument", "logic_error", "domain_error",
                                 "out_of_range", "length_error", "runtime_error",
                                 "range_error", "overflow_error", "underflow_error",
                                 "exception", "bad_alloc", "bad_array_new_length")),
    r"^_ZTVN10__cxxabiv1\d+__(si_|vmi_)?class_type_infoE$",
))

# CUDA runtime calls the exercises of one section may make, by section: the
# configuration exercises of book 5.1 (config) read device attributes and set
# kernel attributes, and name the errors they report. Nothing that launches,
# allocates, copies, synchronises or changes the device's state.
ALLOWED_IMPORTS_BY_SECTION = {
    "config": frozenset({
        "cudaDeviceGetAttribute", "cudaGetDevice", "cudaFuncSetAttribute",
        "cudaFuncGetAttributes", "cudaGetErrorName", "cudaGetErrorString",
    }),
}

# Why an import outside the allowlists is refused, by what it is. Checked in
# this order; the first match gives the reason. (exact names, mangled-name
# pattern, demangled-name pattern, reason)
IMPORT_CATEGORIES = (
    ({"__cxa_atexit", "__dso_handle", "__cxa_thread_atexit", "__cxa_thread_atexit_impl"},
     None, None,
     "has a static (or thread_local) object with a destructor, which runs after main "
     "(it imports {name}): code that runs after main is not allowed; do not make objects "
     "with destructors static, and do not include <iostream>"),
    ({"atexit", "at_quick_exit", "on_exit"}, None, None,
     "imports {name}: an exercise may not register code to run when the process exits"),
    ({"exit", "_exit", "_Exit", "quick_exit", "abort", "exit_group"}, None, None,
     "imports {name}: an exercise may not end the process"),
    ({"fork", "vfork", "clone", "clone3", "__clone", "daemon", "system", "popen", "pclose",
      "posix_spawn", "posix_spawnp", "fexecve", "execve", "execv", "execvp", "execvpe",
      "execl", "execle", "execlp", "execveat"},
     r"^(pthread_|thrd_|_ZNSt6thread|_ZSt\d+this_thread|_ZNSt\d+this_thread)", None,
     "imports {name}: an exercise may not start processes or threads"),
    ({"kill", "killpg", "tgkill", "tkill", "raise", "signal", "sigaction", "sigprocmask",
      "sigsuspend", "sigwait", "alarm", "setitimer", "ptrace", "prctl", "setrlimit",
      "prlimit", "prlimit64", "setpgid", "setsid", "wait", "waitpid", "wait3", "wait4",
      "waitid", "__sysv_signal", "bsd_signal", "sigset", "sigqueue", "pause"},
     r"^(_ZSt\d+set_terminate|_ZSt\d+set_unexpected|_ZSt\d+set_new_handler)", None,
     "imports {name}: an exercise may not send or handle signals, or control processes"),
    ({"setjmp", "_setjmp", "__sigsetjmp", "sigsetjmp", "longjmp", "_longjmp", "siglongjmp",
      "__longjmp_chk", "getcontext", "setcontext", "swapcontext", "makecontext"}, None, None,
     "imports {name}: an exercise may not jump out of functions (throw an exception instead)"),
    ({"syscall"}, None, None, "imports {name}: an exercise may not make system calls"),
    ({"mmap", "mmap64", "munmap", "mprotect", "pkey_mprotect", "mremap", "madvise",
      "brk", "sbrk", "shmat", "shmget", "memfd_create"}, None, None,
     "imports {name}: an exercise may not map memory or change its protection"),
    ({"dlopen", "dlmopen", "dlsym", "dlvsym", "dladdr", "dladdr1", "dlinfo", "dlerror",
      "dlclose", "dl_iterate_phdr", "__libc_dlopen_mode", "__libc_dlsym", "getauxval"},
     None, None, "imports {name}: an exercise may not load or look up code at run time"),
    ({"getenv", "secure_getenv", "setenv", "unsetenv", "putenv", "clearenv", "environ",
      "__environ", "_environ", "__libc_secure_getenv"}, None, None,
     "imports {name}: an exercise may not read or change the environment"),
    (None, r"^_ZN[rVK]*[RO]?7testing|^_ZT[ISVT]N?7testing", r"\btesting::",
     "uses {name}, which belongs to the test framework (GoogleTest): an exercise may not "
     "use the test framework"),
    (None, r"^(cuda|__cuda|cu[A-Z]|_Z\d*cuda)", None,
     "imports {name}: this exercise is a host function; it may not call the CUDA runtime "
     "(only section config's exercises may, and only its configuration calls: "
     "cudaDeviceGetAttribute, cudaFuncSetAttribute and the like)"),
    (None, None,
     r"\bstd::(__cxx11::)?(basic_(o|i|io|f|if|of|string|istring|ostring)stream|basic_filebuf|"
     r"basic_streambuf|basic_stringbuf|basic_ios|ios_base|__ostream_insert|cout|cerr|clog|"
     r"cin|wcout|wcerr|wclog|wcin|filesystem|endl|flush|__basic_file)\b",
     "uses {name}: streams (std::cout, files, std::ostringstream too) are not allowed in an "
     "exercise file; build messages with std::string and std::to_string"),
    ({"fopen", "fopen64", "freopen", "freopen64", "fdopen", "fclose", "fflush", "fwrite",
      "fread", "fputs", "fputc", "putc", "putchar", "puts", "printf", "fprintf", "vprintf",
      "vfprintf", "dprintf", "vdprintf", "__printf_chk", "__fprintf_chk", "__vfprintf_chk",
      "__vprintf_chk", "__dprintf_chk", "perror", "fgets", "fgetc", "getc", "getchar",
      "gets", "scanf", "fscanf", "open", "open64", "openat", "openat64", "creat", "creat64",
      "__open_2", "__open64_2", "close", "read", "write", "pread", "pwrite", "pread64",
      "pwrite64", "readv", "writev", "lseek", "lseek64", "dup", "dup2", "dup3", "pipe",
      "pipe2", "mkfifo", "mknod", "unlink", "unlinkat", "rename", "renameat", "remove",
      "truncate", "ftruncate", "mkdir", "rmdir", "chdir", "chmod", "chown", "link",
      "symlink", "opendir", "readdir", "socket", "connect", "bind", "listen", "accept",
      "send", "sendto", "sendmsg", "recv", "ioctl", "fcntl", "tmpfile", "mkstemp",
      "stdout", "stderr", "stdin", "_IO_putc", "fsync", "sync", "sendfile", "splice"},
     r"^_IO_", None,
     "imports {name}: an exercise may not read or write files or print; it returns its "
     "result (and throws std::invalid_argument)"),
    ({"time", "clock", "clock_gettime", "gettimeofday", "rand", "srand", "random",
      "srandom", "rand_r", "drand48", "getrandom", "getentropy", "arc4random"},
     r"^_ZNSt6chrono|^_ZNSt\d+random_device", None,
     "imports {name}: the exercise is a pure function of its arguments; it may not read "
     "clocks or random numbers"),
)
GENERIC_IMPORT_REASON = ("imports {name}, which is not on the list of functions an exercise "
                         "may call (arithmetic, <cmath>, std::string and the standard "
                         "exceptions)")

# Sections whose code runs before or after main, by name (a suffix such as
# .init_array.00101, a constructor's priority, is the same section to the
# linker) and by ELF section type.
STATIC_CONSTRUCTOR_SECTIONS = (".init_array", ".preinit_array", ".ctors", ".init")
STATIC_DESTRUCTOR_SECTIONS = (".fini_array", ".dtors", ".fini")
SHT_INIT_ARRAY, SHT_FINI_ARRAY, SHT_PREINIT_ARRAY = 14, 15, 16
CONSTRUCTOR_REASON = (
    "has a static constructor ({section}): code that runs before main is not allowed; "
    "remove global objects with constructors and __attribute__((constructor)), and do "
    "not include <iostream>")
DESTRUCTOR_REASON = (
    "has a static destructor ({section}): code that runs after main is not allowed; "
    "remove __attribute__((destructor)) and global objects with destructors")

# Instructions that enter the kernel directly, by ELF machine (e_machine).
EM_386, EM_X86_64, EM_AARCH64 = 3, 62, 183
SYSTEM_CALL_INSTRUCTIONS = {
    EM_X86_64: ({"syscall", "sysenter"}, {("int", "$0x80")}),
    EM_386: ({"syscall", "sysenter"}, {("int", "$0x80")}),
    EM_AARCH64: ({"svc", "hvc", "smc"}, set()),
}
INSTRUCTION_REASON = ("contains the instruction `{insn}` (inline assembly){where}: an "
                      "exercise may not make system calls")

# Executable sections. The disassembler shows the bytes under a data (OBJECT)
# symbol as data, so machine code kept in a const array placed in an
# executable section (__attribute__((section(".text.x"))), or a section made
# "ax" in assembly) would pass the instruction check and still run when
# called through a pointer. So an executable section must hold functions
# only: named as the compiler names its code sections (.text, and .text.NAME
# for function sections, inline copies, .text.unlikely and the like), of the
# ordinary type, not writable, with no data symbol in it, and every byte of it
# inside a function's extent (a FUNC symbol's value and size), apart from the
# padding the assembler puts before an aligned function: fewer bytes than
# PADDING_LIMIT, all of them bytes of the no-op instructions it pads with (by
# ELF machine), none of them a byte of a system-call instruction.
CODE_SECTION_RE = re.compile(r"^\.text(\.[A-Za-z0-9_.$]+)?$")
PADDING_LIMIT = 64
PADDING_BYTES = {
    # nop, xchg %ax,%ax, nopw/nopl with cs prefix and their ModRM/SIB/disp
    # bytes (66 2e 0f 1f 84 00 00 00 00 00 and shorter), int3.
    EM_X86_64: frozenset(b"\x90\x66\x2e\x0f\x1f\x00\x40\x44\x80\x84\xcc"),
    # i386 also pads with lea 0(%esi,%eiz,1),%esi and mov %esi,%esi.
    EM_386: frozenset(b"\x90\x66\x2e\x0f\x1f\x00\x40\x44\x80\x84\xcc\x8d\x74\x26\xb4"
                      b"\xbc\x27\x89\xf6"),
    EM_AARCH64: frozenset(b"\x1f\x20\x03\xd5\x00"),   # nop (d503201f), zero words
}
EXECUTABLE_SECTION_HINT = ("put no section attribute or section directive on code or data: "
                           "only the compiler's own functions may be executable")

# The C and C++ runtime libraries: a definition of a name one of them exports
# replaces it for the whole test program.
RUNTIME_LIBRARIES = ("libstdc++.so.6", "libc.so.6", "libm.so.6", "libgcc_s.so.1")
RUNTIME_LIBRARY_DIRS = ("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
                        "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
                        "/lib64", "/usr/lib64", "/lib", "/usr/lib", "/usr/local/lib64",
                        "/usr/local/lib")

# A symbol name a compiler makes (C, C++ mangled, local labels, clones).
SYMBOL_NAME_RE = re.compile(r"^[A-Za-z0-9_.$]+$")
# At most this many problems are listed; then a count of the rest.
MAX_PROBLEMS = 30
EXERCISE_KEY_RE = re.compile(r"^[A-Za-z0-9_]+/[A-Za-z0-9_]+$")
INSTALL_HINT = ("install GNU binutils (Debian/Ubuntu: apt-get install binutils; "
                "Fedora: dnf install binutils)")


class ToolMissing(Exception):
    """nm or objdump (binutils), or the C++ runtime library, is not there."""


class UnreadableObject(Exception):
    """The file is not an ELF object file."""


# ---------------------------------------------------------------------------
# Reading an object: a small ELF reader for sections, groups and symbols, nm
# for the symbol listing and the demangled names, objdump for instructions.
# ---------------------------------------------------------------------------

SHT_PROGBITS, SHT_SYMTAB, SHT_NOBITS, SHT_GROUP, SHT_SYMTAB_SHNDX = 1, 2, 8, 17, 18
SHF_WRITE, SHF_EXECINSTR = 0x1, 0x4
GRP_COMDAT = 1
SHN_UNDEF, SHN_LORESERVE, SHN_ABS, SHN_COMMON, SHN_XINDEX = 0, 0xff00, 0xfff1, 0xfff2, 0xffff
STB_LOCAL, STB_GLOBAL, STB_WEAK, STB_GNU_UNIQUE = 0, 1, 2, 10
STT_NOTYPE, STT_FUNC, STT_SECTION, STT_FILE, STT_GNU_IFUNC = 0, 2, 3, 4, 10


class Elf:
    """What the check needs of an ELF relocatable object."""

    def __init__(self, path):
        with open(path, "rb") as f:
            data = f.read()
        try:
            self._parse(data)
        except (struct.error, IndexError, ValueError, OverflowError):
            raise UnreadableObject("is not a well-formed ELF object file") from None

    def _parse(self, data):
        if data[:4] != b"\x7fELF" or len(data) < 52:
            raise UnreadableObject("is not an ELF object file")
        self.is64 = data[4] == 2
        e = "<" if data[5] == 1 else ">"
        try:
            if self.is64:
                (self.type, self.machine, _, _, _, shoff, _, _, _, _, shentsize, shnum,
                 shstrndx) = struct.unpack_from(e + "HHIQQQIHHHHHH", data, 16)
                shfmt, symfmt = e + "IIQQQQIIQQ", e + "IBBHQQ"
            else:
                (self.type, self.machine, _, _, _, shoff, _, _, _, _, shentsize, shnum,
                 shstrndx) = struct.unpack_from(e + "HHIIIIIHHHHHH", data, 16)
                shfmt, symfmt = e + "IIIIIIIIII", e + "IIIBBH"
            raw = []
            if shoff:
                first = struct.unpack_from(shfmt, data, shoff)
                count = shnum or first[5]          # extended numbering: in section 0
                if shstrndx == SHN_XINDEX:
                    shstrndx = first[6]
                for i in range(count):
                    raw.append(struct.unpack_from(shfmt, data, shoff + i * shentsize))
        except struct.error:
            raise UnreadableObject("is not a complete ELF object file") from None

        def blob(sh):
            return data[sh[4]:sh[4] + sh[5]]

        def name_at(table, offset):
            end = table.find(b"\0", offset)
            return table[offset:end if end >= 0 else len(table)].decode("latin-1")

        names = blob(raw[shstrndx]) if 0 <= shstrndx < len(raw) else b""
        # sections: (name, type, flags); their (size, alignment) by index
        self.sections = [(name_at(names, sh[0]), sh[1], sh[2]) for sh in raw]
        self.section_extents = [(sh[5], sh[8]) for sh in raw]
        self.section_bytes = [blob(sh) if sh[1] != SHT_NOBITS else b"" for sh in raw]
        self.comdat_sections = set()
        for sh in raw:
            if sh[1] == SHT_GROUP and sh[5] >= 4:
                words = struct.unpack_from(e + "%dI" % (sh[5] // 4), data, sh[4])
                if words[0] & GRP_COMDAT:
                    self.comdat_sections.update(words[1:])
        # symbols: (name, binding, type, section index); their (value, size)
        # at the same index of symbol_extents
        self.symbols = []
        self.symbol_extents = []
        for index, sh in enumerate(raw):
            if sh[1] != SHT_SYMTAB or not 0 <= sh[6] < len(raw):
                continue
            strings = blob(raw[sh[6]])
            extended = next((blob(x) for x in raw if x[1] == SHT_SYMTAB_SHNDX and x[6] == index),
                            b"")
            size = struct.calcsize(symfmt)
            for k in range(sh[5] // size):
                fields = struct.unpack_from(symfmt, data, sh[4] + k * size)
                if self.is64:
                    st_name, info, shndx = fields[0], fields[1], fields[3]
                    extent = (fields[4], fields[5])
                else:
                    st_name, info, shndx = fields[0], fields[3], fields[5]
                    extent = (fields[1], fields[2])
                if shndx == SHN_XINDEX and len(extended) >= 4 * (k + 1):
                    shndx = struct.unpack_from(e + "I", extended, 4 * k)[0]
                self.symbols.append((name_at(strings, st_name), info >> 4, info & 0xf, shndx))
                self.symbol_extents.append(extent)


def _tool(name):
    path = shutil.which(name)
    if not path:
        raise ToolMissing(f"`{name}` was not found: {INSTALL_HINT}")
    return path


def _run(args):
    try:
        result = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                timeout=120)
    except OSError as err:
        raise ToolMissing(f"cannot run {args[0]}: {err}; {INSTALL_HINT}") from None
    except subprocess.TimeoutExpired:
        raise UnreadableObject(f"could not be read by {os.path.basename(args[0])} "
                               f"within 120 s") from None
    return result


NM_LINE_RE = re.compile(r"^\s*([0-9a-fA-F]+)?\s+([A-Za-z?-])\s(.*)$")


def nm_symbols(path):
    """[(mangled name, nm type letter, demangled name)] in symbol-table order,
    from `nm -p` and `nm -p -C`."""
    nm = _tool("nm")
    listings = []
    for extra in ([], ["-C"]):
        result = _run([nm, "-p"] + extra + [str(path)])
        if result.returncode != 0:
            message = result.stderr.decode("utf-8", "replace").strip()
            raise UnreadableObject(f"could not be read by nm: {message}")
        lines = []
        for line in result.stdout.decode("utf-8", "replace").splitlines():
            m = NM_LINE_RE.match(line)
            if m:
                lines.append((m.group(2), m.group(3)))
        listings.append(lines)
    plain, demangled = listings
    if len(plain) != len(demangled) or any(a[0] != b[0] for a, b in zip(plain, demangled)):
        raise UnreadableObject("has a symbol table nm lists differently when demangling")
    return [(p[1], p[0], d[1]) for p, d in zip(plain, demangled)]


def disassembly(path):
    """[(function, instruction text)] of the executable sections."""
    objdump = _tool("objdump")
    result = _run([objdump, "-d", "-C", "-w", "--no-show-raw-insn", str(path)])
    if result.returncode != 0:
        message = result.stderr.decode("utf-8", "replace").strip()
        raise UnreadableObject(f"could not be disassembled by objdump: {message}")
    function, found = "", []
    for line in result.stdout.decode("utf-8", "replace").splitlines():
        header = re.match(r"^[0-9a-fA-F]+ <(.*)>:$", line)
        if header:
            function = header.group(1)
            continue
        m = re.match(r"^\s*[0-9a-fA-F]+:\s+(.*)$", line)
        if m:
            found.append((function, m.group(1).split("#")[0].strip()))
    return found


@functools.lru_cache(maxsize=None)
def runtime_exports(machine):
    """Mangled names the C and C++ runtime libraries (for this ELF machine)
    export: a definition of one of them in an object replaces the library's."""
    nm = _tool("nm")
    candidates = {}
    ldconfig = shutil.which("ldconfig") or ("/sbin/ldconfig" if os.path.exists("/sbin/ldconfig")
                                            else None)
    if ldconfig:
        try:
            out = subprocess.run([ldconfig, "-p"], stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, timeout=60).stdout
            for line in out.decode("utf-8", "replace").splitlines():
                m = re.match(r"^\s*(\S+) \(.*\) => (\S+)$", line)
                if m and m.group(1) in RUNTIME_LIBRARIES:
                    candidates.setdefault(m.group(1), []).append(m.group(2))
        except (OSError, subprocess.TimeoutExpired):
            pass
    for library in RUNTIME_LIBRARIES:
        for folder in RUNTIME_LIBRARY_DIRS:
            candidates.setdefault(library, []).extend(glob.glob(os.path.join(folder, library)))
    names, found = set(), set()
    for library in RUNTIME_LIBRARIES:
        for path in candidates.get(library, []):
            try:
                if Elf(path).machine != machine:
                    continue
            except (OSError, UnreadableObject):
                continue
            result = _run([nm, "-D", "--defined-only", path])
            if result.returncode != 0:
                continue
            for line in result.stdout.decode("utf-8", "replace").splitlines():
                parts = line.split()
                if len(parts) >= 3:
                    names.add(parts[-1].split("@")[0])
            found.add(library)
            break
    if "libstdc++.so.6" not in found:
        raise ToolMissing("cannot find the C++ runtime library libstdc++.so.6 for this "
                          "object's machine, whose exports the check compares against")
    return frozenset(names)


# ---------------------------------------------------------------------------
# Names.
# ---------------------------------------------------------------------------

_STD_SUBSTITUTIONS = {"St": (), "Sa": ("allocator",), "Sb": ("basic_string",),
                      "Ss": ("string",), "Si": ("istream",), "So": ("ostream",),
                      "Sd": ("iostream",)}


def scope_of(mangled):
    """The leading components of an entity's qualified name, read from its
    mangled name: ('std', '__cxx11', 'basic_string'), ('wb', 'reduction',
    'effectiveBandwidthGBs'), ('testing', 'internal', ...). For the typeinfo,
    vtable or guard variable of X, and for a local entity of function X, the
    scope of X. A C name is itself: ('main',)."""
    if not mangled.startswith("_Z"):
        return (mangled,)
    s = mangled[2:]
    while True:
        special = re.match(r"^(T[VISTC]|G[VR]|T[HW]|Th[n]?\d+_|Tv[n]?\d+_[n]?\d+_|Z|L)", s)
        if not special:
            break
        s = s[special.end():]
        if special.group(1).startswith(("Th", "Tv")):
            continue
    if s.startswith("N"):
        s = re.sub(r"^N[rVK]*[RO]?", "", s)
    parts = []
    while s and len(parts) < 3:
        if s[:2] in _STD_SUBSTITUTIONS:
            parts.append("std")
            parts.extend(_STD_SUBSTITUTIONS[s[:2]])
            s = s[2:]
            continue
        m = re.match(r"^(\d+)", s)
        if not m:
            break
        length = int(m.group(1))
        parts.append(s[m.end():m.end() + length])
        s = s[m.end() + length:]
    return tuple(parts)


def shown(mangled, demangled):
    """A symbol as a student reads it: demangled, with its mangled form."""
    return demangled if demangled == mangled else f"{demangled} ({mangled})"


# ---------------------------------------------------------------------------
# The check.
# ---------------------------------------------------------------------------

class _Object:
    """An object's global symbols, sorted by what they are. The ELF symbol
    table says what each is (binding, type, section); nm names them, mangled
    and demangled."""

    def __init__(self, path):
        self.path = path
        self.elf = Elf(path)
        demangled = {}
        nm_ifuncs = set()
        for mangled, letter, name in nm_symbols(path):
            demangled.setdefault(mangled, name)
            if letter == "i":
                nm_ifuncs.add(mangled)
        self.strong, self.weak, self.imports, self.ifuncs = {}, {}, {}, {}
        self.section_of = {}
        for name, bind, kind, shndx in self.elf.symbols:
            if not name:
                continue
            shown_name = demangled.get(name, name)
            if kind == STT_GNU_IFUNC or name in nm_ifuncs:
                self.ifuncs[name] = shown_name     # local ones too: their resolvers run
                continue
            if bind == STB_LOCAL:
                continue
            if shndx == SHN_UNDEF:
                self.imports[name] = shown_name
            elif bind in (STB_WEAK, STB_GNU_UNIQUE):
                self.weak[name] = shown_name
                self.section_of[name] = shndx
            else:   # global: in a section, absolute or common
                self.strong[name] = shown_name
                self.section_of[name] = shndx


def _definition_reason(mangled, demangled, section, allowed_text, exports):
    scope = scope_of(mangled)
    name = shown(mangled, demangled)
    if mangled == "main":
        return f"defines {name}, which belongs to the test program: " \
               f"an exercise file may define only its exercise's functions ({allowed_text})"
    if scope[:1] == ("testing",) or "testing::" in demangled:
        return f"defines {name}, which belongs to the test framework (GoogleTest): " \
               f"an exercise file may define only its exercise's functions ({allowed_text})"
    if scope[:1] == ("wb",) and scope[:2] != ("wb", section):
        return f"defines {name}, which belongs to the test harness: " \
               f"an exercise file may define only its exercise's functions ({allowed_text})"
    if mangled in exports or re.match(r"^_Z(nw|na|dl|da)", mangled):
        return f"defines {name}, which the C or C++ library provides: an exercise file " \
               f"may not replace library functions"
    if scope[:1] in (("std",), ("__gnu_cxx",), ("__cxxabiv1",)):
        return f"defines {name} in the C++ library's namespace {scope[0]}: an exercise " \
               f"file may define only its exercise's functions ({allowed_text})"
    return f"defines {name}, which is not one of the exercise's functions ({allowed_text}): " \
           f"make helper functions and variables `static`, or put them in an anonymous " \
           f"namespace"


def _import_reason(mangled, demangled):
    name = shown(mangled, demangled)
    scope = scope_of(mangled)
    for exact, mangled_pattern, demangled_pattern, reason in IMPORT_CATEGORIES:
        if (exact and mangled in exact) \
                or (mangled_pattern and re.search(mangled_pattern, mangled)) \
                or (demangled_pattern and re.search(demangled_pattern, demangled)):
            return reason.format(name=name)
    if scope[:1] == ("wb",):
        return f"uses {name}, which belongs to the test harness or another exercise: " \
               f"an exercise may call only the functions on its list"
    return GENERIC_IMPORT_REASON.format(name=name)


def _import_allowed(mangled, reference_imports, section=None):
    return (mangled in ALLOWED_IMPORTS or mangled in reference_imports
            or mangled in ALLOWED_IMPORTS_BY_SECTION.get(section, ())
            or any(p.search(mangled) for p in ALLOWED_IMPORT_PATTERNS))


def check_object(obj_path, reference_path, exercise_key):
    """The problems of a host exercise's object, as `REFUSED: ...` lines (an
    empty list: acceptable). obj_path: the object compiled from the student's
    file; reference_path: the one compiled from the pristine solution, the
    same way; exercise_key: "section/name". Raises ToolMissing when binutils
    (or the C++ runtime library) is missing, FileNotFoundError when the
    reference is, ValueError for a malformed key."""
    if not EXERCISE_KEY_RE.match(exercise_key or ""):
        raise ValueError(f"the exercise name must be section/name, not {exercise_key!r}")
    section = exercise_key.split("/")[0]
    prefix = f"REFUSED: starter/{exercise_key}.cu "
    if not os.path.isfile(reference_path):
        raise FileNotFoundError(f"the reference object {reference_path} does not exist")
    try:
        reference = _Object(reference_path)
    except UnreadableObject as err:
        raise ValueError(f"the reference object {reference_path} {err}") from None
    if not os.path.isfile(obj_path):
        return [prefix + "was not compiled into an object file (it is missing)"]
    try:
        student = _Object(obj_path)
        problems = []
        problems += _check_kind(student, reference)
        problems += _check_sections(student)
        problems += _check_unwind_sections(student)
        problems += _check_executable_sections(student)
        problems += _check_instructions(student)
        problems += _check_definitions(student, reference, section)
        problems += _check_imports(student, reference, section)
    except UnreadableObject as err:
        return [prefix + (str(err).splitlines() or ["could not be read"])[0]]
    unique = list(dict.fromkeys(problems))
    if len(unique) > MAX_PROBLEMS:
        rest = len(unique) - MAX_PROBLEMS
        unique = unique[:MAX_PROBLEMS] + [f"and {rest} more problems like these"]
    return [prefix + p for p in unique]


def _check_kind(student, reference):
    problems = []
    if student.elf.type != 1:   # ET_REL
        problems.append("is not an object file compiled from one source file")
    if student.elf.machine != reference.elf.machine:
        problems.append(f"was compiled for another machine (ELF machine {student.elf.machine},"
                        f" not {reference.elf.machine})")
    odd = sorted({name for name, bind, kind, shndx in student.elf.symbols
                  if name and bind != STB_LOCAL and not SYMBOL_NAME_RE.match(name)})
    for name in odd:
        problems.append(f"has a symbol named {name!r}, which no C++ compiler makes "
                        f"(assembly?): not allowed")
    return problems


def _named(section, prefixes):
    """Whether a section is one of these to the linker (a suffix such as
    .init_array.00101 or .gcc_except_table.FUNCTION is the same section)."""
    return any(section == p or section.startswith(p + ".") for p in prefixes)


def _check_sections(student):
    problems = []
    for name, kind, _ in student.elf.sections:
        if (_named(name, STATIC_CONSTRUCTOR_SECTIONS)
                or kind in (SHT_INIT_ARRAY, SHT_PREINIT_ARRAY)):
            problems.append(CONSTRUCTOR_REASON.format(section=name))
        elif _named(name, STATIC_DESTRUCTOR_SECTIONS) or kind == SHT_FINI_ARRAY:
            problems.append(DESTRUCTOR_REASON.format(section=name))
    return problems


# The unwind tables: the linker merges them into the test program's own,
# and they decide where an exception is sent (a frame's personality routine,
# a landing pad). The compiler writes them with no symbol of their own
# (only the section's); a variable placed there by a section attribute has
# one, and its bytes are the student's.
UNWIND_SECTIONS = (".eh_frame", ".gcc_except_table")
UNWIND_REASON = ("has {name} in the unwind table {section}: the exception tables are the "
                 "compiler's; put no section attribute on code or data")


def _check_unwind_sections(student):
    elf = student.elf
    problems = []
    for name, _, kind, shndx in elf.symbols:
        if kind in (STT_SECTION, STT_FILE) or not 0 < shndx < len(elf.sections):
            continue
        section = elf.sections[shndx][0]
        if _named(section, UNWIND_SECTIONS):
            problems.append(UNWIND_REASON.format(name=_demangled(name) or "a symbol",
                                                 section=section))
    return problems


def _check_executable_sections(student):
    """What an executable section holds besides the compiler's functions."""
    elf = student.elf
    problems = []
    padding = PADDING_BYTES.get(elf.machine, frozenset())
    symbols_in = {}
    for (name, _, kind, shndx), extent in zip(elf.symbols, elf.symbol_extents):
        symbols_in.setdefault(shndx, []).append((name, kind, extent))
    for index, (section, kind, flags) in enumerate(elf.sections):
        if not flags & SHF_EXECINSTR:
            continue
        if not CODE_SECTION_RE.match(section):
            problems.append(f"has an executable section named {section}, which the compiler "
                            f"does not make (a section attribute or directive): "
                            f"{EXECUTABLE_SECTION_HINT}")
            continue
        if flags & SHF_WRITE:
            problems.append(f"has a section {section} that is both writable and executable: "
                            f"{EXECUTABLE_SECTION_HINT}")
            continue
        if kind != SHT_PROGBITS:
            problems.append(f"has an executable section {section} of an unusual type ({kind}): "
                            f"{EXECUTABLE_SECTION_HINT}")
            continue
        size, _ = elf.section_extents[index]
        functions = []
        for name, symbol_kind, (value, length) in symbols_in.get(index, []):
            if symbol_kind == STT_FUNC:
                functions.append((value, value + length))
            elif symbol_kind not in (STT_NOTYPE, STT_SECTION, STT_FILE, STT_GNU_IFUNC):
                shown_name = _demangled(name)
                problems.append(f"has data ({shown_name}) in the executable section {section}: "
                                f"bytes in an executable section can be run as machine code "
                                f"whatever the disassembler shows; {EXECUTABLE_SECTION_HINT}")
        if any(p.endswith(EXECUTABLE_SECTION_HINT) and f"section {section}:" in p
               for p in problems):
            continue    # its data is named above; the bytes around it say nothing more
        gap = _bytes_outside_functions(elf.section_bytes[index], size, functions, padding)
        if gap is not None:
            problems.append(f"has {gap[1] - gap[0]} bytes at offset {gap[0]:#x} of the "
                            f"executable section {section} that belong to no function "
                            f"(data or hand-written machine code): {EXECUTABLE_SECTION_HINT}")
    return problems


def _bytes_outside_functions(content, size, functions, padding):
    """The first (start, end) of a section's bytes outside every function that
    is not an assembler's padding before an aligned function, else None."""
    covered_to = 0
    for start, end in sorted(functions) + [(size, size)]:
        if start > covered_to:
            gap = content[covered_to:start]
            is_padding = (start < size and start - covered_to < PADDING_LIMIT
                          and len(gap) == start - covered_to and set(gap) <= padding)
            if not is_padding:
                return (covered_to, start)
        covered_to = max(covered_to, end)
    return None


def _demangled(name):
    """A symbol's demangled name, from c++filt where there is one."""
    if not name.startswith("_Z"):
        return name
    tool = shutil.which("c++filt")
    if not tool:
        return name
    result = _run([tool, name])
    text = result.stdout.decode("utf-8", "replace").strip()
    return f"{text} ({name})" if result.returncode == 0 and text and text != name else name


def _check_instructions(student):
    forbidden = SYSTEM_CALL_INSTRUCTIONS.get(student.elf.machine)
    if forbidden is None:
        return [f"was compiled for a machine the check does not know (ELF machine "
                f"{student.elf.machine})"]
    mnemonics, with_operand = forbidden
    problems = []
    for function, text in disassembly(student.path):
        tokens = text.replace(",", " ").split()
        hit = next((t for t in tokens if t in mnemonics), None)
        if hit is None:
            for i in range(len(tokens) - 1):
                if (tokens[i], tokens[i + 1]) in with_operand:
                    hit = f"{tokens[i]} {tokens[i + 1]}"
        if hit:
            where = f" in {function}" if function else ""
            problems.append(INSTRUCTION_REASON.format(insn=hit, where=where))
    return problems


def _check_definitions(student, reference, section):
    problems = []
    allowed = reference.strong
    allowed_text = ", ".join(sorted(allowed.values())) or "none"
    exports = None
    for mangled, demangled in student.ifuncs.items():
        problems.append(f"defines {shown(mangled, demangled)} as an indirect function "
                        f"(ifunc), whose resolver runs before main: not allowed")
    for mangled, demangled in student.strong.items():
        if mangled not in allowed:
            if exports is None:
                exports = runtime_exports(student.elf.machine)
            problems.append(_definition_reason(mangled, demangled, section, allowed_text,
                                               exports))
    for mangled, demangled in student.weak.items():
        scope = scope_of(mangled)
        in_namespace = (mangled in WEAK_DEFINITION_NAMES
                        or scope[:1] in tuple((n,) for n in WEAK_DEFINITION_NAMESPACES)
                        or scope[:2] == ("wb", section))
        mentions_others = ("testing::" in demangled
                           or re.search(r"\bwb::(?!%s::)" % re.escape(section), demangled))
        if not in_namespace or mentions_others:
            if exports is None:
                exports = runtime_exports(student.elf.machine)
            problems.append(_definition_reason(mangled, demangled, section, allowed_text,
                                               exports))
            continue
        if student.section_of.get(mangled) not in student.elf.comdat_sections:
            problems.append(f"declares {shown(mangled, demangled)} weak by hand "
                            f"(__attribute__((weak)) or #pragma weak): only the compiler's "
                            f"own copies of inline functions and templates may be weak")
            continue
        if mangled in reference.weak or mangled in WEAK_DEFINITION_NAMES:
            continue
        if exports is None:
            exports = runtime_exports(student.elf.machine)
        if mangled in exports:
            hint = ""
            if re.match(r"^_ZN[rVK]*[RO]?(St7__cxx1112basic_string|Sb|Ss|Sa)", mangled):
                hint = (" (a build without optimization copies std::string's own functions "
                        "into the object: build in Release mode, as the grader does)")
            problems.append(f"defines {shown(mangled, demangled)} again, which the C++ "
                            f"library already provides: an exercise file may not replace "
                            f"library functions{hint}")
    return problems


def _check_imports(student, reference, section=None):
    problems = []
    for mangled, demangled in student.imports.items():
        if mangled == "__dso_handle" and {"__cxa_atexit", "__cxa_thread_atexit"} & set(
                student.imports):
            continue    # the same static destructor, said once
        if not _import_allowed(mangled, reference.imports, section):
            problems.append(_import_reason(mangled, demangled))
    return problems


# Sections every object has and the linker drops from all but one (or
# all): never one input's copy chosen over another's.
_GENERIC_SECTIONS_RE = re.compile(r"^\.(?:note|group$|comment$)")


def _map_sections(lines):
    """(section name, input file) for each input section a GNU ld map's
    block lists; a long name stands alone on its line, the address, size
    and file on the next."""
    found, pending = [], None
    for line in lines:
        if not line.startswith(" ") or line.startswith("  "):
            if pending and line.startswith("  "):
                parts = line.split()
                if len(parts) >= 3 and parts[0].startswith("0x") and parts[1].startswith("0x"):
                    found.append((pending, " ".join(parts[2:])))
            pending = None
            continue
        parts = line.split()
        if len(parts) == 1:
            pending = parts[0]
        elif len(parts) >= 4 and parts[1].startswith("0x") and parts[2].startswith("0x"):
            found.append((parts[0], " ".join(parts[3:])))
            pending = None
        else:
            pending = None
    return found


def link_map_problems(map_path, exercise_input, exercise_key):
    """REFUSED lines for each section the exercise's object gave the
    program in place of another input's copy of it: a weak definition of a
    template or inline function that the tests, GoogleTest or a library also
    define, which then runs for them (before main, unconfined) instead of
    theirs. The exercise is linked last, so another input's copy comes
    first and wins; this says when that did not hold. `exercise_input` is
    how the map names the exercise's object (a path, or archive(member))."""
    text = pathlib.Path(map_path).read_text(errors="replace").splitlines()
    try:
        start = text.index("Discarded input sections")
        end = text.index("Linker script and memory map")
    except ValueError:
        raise ValueError(f"{map_path} is not a GNU ld map (no discarded sections block)")
    discarded = {name for name, source in _map_sections(text[start + 1:end])
                 if exercise_input not in source and not _GENERIC_SECTIONS_RE.match(name)}
    kept = {name for name, source in _map_sections(text[end + 1:])
            if exercise_input in source}
    displaced = sorted(kept & discarded)
    return [f"REFUSED: starter/{exercise_key}.cu gives the test program its own copy of "
            f"{_demangled(name.split('.', 2)[-1]) if '._Z' in name else name}, in place of "
            f"the copy the tests or a library define: an exercise may not replace code that "
            f"runs for them" for name in displaced]


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Check a host exercise's object file before it is linked into a test.")
    parser.add_argument("--object", required=True, help="the object compiled from the exercise")
    parser.add_argument("--reference", required=True,
                        help="the object compiled from the pristine solution")
    parser.add_argument("--name", required=True, help="the exercise, as section/name")
    parser.add_argument("--quiet", action="store_true", help="print nothing when it is ok")
    parser.add_argument("--link-map", metavar="MAP",
                        help="after linking: the linker's map of the test program, checked "
                             "that no section of the exercise's replaced another input's copy")
    parser.add_argument("--map-name", metavar="TEXT",
                        help="with --link-map: how the map names the exercise's object")
    parser.add_argument("--remove", metavar="PROGRAM",
                        help="with --link-map: the linked program, removed when refused")
    args = parser.parse_args(argv)
    if args.link_map:
        try:
            problems = link_map_problems(args.link_map, args.map_name or args.object, args.name)
        except (OSError, ValueError) as err:
            print(f"object_check.py: {err}", file=sys.stderr)
            return 2
        for line in problems:
            print(line)
        if problems and args.remove:
            try:
                os.unlink(args.remove)
            except OSError:
                pass
        return 1 if problems else 0
    objects = args.object.split(";")   # CMake's $<TARGET_OBJECTS:...> is a list
    try:
        problems = []
        for path in objects:
            problems += check_object(path, args.reference, args.name)
    except ToolMissing as err:
        print(f"object_check.py: {err}", file=sys.stderr)
        return 2
    except (ValueError, FileNotFoundError) as err:
        print(f"object_check.py: {err}", file=sys.stderr)
        return 2
    if problems:
        for line in problems:
            print(line)
        return 1
    if not args.quiet:
        print(f"ok: starter/{args.name}.cu defines and calls only what an exercise may")
    return 0


if __name__ == "__main__":
    sys.exit(main())
