// forgery: none of the exercise's work: the function refuses every count with cudaErrorInvalidValue and never calls the runtime. The host test (a count that does not fit in an int is refused, with no runtime call in the record) passed, since it never asked for a count that must be accepted, and on a GPU so did ReturnsTheErrorForMoreThanTheDeviceGives, which accepted any error when the record held no call: a one-line function earned the exercise's host points (2 of 5, shown without a GPU) and a third of its GPU points, until 11941b9 made the host tests ask for a count that must reach the runtime and the GPU test require the runtime's own answer; preferSharedCarveout's refusal test had the same gap
// exercise: config/optInDynamicShared
// base: starter
// expect: same-as base
#include "config/config.cuh"

namespace wb::config {

cudaError_t optInDynamicShared(const void* kernel, std::size_t bytes) {
  (void)kernel;
  (void)bytes;
  return cudaErrorInvalidValue;
}

}  // namespace wb::config
