// GPU tests of the harness: the on-device comparison every performance test
// runs after each timed run (wb::perf::equalOnDevice, behind
// compareOnDevice). If it said "equal" for a wrong output, a kernel that
// skips its work once checked would pass every performance test; these
// tests are what would notice. Skipped without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>
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

// The transpose check judges an output against the input itself: every
// shape (one row, one column, rectangles past the grid), and one element
// out of place anywhere, the corners included.
TEST_F(GpuEqualOnDevice, TransposeIsJudgedAgainstTheInput) {
  const std::pair<std::size_t, std::size_t> shapes[] = {{1, 1}, {1, 300}, {300, 1}, {17, 33},
                                                        {1200, 1100}};
  for (const auto& [rows, cols] : shapes) {
    std::vector<float> in(rows * cols);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 9973) + 0.5f;
    std::vector<float> out(in.size());
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t c = 0; c < cols; ++c) out[c * rows + r] = in[r * cols + c];
    }
    DeviceBuffer<float> din(in.size());
    DeviceBuffer<float> dout(out.size());
    din.upload(in);
    dout.upload(out);
    EXPECT_EQ(perf::compareTransposeOnDevice(dout, din, rows, cols, "t"), "")
        << rows << " x " << cols;
    for (std::size_t at : {std::size_t{0}, out.size() / 2, out.size() - 1}) {
      std::vector<float> wrong = out;
      wrong[at] += 1.0f;
      dout.upload(wrong);
      EXPECT_NE(perf::compareTransposeOnDevice(dout, din, rows, cols, "t"), "")
          << rows << " x " << cols << ", element " << at;
    }
    // The input itself is not its transpose unless the matrix is a vector.
    if (rows > 1 && cols > 1) {
      dout.upload(in);
      EXPECT_NE(perf::compareTransposeOnDevice(dout, din, rows, cols, "t"), "")
          << rows << " x " << cols << ": the input passed as its own transpose";
    }
  }
}

}  // namespace
}  // namespace wb
