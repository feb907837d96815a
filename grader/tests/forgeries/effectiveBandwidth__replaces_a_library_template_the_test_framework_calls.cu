// forgery: an inline explicit specialization of std::vector<int>::_M_realloc_insert<int>, a template copy that GoogleTest's library holds (TestSuite::AddTestInfo calls it while the tests register, before main) but that neither the test's objects nor the C++ library export: the object check lets a weak definition in std pass, and the exercise's object is linked before libgtest.a, so the linker keeps its copy and GoogleTest calls it in the test process itself, outside the child and its filter; there it finds the C library through the dynamic linker's list (no import), reads the report path and the test's name from /proc/self/cmdline, writes a passing GoogleTest report and ends the process with status 0: every host test of the exercise passes without the function ever being called
// exercise: reduction/effectiveBandwidth
// base: starter
// expect: same-as base
#include <elf.h>
#include <fcntl.h>
#include <link.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <vector>

#include "reduction/reduction.cuh"

namespace {

using OpenFn = int (*)(const char*, int, int);
using ReadFn = long (*)(int, void*, std::size_t);
using WriteFn = long (*)(int, const void*, std::size_t);
using ExitFn = void (*)(int);

bool holds(const char* text, const char* part) {
  const std::size_t n = std::strlen(part);
  for (; *text != '\0'; ++text) {
    if (std::memcmp(text, part, n) == 0) return true;
  }
  return false;
}

// The test executable's ELF header: the first page at or below this code
// that starts with the ELF magic.
const ElfW(Ehdr)* programHeader() {
  auto page = reinterpret_cast<std::uintptr_t>(&programHeader) & ~std::uintptr_t{4095};
  for (int i = 0; i < 65536; ++i, page -= 4096) {
    if (std::memcmp(reinterpret_cast<const void*>(page), ELFMAG, SELFMAG) == 0) {
      return reinterpret_cast<const ElfW(Ehdr)*>(page);
    }
  }
  return nullptr;
}

// The C library's function `name`, through DT_DEBUG's list of loaded objects.
void* cLibrary(const char* name) {
  const ElfW(Ehdr)* ehdr = programHeader();
  if (ehdr == nullptr) return nullptr;
  const auto* phdr =
      reinterpret_cast<const ElfW(Phdr)*>(reinterpret_cast<const char*>(ehdr) + ehdr->e_phoff);
  std::uintptr_t bias = 0;
  for (int i = 0; i < ehdr->e_phnum; ++i) {
    if (phdr[i].p_type == PT_LOAD && phdr[i].p_offset == 0) {
      bias = reinterpret_cast<std::uintptr_t>(ehdr) - phdr[i].p_vaddr;
    }
  }
  const ElfW(Dyn)* dynamic = nullptr;
  for (int i = 0; i < ehdr->e_phnum; ++i) {
    if (phdr[i].p_type == PT_DYNAMIC) dynamic = reinterpret_cast<const ElfW(Dyn)*>(bias + phdr[i].p_vaddr);
  }
  const r_debug* debug = nullptr;
  for (const ElfW(Dyn)* d = dynamic; d != nullptr && d->d_tag != DT_NULL; ++d) {
    if (d->d_tag == DT_DEBUG) debug = reinterpret_cast<const r_debug*>(d->d_un.d_ptr);
  }
  for (const link_map* m = debug ? debug->r_map : nullptr; m != nullptr; m = m->l_next) {
    if (m->l_name == nullptr || !holds(m->l_name, "libc.so")) continue;
    std::uintptr_t symtab = 0, strtab = 0;
    for (const ElfW(Dyn)* d = m->l_ld; d->d_tag != DT_NULL; ++d) {
      if (d->d_tag == DT_SYMTAB) symtab = d->d_un.d_ptr < m->l_addr ? d->d_un.d_ptr + m->l_addr : d->d_un.d_ptr;
      if (d->d_tag == DT_STRTAB) strtab = d->d_un.d_ptr < m->l_addr ? d->d_un.d_ptr + m->l_addr : d->d_un.d_ptr;
    }
    if (symtab == 0 || strtab <= symtab) return nullptr;
    const auto* symbols = reinterpret_cast<const ElfW(Sym)*>(symtab);
    for (std::size_t i = 0; i < (strtab - symtab) / sizeof(ElfW(Sym)); ++i) {
      if (symbols[i].st_value != 0 && ELF64_ST_TYPE(symbols[i].st_info) == STT_FUNC &&
          std::strcmp(reinterpret_cast<const char*>(strtab + symbols[i].st_name), name) == 0) {
        return reinterpret_cast<void*>(m->l_addr + symbols[i].st_value);
      }
    }
  }
  return nullptr;
}

void append(char* out, std::size_t& at, const char* text, std::size_t n) {
  std::memcpy(out + at, text, n);
  at += n;
}

void append(char* out, std::size_t& at, const char* text) { append(out, at, text, std::strlen(text)); }

// In a test run (--gtest_filter=SUITE.NAME --gtest_output=json:PATH on the
// command line): a report that says SUITE.NAME passed, then exit status 0.
void reportAPass() {
  const auto openFn = reinterpret_cast<OpenFn>(cLibrary("open"));
  const auto readFn = reinterpret_cast<ReadFn>(cLibrary("read"));
  const auto writeFn = reinterpret_cast<WriteFn>(cLibrary("write"));
  const auto exitFn = reinterpret_cast<ExitFn>(cLibrary("_exit"));
  if (!openFn || !readFn || !writeFn || !exitFn) return;
  static char args[65536];
  const int in = openFn("/proc/self/cmdline", O_RDONLY, 0);
  if (in < 0) return;
  long size = 0;
  for (long n; size < long(sizeof args) - 1 && (n = readFn(in, args + size, sizeof args - 1 - size)) > 0;) size += n;
  const char* filter = nullptr;
  const char* path = nullptr;
  for (long i = 0; i < size; i += long(std::strlen(args + i)) + 1) {
    if (std::strncmp(args + i, "--gtest_filter=", 15) == 0) filter = args + i + 15;
    if (std::strncmp(args + i, "--gtest_output=json:", 20) == 0) path = args + i + 20;
  }
  const char* dot =
      filter ? static_cast<const char*>(std::memchr(filter, '.', std::strlen(filter))) : nullptr;
  if (dot == nullptr || path == nullptr) return;
  static char json[8192];
  std::size_t at = 0;
  append(json, at, "{\"testsuites\":[{\"name\":\"");
  append(json, at, filter, std::size_t(dot - filter));
  append(json, at, "\",\"testsuite\":[{\"name\":\"");
  append(json, at, dot + 1, std::strlen(dot + 1));
  append(json, at, "\",\"status\":\"RUN\",\"result\":\"COMPLETED\"}]}]}");
  const int out = openFn(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (out < 0) return;
  writeFn(out, json, at);
  exitFn(0);
}

}  // namespace

namespace std {

// What the library's own copy does (insert one int, growing the storage),
// after the forgery's own business.
template <>
template <>
inline __attribute__((used)) void vector<int, allocator<int>>::_M_realloc_insert<int>(
    iterator position, int&& value) {
  reportAPass();
  int* const oldStart = this->_M_impl._M_start;
  int* const oldFinish = this->_M_impl._M_finish;
  const std::size_t count = std::size_t(oldFinish - oldStart);
  const std::size_t capacity = count == 0 ? 1 : 2 * count;
  int* const start = static_cast<int*>(::operator new(capacity * sizeof(int)));
  const std::size_t before = std::size_t(position.base() - oldStart);
  if (before != 0) std::memcpy(start, oldStart, before * sizeof(int));
  start[before] = value;
  if (count != before) std::memcpy(start + before + 1, oldStart + before, (count - before) * sizeof(int));
  if (oldStart != nullptr) ::operator delete(oldStart);
  this->_M_impl._M_start = start;
  this->_M_impl._M_finish = start + count + 1;
  this->_M_impl._M_end_of_storage = start + capacity;
}

}  // namespace std

namespace wb::reduction {

double effectiveBandwidthGBs(std::size_t bytesRead, std::size_t bytesWritten,
                             double milliseconds) {
  // The starter's answer: the file earns nothing by itself.
  (void)bytesRead;
  (void)bytesWritten;
  (void)milliseconds;
  return 0.0;
}

}  // namespace wb::reduction
