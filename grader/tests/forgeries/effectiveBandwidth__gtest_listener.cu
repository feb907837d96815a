// forgery: installs a GoogleTest listener that reports every failed assertion as a success
// exercise: reduction/effectiveBandwidth
// base: starter
// expect: refused testing::
#include <gtest/gtest.h>

#include <stdexcept>

#include "reduction/reduction.cuh"

namespace {
class HideFailures : public testing::EmptyTestEventListener {};
}  // namespace

namespace wb::reduction {

double effectiveBandwidthGBs(std::size_t, std::size_t, double) {
  testing::UnitTest::GetInstance()->listeners().Append(new HideFailures);
  return 0.0;
}

}  // namespace wb::reduction
