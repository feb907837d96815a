// Tests of blocksPerSmLimitedByShared (book section 5.1). The host tests run
// on the CPU against the contract's fixed GPUs (a T4, an A100, an H100):
// numbers worked by hand in notes.md's way, and a sweep against a model
// written differently (counting blocks one by one). Each call of the
// exercise's function is made in a child process, which sends back only what
// it returned; the test process judges it. The GPU test compares it with the
// runtime's occupancy API on a kernel that shared memory alone limits, asked
// in a child that runs only the test's code.
#include <gtest/gtest.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/config.cuh"
#include "config_check.h"
#include "config_test_kernels.h"
#include "wb/isolated.h"
#include "wb/isolated_gpu.h"

namespace wb::config {
namespace {

// The test's own model: a block occupies whole allocation units covering its
// bytes and the reservation; blocks are placed one by one while they fit.
int countedBlocks(const SharedMemoryLimits& l, std::size_t bytes) {
  if (bytes > l.perBlockOptin) return 0;
  std::size_t units = 0;
  while (units * l.allocationGranularity < bytes + l.reservedPerBlock) ++units;
  const std::size_t occupied = units * l.allocationGranularity;
  int blocks = 0;
  std::size_t used = 0;
  while (blocks < l.maxBlocksPerMultiprocessor && used + occupied <= l.perMultiprocessor) {
    used += occupied;
    ++blocks;
  }
  return blocks;
}

void expectBlocks(const SharedMemoryLimits& l, const char* gpu, std::size_t bytes, int expected) {
  const IsolatedResult r =
      callIsolated([&l, bytes] { return static_cast<double>(blocksPerSmLimitedByShared(l, bytes)); });
  ASSERT_EQ(r.kind, IsolatedResult::Kind::Returned)
      << "blocksPerSmLimitedByShared(" << gpu << ", " << bytes << ") " << r.describe();
  EXPECT_EQ(r.value, static_cast<double>(expected))
      << gpu << " with " << bytes << " bytes of shared memory per block";
}

TEST(HostBlocksPerSmLimitedByShared, HopperWorkedExample) {
  // notes.md: 8 KB + 1 KB reserved = 9 KB per block, 228 KB / 9 KB = 25.3: 25.
  expectBlocks(kHopperH100, "H100", 8 * 1024, 25);
  // 48 KB + 1 KB: 228 / 49 = 4.65: 4.
  expectBlocks(kHopperH100, "H100", 48 * 1024, 4);
  // 100 KB + 1 KB: 2.
  expectBlocks(kHopperH100, "H100", 100 * 1024, 2);
}

TEST(HostBlocksPerSmLimitedByShared, CountsTheReservationOfEachBlock) {
  // Without the 1 KB per block, 8 KB blocks would be 28 on an H100, 16 KB
  // blocks 10 on an A100; with it 25 and 9.
  expectBlocks(kHopperH100, "H100", 8 * 1024, 25);
  expectBlocks(kAmpereA100, "A100", 16 * 1024, 9);
  // The largest block an H100 allows fills the SM with its reservation.
  expectBlocks(kHopperH100, "H100", 227 * 1024, 1);
  expectBlocks(kAmpereA100, "A100", 163 * 1024, 1);
}

TEST(HostBlocksPerSmLimitedByShared, RoundsEachBlockUpToTheAllocationUnit) {
  // H100: 7000 + 1024 = 8024 bytes occupy 63 units of 128, 8064 bytes: 28
  // blocks (8024 unrounded would give 29).
  expectBlocks(kHopperH100, "H100", 7000, 28);
  // T4: 5000 bytes occupy 20 units of 256, 5120 bytes: 12 (13 unrounded).
  expectBlocks(kTuringT4, "T4", 5000, 12);
  // T4: one byte over 48 KB takes a whole further unit: 49408 bytes, 1 block.
  expectBlocks(kTuringT4, "T4", 48 * 1024 + 1, 1);
}

TEST(HostBlocksPerSmLimitedByShared, OnlyWholeBlocksCount) {
  // A100: 16 KB + 1 KB into 164 KB is 9.65 blocks: 9, never 10.
  expectBlocks(kAmpereA100, "A100", 16 * 1024, 9);
  // A100: 48 KB + 1 KB into 164 KB is 3.35: 3.
  expectBlocks(kAmpereA100, "A100", 48 * 1024, 3);
  // T4: 32 KB exactly halves 64 KB: 2.
  expectBlocks(kTuringT4, "T4", 32 * 1024, 2);
}

TEST(HostBlocksPerSmLimitedByShared, NeverMoreThanTheSmHoldsBlocks) {
  // Small blocks: shared memory would allow more than the SM's block limit.
  expectBlocks(kAmpereA100, "A100", 2 * 1024, 32);  // 54 by shared memory
  expectBlocks(kHopperH100, "H100", 0, 32);         // 228 by shared memory
  expectBlocks(kTuringT4, "T4", 1, 16);             // 256 by shared memory
  expectBlocks(kTuringT4, "T4", 0, 16);             // nothing reserved, nothing used
}

TEST(HostBlocksPerSmLimitedByShared, ABlockOverTheOptInLimitNeverRuns) {
  expectBlocks(kHopperH100, "H100", 227 * 1024 + 1, 0);
  expectBlocks(kAmpereA100, "A100", 164 * 1024, 0);
  expectBlocks(kTuringT4, "T4", 64 * 1024 + 1, 0);
  expectBlocks(kTuringT4, "T4", 64 * 1024, 1);
}

TEST(HostBlocksPerSmLimitedByShared, AgreesWithACountingModelOnEverySize) {
  // Every size from 0 past each GPU's opt-in limit, in steps of 61 bytes. The
  // child only calls the function; the model runs here, in the test process.
  struct Gpu {
    const char* name;
    SharedMemoryLimits limits;
  };
  const Gpu gpus[] = {{"T4", kTuringT4}, {"A100", kAmpereA100}, {"H100", kHopperH100}};
  for (const Gpu& gpu : gpus) {
    std::vector<std::size_t> sizes;
    for (std::size_t bytes = 0; bytes <= gpu.limits.perBlockOptin + 512; bytes += 61) {
      sizes.push_back(bytes);
    }
    const std::vector<IsolatedResult> got =
        callIsolatedEach(sizes.size(), [&gpu, &sizes](std::size_t i) {
          return static_cast<double>(blocksPerSmLimitedByShared(gpu.limits, sizes[i]));
        });
    ASSERT_EQ(got.size(), sizes.size());
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      ASSERT_EQ(got[i].kind, IsolatedResult::Kind::Returned)
          << "blocksPerSmLimitedByShared(" << gpu.name << ", " << sizes[i] << ") "
          << got[i].describe();
      const int expected = countedBlocks(gpu.limits, sizes[i]);
      if (got[i].value != static_cast<double>(expected)) {
        ADD_FAILURE() << gpu.name << " with " << sizes[i] << " bytes per block: " << got[i].value
                      << " blocks, expected " << expected;
        break;  // the first size it gets wrong says enough
      }
    }
  }
}

// The sizes the GPU test asks about: fixed ones, then half the opt-in limit,
// one byte under it and the whole of it.
std::vector<std::size_t> sizesFor(const SharedMemoryLimits& l) {
  const std::size_t candidates[] = {128,   1000,  4096,       7000,          8 * 1024,
                                    12345, 16384, 30000,      48 * 1024,     48 * 1024 + 1,
                                    70000, 100 * 1024, l.perBlockOptin / 2, l.perBlockOptin - 1,
                                    l.perBlockOptin};
  std::vector<std::size_t> sizes;
  for (const std::size_t bytes : candidates) {
    if (bytes <= l.perBlockOptin) sizes.push_back(bytes);
  }
  return sizes;
}

constexpr std::size_t kLimitFields = 8;

double limitField(const SharedMemoryLimits& l, std::size_t i) {
  const double fields[kLimitFields] = {
      double(l.computeMajor),          double(l.computeMinor),     double(l.perBlockDefault),
      double(l.perBlockOptin),         double(l.perMultiprocessor), double(l.reservedPerBlock),
      double(l.allocationGranularity), double(l.maxBlocksPerMultiprocessor)};
  return fields[i];
}

TEST(GpuBlocksPerSmLimitedByShared, MatchesTheOccupancyApi) {
  // The function is pure, and its expected answers must never be in the
  // memory of the child that calls it (a child is a copy of the test
  // process): first a child that runs only the test's code reads the GPU's
  // limits, then the function is called on them in a child without CUDA,
  // and only then does another test child ask the occupancy API.
  const std::vector<IsolatedResult> limits = callIsolatedEach(
      kLimitFields, [](std::size_t i) { return limitField(check::deviceLimits(), i); }, 60,
      ChildSetup::Gpu);
  noteContentionOfOwnChildren(limits);
  if (limits.front().kind == IsolatedResult::Kind::Skipped) GTEST_SKIP() << limits.front().detail;
  for (const IsolatedResult& r : limits) {
    ASSERT_EQ(r.kind, IsolatedResult::Kind::Returned) << "the test's own GPU query " << r.describe();
  }
  SharedMemoryLimits l;
  l.computeMajor = static_cast<int>(limits[0].value);
  l.computeMinor = static_cast<int>(limits[1].value);
  l.perBlockDefault = static_cast<std::size_t>(limits[2].value);
  l.perBlockOptin = static_cast<std::size_t>(limits[3].value);
  l.perMultiprocessor = static_cast<std::size_t>(limits[4].value);
  l.reservedPerBlock = static_cast<std::size_t>(limits[5].value);
  l.allocationGranularity = static_cast<std::size_t>(limits[6].value);
  l.maxBlocksPerMultiprocessor = static_cast<int>(limits[7].value);
  const std::vector<std::size_t> sizes = sizesFor(l);

  const std::vector<IsolatedResult> got = callIsolatedEach(sizes.size(), [&l, &sizes](std::size_t i) {
    return static_cast<double>(blocksPerSmLimitedByShared(l, sizes[i]));
  });

  const std::vector<IsolatedResult> expected = callIsolatedEach(
      sizes.size(),
      [&l, &sizes](std::size_t i) -> double {
        // Dynamic shared memory is the only thing this kernel uses much of,
        // opted in to the most a block may have so every size can be asked.
        const void* kernel = test_kernels::sharedOnly();
        const cudaError_t optIn = cudaFuncSetAttribute(
            kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(l.perBlockOptin));
        if (optIn != cudaSuccess) {
          // Noted in this child (it cannot write the log itself; the test
          // process notes it from the answer's flag below).
          noteCudaFailure(optIn, "opting the test's kernel in");
          throw std::runtime_error(std::string("the test could not opt its kernel in: ") +
                                   cudaGetErrorName(optIn));
        }
        return static_cast<double>(check::occupancy(kernel, 32, sizes[i]));
      },
      60, ChildSetup::Gpu);
  noteContentionOfOwnChildren(expected);
  std::string problems;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    ASSERT_EQ(expected[i].kind, IsolatedResult::Kind::Returned)
        << "the test's own occupancy query " << expected[i].describe();
    ASSERT_EQ(got[i].kind, IsolatedResult::Kind::Returned)
        << "blocksPerSmLimitedByShared(this GPU, " << sizes[i] << ") " << got[i].describe();
    if (got[i].value != expected[i].value) {
      problems += std::to_string(sizes[i]) + " bytes: " + std::to_string(got[i].value) +
                  " blocks, the occupancy API says " + std::to_string(expected[i].value) + "; ";
    }
  }
  EXPECT_EQ(problems, "");
}

}  // namespace
}  // namespace wb::config
