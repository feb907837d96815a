#include "wb/gtest_support.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "wb/cuda_check.h"
#include "wb/perf_compares.h"

namespace wb {

namespace {

/// Marks the start and the end of each test in the CUDA error log
/// (noteTestStart, noteTestEnd), so that a batch's first failed CUDA call is
/// known to belong to one test, and a batch killed at its time limit still
/// says how the tests before it ended.
class TestStartMarker : public ::testing::EmptyTestEventListener {
  void OnTestStart(const ::testing::TestInfo& test) override {
    noteTestStart(std::string(test.test_suite_name()) + "." + test.name());
  }
  void OnTestEnd(const ::testing::TestInfo& test) override {
    const ::testing::TestResult* result = test.result();
    std::vector<std::string> failures;
    for (int i = 0; i < result->total_part_count(); ++i) {
      const ::testing::TestPartResult& part = result->GetTestPartResult(i);
      if (!part.failed() || failures.size() >= 5) continue;
      const std::string file = part.file_name() != nullptr ? part.file_name() : "unknown file";
      const std::string where = part.line_number() >= 0
                                    ? file + ":" + std::to_string(part.line_number())
                                    : file;
      failures.push_back(where + ": Failure\n" + std::string(part.message()).substr(0, 4000));
    }
    const char* said = result->Failed() ? "failed" : result->Skipped() ? "skipped" : "passed";
    noteTestEnd(std::string(test.test_suite_name()) + "." + test.name(), said, failures);
  }
};

// Registered as the program starts: every test executable links this file
// (testSeed), and gtest_main keeps the listeners appended before it runs.
[[maybe_unused]] const bool testStartMarked = [] {
  ::testing::UnitTest::GetInstance()->listeners().Append(new TestStartMarker);
  return true;
}();

}  // namespace

std::uint64_t testSeed() {
  if (const char* fixed = std::getenv("WB_SEED")) {
    return std::strtoull(fixed, nullptr, 10);
  }
  std::random_device entropy;
  return (static_cast<std::uint64_t>(entropy()) << 32) ^ entropy();
}

std::string seedNote(std::uint64_t seed) {
  return "random inputs from seed " + std::to_string(seed) + " (rerun with WB_SEED=" +
         std::to_string(seed) + ")";
}

}  // namespace wb

namespace wb::perf {

namespace {

using Comparisons = std::vector<std::pair<std::string, std::vector<std::string>>>;

Comparisons& comparisons() {
  static Comparisons table;
  return table;
}

/// Printed at exit, after GoogleTest's listing: every declaration has been
/// made by then, whatever the order of the static initialisers.
void printComparisons() {
  for (const auto& [test, exercises] : comparisons()) {
    std::printf("WB_COMPARES %s", test.c_str());
    for (const std::string& e : exercises) std::printf(" %s", e.c_str());
    std::printf("\n");
  }
  std::fflush(stdout);
}

}  // namespace

bool declareComparison(const char* test, std::initializer_list<const char*> exercises) {
  // The table first: an exit handler registered after a function-local
  // static is constructed runs before that static is destroyed.
  Comparisons& table = comparisons();
  static const bool listing = [] {
    const char* wanted = std::getenv("WB_LIST_COMPARISONS");
    return wanted != nullptr && std::strcmp(wanted, "1") == 0 && std::atexit(printComparisons) == 0;
  }();
  (void)listing;
  std::vector<std::string> names;
  for (const char* e : exercises) names.emplace_back(e);
  table.emplace_back(test, std::move(names));
  return true;
}

}  // namespace wb::perf
