// forgery: a constructor answers --gtest_list_tests through a forked child that lists only the tests it passes
// exercise: reduction/effectiveBandwidth
// base: starter
// expect: refused .init_array
#include <sys/wait.h>
#include <unistd.h>

#include <stdexcept>

#include "reduction/reduction.cuh"

namespace {
__attribute__((constructor)) void listThroughAChild() {
  if (fork() == 0) _exit(0);
  wait(nullptr);
}
}  // namespace

namespace wb::reduction {

double effectiveBandwidthGBs(std::size_t, std::size_t, double) { return 0.0; }

}  // namespace wb::reduction
