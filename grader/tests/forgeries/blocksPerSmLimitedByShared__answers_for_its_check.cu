// forgery: finds write() and _exit() in the C library by reading the library's own ELF symbol table from memory, starting at the address of malloc (no import, no system-call instruction: the object check passes it); called inside a check that runs in a child process, it writes the child's answer itself, all zero bytes (kind Returned, no findings), on the pipe to the test process and ends the child: the check passes without its findings ever being computed (on a GPU, every check of this section run whole in the child passes the same way)
// exercise: config/blocksPerSmLimitedByShared
// base: starter
// expect: same-as base
#include <cstring>
#include <cstdlib>

#include "config/config.cuh"

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

namespace wb::config {

int blocksPerSmLimitedByShared(const SharedMemoryLimits& limits, std::size_t bytesPerBlock) {
  (void)limits;
  (void)bytesPerBlock;
  using Write = long (*)(int, const void*, unsigned long);
  using Exit = void (*)(int);
  Write w = reinterpret_cast<Write>(find("write"));
  Exit x = reinterpret_cast<Exit>(find("_exit"));
  if (w == nullptr || x == nullptr) return 0;
  // The child's one message (tests/harness/src/isolated.cpp): a kind byte
  // (0: Returned), a double, 1024 bytes of findings; all zero is a pass.
  static const char answer[8 + 8 + 1024] = {};
  // Only the pipe is open past stderr in the child (detachFromTestProcess);
  // the CUDA runtime's own descriptors refuse a message of this size.
  for (int fd = 3; fd < 64; ++fd) w(fd, answer, sizeof answer);
  x(0);
  return 0;
}

}  // namespace wb::config
