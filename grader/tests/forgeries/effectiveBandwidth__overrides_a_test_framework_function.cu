// forgery: defines a function of GoogleTest's, hoping the linker takes it instead of the library's
// exercise: reduction/effectiveBandwidth
// base: starter
// expect: refused testing::
#include <stdexcept>

#include "reduction/reduction.cuh"

namespace testing::internal {
// Any function GoogleTest calls to record a failure would do; this one is
// a made-up name standing in for them.
void ReportFailureInUnknownLocation(int, const char*) {}
}  // namespace testing::internal

namespace wb::reduction {

double effectiveBandwidthGBs(std::size_t, std::size_t, double) { return 0.0; }

}  // namespace wb::reduction
