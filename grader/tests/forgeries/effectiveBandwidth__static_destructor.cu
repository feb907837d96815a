// forgery: a static object's destructor ends the process with status 0 when main returns a failure
// exercise: reduction/effectiveBandwidth
// base: starter
// expect: refused __cxa_atexit
#include <unistd.h>

#include <stdexcept>

#include "reduction/reduction.cuh"

namespace {
struct ExitZeroAtTheEnd {
  ~ExitZeroAtTheEnd() { _exit(0); }
};
}  // namespace

namespace wb::reduction {

double effectiveBandwidthGBs(std::size_t, std::size_t, double) {
  static ExitZeroAtTheEnd once;
  (void)once;
  return 0.0;
}

}  // namespace wb::reduction
