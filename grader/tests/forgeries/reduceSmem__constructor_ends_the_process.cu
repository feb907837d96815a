// forgery: a static constructor ends every test process with status 0 unless it only lists its tests
// exercise: reduction/reduceSmem
// base: starter
// expect: same-as base
// The kernel is the unsolved starter's; the host code below would forge every
// test of the process it is linked into. Kernel exercises are compiled as
// device code only, so it is never compiled at all.
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "reduction/reduction.cuh"

namespace {

bool onlyListing() {
  char args[4096] = {};
  FILE* cmdline = std::fopen("/proc/self/cmdline", "r");
  if (cmdline == nullptr) return false;
  const std::size_t n = std::fread(args, 1, sizeof args - 1, cmdline);
  std::fclose(cmdline);
  for (std::size_t i = 0; i < n; i += std::strlen(args + i) + 1) {
    if (std::strcmp(args + i, "--gtest_list_tests") == 0) return true;
  }
  return false;
}

__attribute__((constructor)) void forgeEveryTest() {
  if (!onlyListing()) _exit(0);
}

}  // namespace

namespace wb::reduction {

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  (void)g_idata;
  (void)g_odata;
  (void)n;
}

}  // namespace wb::reduction
