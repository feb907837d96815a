// GPU tests of the harness: the on-device comparison every performance test
// runs after each timed run (wb::perf::equalOnDevice, behind
// compareOnDevice). If it said "equal" for a wrong output, a kernel that
// skips its work once checked would pass every performance test; these
// tests are what would notice. Skipped without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "wb/buffer.h"
#include "wb/gtest_support.h"
#include "wb/perf_ratio.h"

namespace wb {
namespace {

class GpuEqualOnDevice : public GpuTest {
 protected:
  /// Whether equalOnDevice finds @p a and @p b equal, both uploaded.
  template <class T>
  static bool equal(const std::vector<T>& a, const std::vector<T>& b) {
    DeviceBuffer<T> da(a.size());
    DeviceBuffer<T> db(b.size());
    da.upload(a);
    db.upload(b);
    return perf::equalOnDevice(da.data(), db.data(), a.size());
  }
};

TEST_F(GpuEqualOnDevice, EqualArraysOfEverySizeAreEqual) {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{255}, std::size_t{257},
                        std::size_t{3} * 4096 * 256 + 5}) {
    std::vector<int> a(n);
    for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<int>(i * 2654435761u);
    EXPECT_TRUE(equal(a, a)) << n << " elements";
  }
}

// One wrong element anywhere, the last one of an input larger than the grid
// (so only the grid-stride loop reaches it) included.
TEST_F(GpuEqualOnDevice, OneDifferentElementAnywhereIsFound) {
  const std::size_t n = std::size_t{3} * 4096 * 256 + 5;
  const std::vector<int> want(n, 7);
  for (std::size_t at : {std::size_t{0}, std::size_t{255}, std::size_t{256}, n / 2, n - 1}) {
    std::vector<int> got = want;
    got[at] = 8;
    EXPECT_FALSE(equal(got, want)) << "element " << at << " of " << n;
  }
}

// Poison is a NaN as a float, and a NaN equals nothing, itself included: an
// output left poisoned never passes, even against a poisoned expectation.
TEST_F(GpuEqualOnDevice, NaNEqualsNothing) {
  const std::vector<float> want = {1.0f, 2.0f, 3.0f};
  std::vector<float> got = want;
  EXPECT_TRUE(equal(got, want));
  got[1] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(equal(got, want));
  EXPECT_FALSE(equal(got, got));
  EXPECT_TRUE(equal(std::vector<float>{0.0f}, std::vector<float>{-0.0f}));
}

}  // namespace
}  // namespace wb
