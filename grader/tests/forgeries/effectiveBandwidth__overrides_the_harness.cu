// forgery: defines the harness's child-process call so that the function runs unchecked in the test process
// exercise: reduction/effectiveBandwidth
// base: starter
// expect: refused wb::callIsolated
#include <functional>
#include <stdexcept>

#include "reduction/reduction.cuh"

namespace wb {
struct IsolatedResult;
// The signature of the harness's wb::callIsolated (tests/harness/include/wb/isolated.h).
void callIsolated(const std::function<double()>&, int) {}
}  // namespace wb

namespace wb::reduction {

double effectiveBandwidthGBs(std::size_t, std::size_t, double) { return 0.0; }

}  // namespace wb::reduction
