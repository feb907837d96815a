// Host tests of the effective-bandwidth exercise (book section 5.3.4),
// wb::reduction::effectiveBandwidthGBs. They run on the CPU and judge each
// implementation (starter, solutions), so each implementation's object is
// linked into its own copy of these tests. Every call of the exercise's
// function is made in a child process (wb::callIsolated): the function's
// code never runs in the process whose report says whether a test passed.
#include <gtest/gtest.h>

#include <cstddef>
#include <stdexcept>

#include "reduction/reduction.cuh"
#include "wb/isolated.h"

namespace wb::reduction {
namespace {

// effectiveBandwidthGBs(read, written, ms), called in a child process.
IsolatedResult bandwidth(std::size_t read, std::size_t written, double ms) {
  return callIsolated([=] { return effectiveBandwidthGBs(read, written, ms); });
}

// Equal up to rounding: the same formula may be evaluated in another order.
void expectGBs(const IsolatedResult& actual, double expected) {
  ASSERT_EQ(actual.kind, IsolatedResult::Kind::Returned)
      << "effectiveBandwidthGBs " << actual.describe() << "; expected " << expected << " GB/s";
  EXPECT_NEAR(actual.value, expected, 1e-9 * expected) << "expected " << expected << " GB/s";
}

void expectInvalidArgument(const IsolatedResult& actual) {
  EXPECT_EQ(actual.kind, IsolatedResult::Kind::InvalidArgument)
      << "effectiveBandwidthGBs " << actual.describe()
      << "; expected it to throw std::invalid_argument";
}

TEST(HostEffectiveBandwidth, OneGigabyteInOneSecond) {
  expectGBs(bandwidth(1'000'000'000, 0, 1000.0), 1.0);
}

TEST(HostEffectiveBandwidth, CountsBytesReadAndWritten) {
  // 6 MB read plus 2 MB written in 2 ms.
  expectGBs(bandwidth(6'000'000, 2'000'000, 2.0), 4.0);
  expectGBs(bandwidth(0, 8'000'000, 2.0), 4.0);
}

TEST(HostEffectiveBandwidth, TimeIsInMilliseconds) {
  // 1 GB read and 1 GB written in 1 ms: 2000 GB/s, not 2 GB/s.
  expectGBs(bandwidth(1'000'000'000, 1'000'000'000, 1.0), 2000.0);
}

TEST(HostEffectiveBandwidth, GigabytesAreDecimal) {
  // 2^30 bytes (a gibibyte) in one second is 1.073741824 GB/s.
  expectGBs(bandwidth(std::size_t{1} << 30, 0, 1000.0), 1.073741824);
}

TEST(HostEffectiveBandwidth, UnrolledReductionOfTwoToTheTwentyFour) {
  // reduceSmemUnroll on 2^24 ints reads 64 MiB and writes 2^15 partial sums;
  // in 0.028 ms (an H200) that is about 2401 GB/s.
  const std::size_t read = (std::size_t{1} << 24) * sizeof(int);
  const std::size_t written = (std::size_t{1} << 15) * sizeof(int);
  expectGBs(bandwidth(read, written, 0.028), 2401.4262857142858);
}

TEST(HostEffectiveBandwidth, SmallCountsAreNotRoundedToZero) {
  // One byte in one millisecond: 10^-6 GB/s. Integer division gives 0.
  expectGBs(bandwidth(1, 0, 1.0), 1e-6);
}

TEST(HostEffectiveBandwidth, LargeCountsDoNotOverflow) {
  // 2^40 bytes each way in one second: 2^41 / 10^9 GB/s. An int overflows.
  const std::size_t tebibyte = std::size_t{1} << 40;
  expectGBs(bandwidth(tebibyte, tebibyte, 1000.0), 2199.023255552);
}

TEST(HostEffectiveBandwidth, RejectsATimeThatIsNotPositive) {
  expectInvalidArgument(bandwidth(4, 4, 0.0));
  expectInvalidArgument(bandwidth(4, 4, -1.0));
}

}  // namespace
}  // namespace wb::reduction
