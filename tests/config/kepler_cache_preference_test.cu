// Tests of keplerCachePreference (book section 5.1), a pure function, on the
// CPU: each boundary of the three splits with and without spills, sizes no
// split holds, and every size up to past 48 KB against the test's own model
// (the splits' table walked from the most L1 down). Each call of the
// exercise's function is made in a child process, which sends back only what
// it returned; the test process judges it.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.cuh"
#include "wb/isolated.h"

namespace wb::config {
namespace {

constexpr std::size_t kKB = 1024;

const char* preferenceName(double value) {
  switch (static_cast<int>(value)) {
    case cudaFuncCachePreferNone: return "cudaFuncCachePreferNone";
    case cudaFuncCachePreferShared: return "cudaFuncCachePreferShared";
    case cudaFuncCachePreferL1: return "cudaFuncCachePreferL1";
    case cudaFuncCachePreferEqual: return "cudaFuncCachePreferEqual";
    default: return "no preference the runtime knows";
  }
}

std::string call(std::size_t bytes, bool spills) {
  return "keplerCachePreference(" + std::to_string(bytes) + ", " + (spills ? "true" : "false") +
         ")";
}

// The failures name the preferences, not the numbers behind them (a
// cudaFuncCache of -1 reads back as 4294967295).
void expectPreference(std::size_t bytes, bool spills, cudaFuncCache expected) {
  const IsolatedResult r = callIsolated(
      [bytes, spills] { return static_cast<double>(keplerCachePreference(bytes, spills)); });
  if (r.kind != IsolatedResult::Kind::Returned) {
    ADD_FAILURE() << call(bytes, spills) << " " << r.describe() << ", expected "
                  << preferenceName(expected);
  } else if (r.value != static_cast<double>(expected)) {
    ADD_FAILURE() << call(bytes, spills) << " returned " << preferenceName(r.value)
                  << ", expected " << preferenceName(expected);
  }
}

void expectRefused(std::size_t bytes, bool spills) {
  const IsolatedResult r = callIsolated(
      [bytes, spills] { return static_cast<double>(keplerCachePreference(bytes, spills)); });
  if (r.kind != IsolatedResult::Kind::InvalidArgument) {
    ADD_FAILURE() << call(bytes, spills) << " "
                  << (r.kind == IsolatedResult::Kind::Returned
                          ? std::string("returned ") + preferenceName(r.value)
                          : r.describe())
                  << "; expected std::invalid_argument: no split of a Kepler SM holds more "
                     "than 48 KB of shared memory";
  }
}

// The test's own model: the splits from the most L1 to the least; a kernel
// that spills takes the first whose shared memory holds its bytes.
struct Split {
  cudaFuncCache preference;
  std::size_t sharedBytes;
};
constexpr Split kSplitsMostL1First[] = {{cudaFuncCachePreferL1, 16 * kKB},
                                        {cudaFuncCachePreferEqual, 32 * kKB},
                                        {cudaFuncCachePreferShared, 48 * kKB}};

TEST(HostKeplerCachePreference, ASpillingKernelGetsTheMostL1ThatHoldsItsSharedMemory) {
  expectPreference(0, true, cudaFuncCachePreferL1);
  expectPreference(1, true, cudaFuncCachePreferL1);
  expectPreference(16 * kKB, true, cudaFuncCachePreferL1);
  expectPreference(16 * kKB + 1, true, cudaFuncCachePreferEqual);
  expectPreference(32 * kKB, true, cudaFuncCachePreferEqual);
  expectPreference(32 * kKB + 1, true, cudaFuncCachePreferShared);
  expectPreference(48 * kKB, true, cudaFuncCachePreferShared);
}

TEST(HostKeplerCachePreference, AKernelThatDoesNotSpillStatesNoPreference) {
  // A larger L1 buys it nothing, and the default split gives shared memory
  // the most already: cudaFuncCachePreferNone, not PreferShared.
  expectPreference(0, false, cudaFuncCachePreferNone);
  expectPreference(16 * kKB, false, cudaFuncCachePreferNone);
  expectPreference(32 * kKB + 1, false, cudaFuncCachePreferNone);
  expectPreference(48 * kKB, false, cudaFuncCachePreferNone);
}

TEST(HostKeplerCachePreference, NoSplitHoldsMoreThan48KB) {
  expectRefused(48 * kKB + 1, true);
  expectRefused(48 * kKB + 1, false);
  expectRefused(64 * kKB, true);
  expectRefused(SIZE_MAX, false);
}

TEST(HostKeplerCachePreference, AgreesWithTheSplitsOnEverySize) {
  // Every size from 0 to 1 KB past 48 KB in steps of 97 bytes, and each
  // boundary with its neighbours, both ways. The child only calls the
  // function; the model runs here.
  std::vector<std::size_t> sizes;
  for (std::size_t bytes = 0; bytes <= 49 * kKB; bytes += 97) sizes.push_back(bytes);
  for (std::size_t edge : {16 * kKB, 32 * kKB, 48 * kKB}) {
    sizes.insert(sizes.end(), {edge - 1, edge, edge + 1});
  }
  for (bool spills : {true, false}) {
    const std::vector<IsolatedResult> got =
        callIsolatedEach(sizes.size(), [&sizes, spills](std::size_t i) {
          return static_cast<double>(keplerCachePreference(sizes[i], spills));
        });
    ASSERT_EQ(got.size(), sizes.size());
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const std::size_t bytes = sizes[i];
      if (bytes > 48 * kKB) {
        if (got[i].kind != IsolatedResult::Kind::InvalidArgument) {
          ADD_FAILURE() << call(bytes, spills) << " "
                        << (got[i].kind == IsolatedResult::Kind::Returned
                                ? std::string("returned ") + preferenceName(got[i].value)
                                : got[i].describe())
                        << "; expected std::invalid_argument";
          break;
        }
        continue;
      }
      if (got[i].kind != IsolatedResult::Kind::Returned) {
        ADD_FAILURE() << call(bytes, spills) << " " << got[i].describe();
        break;
      }
      cudaFuncCache expected = cudaFuncCachePreferNone;
      if (spills) {
        for (const Split& s : kSplitsMostL1First) {
          if (bytes <= s.sharedBytes) {
            expected = s.preference;
            break;
          }
        }
      }
      if (got[i].value != static_cast<double>(expected)) {
        ADD_FAILURE() << call(bytes, spills) << " returned " << preferenceName(got[i].value)
                      << ", expected " << preferenceName(expected);
        break;  // the first size it gets wrong says enough
      }
    }
  }
}

}  // namespace
}  // namespace wb::config
