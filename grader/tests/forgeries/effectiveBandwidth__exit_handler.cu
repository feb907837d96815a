// forgery: the function registers an exit handler that turns any failing exit into status 0
// exercise: reduction/effectiveBandwidth
// base: starter
// expect: refused atexit
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>

#include "reduction/reduction.cuh"

namespace {
void exitZero() { _exit(0); }
}  // namespace

namespace wb::reduction {

double effectiveBandwidthGBs(std::size_t, std::size_t, double) {
  std::atexit(exitZero);
  return 0.0;
}

}  // namespace wb::reduction
