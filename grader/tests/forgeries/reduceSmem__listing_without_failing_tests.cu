// forgery: when the process only lists its tests, a constructor prints a listing without the tests that fail
// exercise: reduction/reduceSmem
// base: starter
// expect: same-as base
// Never compiled (kernel exercises are device code only), and the list of
// tests comes from executables that hold no exercise code anyway.
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "reduction/reduction.cuh"

namespace {

__attribute__((constructor)) void listOnlyPassingTests() {
  char args[4096] = {};
  FILE* cmdline = std::fopen("/proc/self/cmdline", "r");
  if (cmdline == nullptr) return;
  const std::size_t n = std::fread(args, 1, sizeof args - 1, cmdline);
  std::fclose(cmdline);
  for (std::size_t i = 0; i < n; i += std::strlen(args + i) + 1) {
    if (std::strcmp(args + i, "--gtest_list_tests") == 0) {
      std::printf("HostNothing.\n  AlwaysPasses\n");
      _exit(0);
    }
  }
}

}  // namespace

namespace wb::reduction {

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  (void)g_idata;
  (void)g_odata;
  (void)n;
}

}  // namespace wb::reduction
