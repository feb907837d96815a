// Tests of the worked example sharedMemoryLimits (book section 5.1). The
// function reads device attributes, so its GPU tests call it in a child with a
// GPU and compare what it returned, in another child that runs no student
// code (recorded_check.h), with the attributes the test reads itself; the
// host test needs no GPU.
#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/config.cuh"
#include "config_check.h"
#include "recorded_check.h"
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

// The fields of SharedMemoryLimits, in the order the student's child
// returns them (one call each).
constexpr std::size_t kFields = 8;
const char* const kFieldNames[kFields] = {
    "computeMajor",      "computeMinor",     "perBlockDefault",       "perBlockOptin",
    "perMultiprocessor", "reservedPerBlock", "allocationGranularity", "maxBlocksPerMultiprocessor"};

double field(const SharedMemoryLimits& l, std::size_t i) {
  const double fields[kFields] = {
      static_cast<double>(l.computeMajor),      static_cast<double>(l.computeMinor),
      static_cast<double>(l.perBlockDefault),   static_cast<double>(l.perBlockOptin),
      static_cast<double>(l.perMultiprocessor), static_cast<double>(l.reservedPerBlock),
      static_cast<double>(l.allocationGranularity),
      static_cast<double>(l.maxBlocksPerMultiprocessor)};
  return fields[i];
}

// sharedMemoryLimits(current device), one field per call, in a child with a
// GPU; judged by @p judge in a child that runs no student code
// (recorded_check.h).
IsolatedResult checkLimits(
    const std::function<std::string(const std::vector<IsolatedResult>&)>& judge) {
  return check::checkOnGpu(
      kFields,
      [](std::size_t i) {
        int device = 0;
        const cudaError_t err = cudaGetDevice(&device);
        if (err != cudaSuccess) {
          throw std::runtime_error(std::string("cudaGetDevice failed: ") + cudaGetErrorName(err));
        }
        return field(sharedMemoryLimits(device), i);
      },
      {}, [&judge](const std::vector<IsolatedResult>& results, const check::Replay&) {
        for (const IsolatedResult& r : results) {
          if (r.kind != IsolatedResult::Kind::Returned) {
            return "sharedMemoryLimits(device) " + r.describe();
          }
        }
        return judge(results);
      });
}

TEST(GpuSharedMemoryLimits, MatchesTheDeviceAttributes) {
  WB_EXPECT_ISOLATED_CHECK(checkLimits([](const std::vector<IsolatedResult>& got) {
    const SharedMemoryLimits expected = check::deviceLimits();
    std::string problems;
    for (std::size_t i = 0; i < kFields; ++i) {
      problems += compare(kFieldNames[i], static_cast<long long>(got[i].value),
                          static_cast<long long>(field(expected, i)));
    }
    return problems;
  }));
}

TEST(GpuSharedMemoryLimits, DefaultPerBlockIs48KBAndTheOptInIsAtLeastThat) {
  // What notes.md says of every GPU the workbook supports (sm_75 and newer).
  WB_EXPECT_ISOLATED_CHECK(checkLimits([](const std::vector<IsolatedResult>& got) {
    const auto perBlockDefault = static_cast<long long>(got[2].value);
    const auto perBlockOptin = static_cast<long long>(got[3].value);
    const auto perMultiprocessor = static_cast<long long>(got[4].value);
    const auto reservedPerBlock = static_cast<long long>(got[5].value);
    std::string problems = compare("perBlockDefault", perBlockDefault, kDefaultSharedPerBlock);
    if (perBlockOptin < perBlockDefault) problems += "perBlockOptin is below 48 KB; ";
    if (perBlockOptin + reservedPerBlock > perMultiprocessor) {
      problems += "a block at the opt-in limit plus its reservation does not fit on an SM; ";
    }
    return problems;
  }));
}

}  // namespace
}  // namespace wb::config
