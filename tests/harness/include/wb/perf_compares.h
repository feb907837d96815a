/**
 * @file perf_compares.h
 * @brief Which of the student's exercises a section-wide performance
 *        comparison times, declared beside the test.
 *
 * A comparison (a Perf* test with no parameter) belongs to its section for
 * the points; `./workbook check NAME --perf` runs those that time NAME's
 * kernel. CTest's discovery (cmake/WorkbookDiscoverTests.cmake) learns them
 * from the test executable itself: run with WB_LIST_COMPARISONS=1, it prints
 * after GoogleTest's listing one line per declared comparison,
 *
 *     WB_COMPARES <Suite>.<Test> <exercise> [<exercise> ...]
 *
 * and every comparison of a section's tests must be declared (discovery
 * stops on one that is not), so the labels cannot fall behind the tests.
 *
 *     WB_PERF_COMPARES(PerfReduction, SharedMemoryBeatsGlobalMemory, "reduceSmem");
 *     TEST_F(PerfReduction, SharedMemoryBeatsGlobalMemory) { ... }
 */
#pragma once

#include <initializer_list>

namespace wb::perf {

/// Records that test @p test ("Suite.Test") times the student's kernels of
/// @p exercises; returns true (for a static initialiser).
bool declareComparison(const char* test, std::initializer_list<const char*> exercises);

}  // namespace wb::perf

/// Declares the exercises (their names, as workbook.toml lists them) whose
/// student kernels the comparison Suite.Test times.
#define WB_PERF_COMPARES(suite, test, ...)                  \
  [[maybe_unused]] static const bool wbCompares_##suite##_##test = \
      ::wb::perf::declareComparison(#suite "." #test, {__VA_ARGS__})
