// Host tests of the harness: statistics, bandwidth arithmetic, poison and
// guard checking, mismatch reports, when the GPU clock counts as settled.
// No GPU needed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "wb/cuda_check.h"
#include "wb/device.h"
#include "wb/fingerprint.h"
#include "wb/stats.h"
#include "wb/timing.h"
#include "wb/shared_poison.h"
#include "wb/verify.h"

namespace wb {
namespace {

TEST(HostStats, MedianOfOddAndEvenCounts) {
  EXPECT_DOUBLE_EQ(median({5.0, 1.0, 3.0}), 3.0);
  EXPECT_DOUBLE_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_DOUBLE_EQ(median({7.0}), 7.0);
  EXPECT_THROW(median({}), std::invalid_argument);
}

TEST(HostStats, MedianIgnoresOneOutlier) {
  EXPECT_DOUBLE_EQ(median({1.0, 1.0, 1.0, 1.0, 100.0}), 1.0);
}

TEST(HostStats, SummaryKeepsSamplesAndExtremes) {
  const TimingStats s = TimingStats::of({3.0, 1.0, 2.0});
  EXPECT_DOUBLE_EQ(s.medianMs, 2.0);
  EXPECT_DOUBLE_EQ(s.minMs, 1.0);
  EXPECT_DOUBLE_EQ(s.maxMs, 3.0);
  EXPECT_EQ(s.samplesMs.size(), 3u);
}

TEST(HostBandwidth, CountsReadAndWrittenBytesInDecimalGigabytes) {
  // 1 GB read + 1 GB written in 1 ms is 2000 GB/s.
  EXPECT_DOUBLE_EQ(gbPerSecond(1e9, 1e9, 1.0), 2000.0);
  // A 4096 x 4096 float transpose (64 MiB each way) in 0.1 ms.
  const double bytes = 4096.0 * 4096.0 * 4.0;
  EXPECT_NEAR(gbPerSecond(bytes, bytes, 0.1), 1342.177, 1e-3);
  EXPECT_THROW(gbPerSecond(1, 1, 0.0), std::invalid_argument);
}

TEST(HostBandwidth, PeakFromClockAndBusWidth) {
  DeviceInfo d;
  d.memoryClockKHz = 2619000;  // H100 SXM HBM3
  d.busWidthBits = 5120;
  EXPECT_NEAR(d.peakGBs(), 3352.3, 0.1);
}

// The local-frame rule that keeps a kernel's own out-of-memory launches from
// passing for another process's hold (wb::disownGpuContention).
TEST(HostLocalFrame, AFrameTheDriverCannotReserveOutgrowsTheDevice) {
  const std::size_t h100 = std::size_t{80} << 30;
  // The open forgery's 496 KB frame: about 137 GB for 2048 x 132 threads.
  EXPECT_TRUE(wb::localMemoryOutgrowsDevice(507904, 2048, 132, h100));
  // Half the device is the line: 160 KB a thread is 43 GB on an H100.
  EXPECT_TRUE(wb::localMemoryOutgrowsDevice(160 * 1024, 2048, 132, h100));
}

TEST(HostLocalFrame, HonestFramesAndNoFrameFit) {
  const std::size_t h100 = std::size_t{80} << 30;
  const std::size_t t4 = std::size_t{15} << 30;
  EXPECT_FALSE(wb::localMemoryOutgrowsDevice(0, 2048, 132, h100));
  EXPECT_FALSE(wb::localMemoryOutgrowsDevice(1024, 2048, 132, h100));
  // A spilled array of 4 KB per thread on a 40-SM Turing card with 15 GiB.
  EXPECT_FALSE(wb::localMemoryOutgrowsDevice(4096, 1024, 40, t4));
  // Nonsense device figures never disown anything.
  EXPECT_FALSE(wb::localMemoryOutgrowsDevice(507904, 0, 132, h100));
  EXPECT_FALSE(wb::localMemoryOutgrowsDevice(507904, 2048, -1, h100));
}

TEST(HostPoison, PoisonIsNaNAsFloatAndHugeAsInt) {
  EXPECT_TRUE(std::isnan(poisonValue<float>()));
  EXPECT_EQ(poisonValue<int>(), 0x7FBADBAD);
  EXPECT_TRUE(isPoison(poisonValue<float>()));
  EXPECT_TRUE(isPoison(poisonValue<double>()));
  EXPECT_FALSE(isPoison(0));
  EXPECT_FALSE(isPoison(-1));
  EXPECT_FALSE(isPoison(std::nanf("")));  // a different NaN is a written value
}

// Layout used by DeviceBuffer: [front guard | n elements | back guard].
std::vector<int> guarded(std::size_t guard, std::size_t n, int fill) {
  std::vector<int> v(2 * guard + n, poisonValue<int>());
  for (std::size_t i = 0; i < n; ++i) v[guard + i] = fill;
  return v;
}

TEST(HostSharedPoison, CountsPoisonWordsInAWrappedIntSum) {
  const int expected = 1000;
  // Three words nobody wrote, added into an int sum that wraps.
  const auto wrapped = static_cast<int>(static_cast<std::uint32_t>(expected) + 3u * kSharedPoisonWord);
  EXPECT_EQ(sharedPoisonCount(wrapped, expected), 3);
  EXPECT_EQ(sharedPoisonCount(static_cast<std::int64_t>(wrapped), std::int64_t{expected}), 3);
  EXPECT_EQ(sharedPoisonCount(static_cast<int>(kSharedPoisonWord), 7), 1);  // copied as it is
  EXPECT_EQ(sharedPoisonCount(1001, expected), 0);                          // an ordinary error
}

TEST(HostSharedPoison, NaNFloatCountsOnce) {
  float poison;
  std::memcpy(&poison, &kSharedPoisonWord, sizeof poison);
  EXPECT_TRUE(std::isnan(poison));
  EXPECT_EQ(sharedPoisonCount(poison + 1.0f, 2.0f), 1);
  EXPECT_EQ(sharedPoisonCount(3.0f, 2.0f), 0);
}

TEST(HostSharedPoison, MismatchReportSaysWhatTheWordMeans) {
  const std::vector<int> expected = {5, 6, 7};
  const std::vector<int> actual = {5, static_cast<int>(6u + 2u * kSharedPoisonWord), 7};
  const std::string text = describeMismatches(actual.data(), expected.data(), 3, "k");
  EXPECT_NE(text.find("off by 2 shared-memory poison words"), std::string::npos) << text;
  EXPECT_NE(text.find("read shared memory that no thread of this launch wrote"), std::string::npos)
      << text;
  const std::vector<int> plain = {5, 9, 7};
  EXPECT_EQ(describeMismatches(plain.data(), expected.data(), 3, "k").find("shared-memory poison"),
            std::string::npos);
}

TEST(HostPoison, CleanBufferPasses) {
  EXPECT_EQ(checkPoisonAndGuards(guarded(4, 10, 1), 4, 10, "k"), "");
}

TEST(HostPoison, UnwrittenElementIsNamedWithItsOffset) {
  auto v = guarded(4, 10, 1);
  v[4 + 6] = poisonValue<int>();
  v[4 + 8] = poisonValue<int>();
  const std::string msg = checkPoisonAndGuards(v, 4, 10, "myKernel");
  EXPECT_NE(msg.find("myKernel left 2 of 10"), std::string::npos) << msg;
  EXPECT_NE(msg.find("first at [6]"), std::string::npos) << msg;
}

TEST(HostPoison, WritePastTheEndIsNamed) {
  auto v = guarded(4, 10, 1);
  v[4 + 10 + 1] = 0;
  const std::string msg = checkPoisonAndGuards(v, 4, 10, "k");
  EXPECT_NE(msg.find("wrote past the end"), std::string::npos) << msg;
  EXPECT_NE(msg.find("offset 11"), std::string::npos) << msg;
}

TEST(HostPoison, WriteBeforeTheStartIsNamed) {
  auto v = guarded(4, 10, 1);
  v[3] = 0;
  const std::string msg = checkPoisonAndGuards(v, 4, 10, "k");
  EXPECT_NE(msg.find("before the start"), std::string::npos) << msg;
  EXPECT_NE(msg.find("offset -1"), std::string::npos) << msg;
}

TEST(HostPoison, FormatterNamesMatrixCoordinates) {
  auto v = guarded(2, 12, 1);
  v[2 + 7] = poisonValue<int>();
  const std::string msg = checkPoisonAndGuards(v, 2, 12, "t", rowColIndex(4));
  EXPECT_NE(msg.find("(row 1, col 3)"), std::string::npos) << msg;
}

TEST(HostCompare, EqualArraysReportNothing) {
  const std::vector<int> a{1, 2, 3};
  EXPECT_EQ(describeMismatches(a.data(), a.data(), a.size(), "k"), "");
}

TEST(HostCompare, ReportsCountAndFirstMismatches) {
  const std::vector<int> want{0, 1, 2, 3, 4, 5};
  std::vector<int> got = want;
  got[1] = 9;
  got[4] = poisonValue<int>();
  got[5] = 7;
  const std::string msg = describeMismatches(got.data(), want.data(), got.size(), "k",
                                             flatIndex, 2);
  EXPECT_NE(msg.find("3 of 6"), std::string::npos) << msg;
  EXPECT_NE(msg.find("at [1]: expected 1, got 9"), std::string::npos) << msg;
  EXPECT_NE(msg.find("at [4]: expected 4, got poison (never written)"), std::string::npos)
      << msg;
  EXPECT_EQ(msg.find("at [5]"), std::string::npos) << "only the first 2 are shown: " << msg;
}

using Rule = ClockSettleRule;

TEST(HostClockSettle, ShortSamplesDoubleTheBatch) {
  Rule rule;
  EXPECT_EQ(rule.batch(), 1);
  EXPECT_FALSE(rule.add(0.05));
  EXPECT_EQ(rule.batch(), 2);
  EXPECT_FALSE(rule.add(0.1));
  EXPECT_EQ(rule.batch(), 4);
}

TEST(HostClockSettle, ThreeAgreeingLongSamplesSettle) {
  Rule rule;
  EXPECT_FALSE(rule.add(25.0));
  EXPECT_FALSE(rule.add(25.3));
  EXPECT_TRUE(rule.add(25.1));
  EXPECT_EQ(rule.batch(), 1) << "long samples keep the batch";
}

TEST(HostClockSettle, ARampDoesNotSettleUntilItEnds) {
  Rule rule;
  // Each sample 1.5% faster than the one before: no three within 2%.
  double ms = 40.0;
  for (int i = 0; i < 20; ++i) {
    EXPECT_FALSE(rule.add(ms)) << "sample " << i;
    if (i < 19) ms *= 0.985;
  }
  // The ramp ends: its last two samples, 1.5% apart, and one more at its
  // final speed agree.
  EXPECT_TRUE(rule.add(ms));
}

TEST(HostClockSettle, OneOutlierRestartsTheCount) {
  Rule rule;
  EXPECT_FALSE(rule.add(30.0));
  EXPECT_FALSE(rule.add(30.0));
  EXPECT_FALSE(rule.add(31.0));  // 3.3% slower
  EXPECT_FALSE(rule.add(31.0));  // 30, 31, 31: still 3.3% apart
  EXPECT_TRUE(rule.add(31.0));
}

TEST(HostClockSettle, SamplesThatBecomeShortLengthenTheBatchAndStartOver) {
  Rule rule;
  for (int i = 0; i < 5; ++i) rule.add(Rule::kMinSampleMs / 2);  // batch 32
  EXPECT_EQ(rule.batch(), 32);
  EXPECT_FALSE(rule.add(30.0));
  EXPECT_FALSE(rule.add(30.0));
  // The clock rose: the same batch now takes less than kMinSampleMs.
  EXPECT_FALSE(rule.add(15.0));
  EXPECT_EQ(rule.batch(), 64);
  EXPECT_FALSE(rule.add(30.0)) << "the samples before the longer batch no longer count";
  EXPECT_FALSE(rule.add(30.0));
  EXPECT_TRUE(rule.add(30.0));
}

TEST(HostClockSettle, TheBatchStopsGrowingAtItsCap) {
  Rule rule;
  while (rule.batch() < Rule::kMaxBatch) rule.add(0.001);
  EXPECT_FALSE(rule.add(0.001));
  EXPECT_EQ(rule.batch(), Rule::kMaxBatch);
  EXPECT_FALSE(rule.add(0.001));
  EXPECT_TRUE(rule.add(0.001)) << "at the cap, short samples count";
}

// The inputs of the timed runs (wb::InputSchedule): no run gets the input
// of the run before it (the warm-ups' input 0 comes before run 0), every
// input is used, both kernels of a comparison get the same order, and
// another seed gives another order.
TEST(HostInputSchedule, NoRunRepeatsThePreviousInputAndAllAreUsed) {
  const InputSchedule schedule(31, 12345);
  EXPECT_EQ(schedule.inputOf(-1), 0);
  std::vector<int> used(schedule.inputs(), 0);
  int previous = schedule.inputOf(-1);
  for (int run = 0; run < 31; ++run) {
    const int input = schedule.inputOf(run);
    ASSERT_GE(input, 0);
    ASSERT_LT(input, schedule.inputs());
    EXPECT_NE(input, previous) << "run " << run;
    ++used[static_cast<std::size_t>(input)];
    previous = input;
  }
  for (int i = 0; i < schedule.inputs(); ++i) EXPECT_GT(used[i], 0) << "input " << i;
  EXPECT_THROW((void)schedule.inputOf(31), std::out_of_range);
}

TEST(HostInputSchedule, TheSeedFixesTheOrderAndTheChangedElements) {
  const InputSchedule a(31, 7), b(31, 7), c(31, 8);
  bool differs = false;
  for (int run = 0; run < 31; ++run) {
    EXPECT_EQ(a.inputOf(run), b.inputOf(run));
    EXPECT_EQ(a.changedElement(run, 1u << 24), b.changedElement(run, 1u << 24));
    EXPECT_LT(a.changedElement(run, 1000), 1000u);
    differs = differs || a.inputOf(run) != c.inputOf(run);
  }
  EXPECT_TRUE(differs) << "seeds 7 and 8 gave the same order";
}

// The fingerprint a timed run's output is compared with: every element's
// index and bits count, so a changed element, two swapped ones and a
// float -0 for 0 all change it (the device computes the same sum: tested in
// harness_gpu_test.cpp).
TEST(HostFingerprint, EveryElementAndItsPlaceCount) {
  std::vector<int> a(1000);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int>(i % 7);
  const std::uint64_t base = perf::fingerprintOnHost(a);
  for (std::size_t at : {std::size_t{0}, std::size_t{500}, std::size_t{999}}) {
    std::vector<int> b = a;
    b[at] ^= 1;
    EXPECT_NE(perf::fingerprintOnHost(b), base) << "element " << at;
  }
  std::vector<int> swapped = a;
  std::swap(swapped[1], swapped[2]);
  EXPECT_NE(perf::fingerprintOnHost(swapped), base);
  EXPECT_NE(perf::fingerprintOnHost(std::vector<int>{0}),
            perf::fingerprintOnHost(std::vector<int>{}));
  EXPECT_NE(perf::fingerprintOnHost(std::vector<float>{0.0f}),
            perf::fingerprintOnHost(std::vector<float>{-0.0f}));
}

}  // namespace
}  // namespace wb
