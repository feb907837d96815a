// Host tests of the contract's fixed GPUs (chapters/config/config.cuh): the
// numbers the exercises' host tests are worked from agree with one another
// and with the notes.
#include <gtest/gtest.h>

#include "config/config.cuh"

namespace wb::config {
namespace {

TEST(HostConfigModel, AllocationGranularityByArchitecture) {
  EXPECT_EQ(allocationGranularityFor(7), 256u);
  EXPECT_EQ(allocationGranularityFor(8), 128u);
  EXPECT_EQ(allocationGranularityFor(9), 128u);
  for (const SharedMemoryLimits& l : {kTuringT4, kAmpereA100, kHopperH100}) {
    EXPECT_EQ(l.allocationGranularity, allocationGranularityFor(l.computeMajor));
  }
}

TEST(HostConfigModel, TheLargestBlockPlusItsReservationFillsTheSm) {
  // sm_80 and sm_90: 1 KB reserved; sm_75: nothing, and a block may have it all.
  for (const SharedMemoryLimits& l : {kTuringT4, kAmpereA100, kHopperH100}) {
    EXPECT_EQ(l.perBlockOptin + l.reservedPerBlock, l.perMultiprocessor)
        << "sm_" << l.computeMajor << l.computeMinor;
    EXPECT_EQ(l.perBlockDefault, kDefaultSharedPerBlock);
  }
  EXPECT_EQ(kHopperH100.perMultiprocessor, 228u * 1024);
  EXPECT_EQ(kAmpereA100.perMultiprocessor, 164u * 1024);
  EXPECT_EQ(kTuringT4.reservedPerBlock, 0u);
}

}  // namespace
}  // namespace wb::config
