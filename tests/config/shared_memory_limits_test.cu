// Tests of the worked example sharedMemoryLimits (book section 5.1). The
// function reads device attributes, so its GPU test runs whole in a child
// process (wb/isolated_gpu.h) and compares with the attributes the test
// reads itself; the host test needs no GPU.
#include <gtest/gtest.h>

#include <string>

#include "config/config.cuh"
#include "config_check.h"
#include "wb/isolated.h"
#include "wb/isolated_gpu.h"

namespace wb::config {
namespace {

std::string compare(const char* what, long long actual, long long expected) {
  if (actual == expected) return "";
  return std::string(what) + " is " + std::to_string(actual) + ", the device says " +
         std::to_string(expected) + "; ";
}

TEST(HostSharedMemoryLimits, NamesTheErrorForADeviceThatDoesNotExist) {
  // Device -1 exists nowhere; without a GPU no device exists at all. Either
  // way the function must throw, naming the CUDA error.
  const IsolatedResult r = callIsolated(
      [] {
        (void)sharedMemoryLimits(-1);
        return 0.0;
      },
      20, ChildSetup::Cuda);
  ASSERT_EQ(r.kind, IsolatedResult::Kind::OtherException)
      << "sharedMemoryLimits(-1) " << r.describe() << "; expected a std::runtime_error";
  EXPECT_NE(r.detail.find("cudaError"), std::string::npos)
      << "the message should name the CUDA error: " << r.detail;
}

TEST(GpuSharedMemoryLimits, MatchesTheDeviceAttributes) {
  WB_EXPECT_ISOLATED_CHECK(checkIsolatedOnGpu([] {
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) return std::string("cudaGetDevice failed");
    const SharedMemoryLimits expected = check::deviceLimits();
    const SharedMemoryLimits got = sharedMemoryLimits(device);
    std::string problems;
    problems += compare("computeMajor", got.computeMajor, expected.computeMajor);
    problems += compare("computeMinor", got.computeMinor, expected.computeMinor);
    problems += compare("perBlockDefault", got.perBlockDefault, expected.perBlockDefault);
    problems += compare("perBlockOptin", got.perBlockOptin, expected.perBlockOptin);
    problems += compare("perMultiprocessor", got.perMultiprocessor, expected.perMultiprocessor);
    problems += compare("reservedPerBlock", got.reservedPerBlock, expected.reservedPerBlock);
    problems += compare("allocationGranularity", got.allocationGranularity,
                        expected.allocationGranularity);
    problems += compare("maxBlocksPerMultiprocessor", got.maxBlocksPerMultiprocessor,
                        expected.maxBlocksPerMultiprocessor);
    return problems;
  }));
}

TEST(GpuSharedMemoryLimits, DefaultPerBlockIs48KBAndTheOptInIsAtLeastThat) {
  // What notes.md says of every GPU the workbook supports (sm_75 and newer).
  WB_EXPECT_ISOLATED_CHECK(checkIsolatedOnGpu([] {
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) return std::string("cudaGetDevice failed");
    const SharedMemoryLimits l = sharedMemoryLimits(device);
    std::string problems = compare("perBlockDefault", l.perBlockDefault, kDefaultSharedPerBlock);
    if (l.perBlockOptin < l.perBlockDefault) problems += "perBlockOptin is below 48 KB; ";
    if (l.perBlockOptin + l.reservedPerBlock > l.perMultiprocessor) {
      problems += "a block at the opt-in limit plus its reservation does not fit on an SM; ";
    }
    return problems;
  }));
}

}  // namespace
}  // namespace wb::config
