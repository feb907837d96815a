// forgery: a static constructor ends the test process with status 0 before any test runs
// exercise: reduction/effectiveBandwidth
// base: starter
// expect: refused .init_array
#include <unistd.h>

#include <stdexcept>

#include "reduction/reduction.cuh"

namespace {
__attribute__((constructor)) void passEverything() { _exit(0); }
}  // namespace

namespace wb::reduction {

double effectiveBandwidthGBs(std::size_t, std::size_t, double) { return 0.0; }

}  // namespace wb::reduction
