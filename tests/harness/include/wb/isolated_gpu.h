/**
 * @file isolated_gpu.h
 * @brief GPU checks of a host exercise, run whole in a child process.
 *
 * A host exercise that configures the CUDA runtime (book 5.1) is judged by
 * what the runtime reports after the call: kernel attributes, a launch, the
 * occupancy API. Its function is called in a forked child like every host
 * exercise (wb/isolated.h), and a CUDA context does not survive fork(), so
 * the test process never touches CUDA: the child probes for a GPU,
 * initialises CUDA, is confined (wb/confine.h), then calls the function,
 * inspects the result and sends back what it found wrong. The inspection
 * runs under the same filter as the function.
 *
 * Unlike the host checks (callIsolatedEach), these are judged inside the
 * process the student's code ran in: the evidence is CUDA state that only
 * that process has. Code of the student's that reaches the C library by
 * walking memory could answer for the check (docs/grading.md, "Known
 * limits"); the pipe only takes answers marked as this child's, in the form
 * the test process asked for.
 */
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "wb/device.h"
#include "wb/isolated.h"

namespace wb {

/**
 * @brief Runs a whole GPU check in a confined child after checking for a
 *        usable GPU there and initialising CUDA: the calls of the student's
 *        function and the test's own inspection of what they did.
 *
 * Kind::Returned with `detail` set to what @p check found wrong ("" when
 * nothing; at most 1023 characters), Kind::Skipped (with the reason) without
 * a GPU or when it threw IsolatedSkip, otherwise how the child failed to
 * answer.
 */
IsolatedResult checkIsolatedOnGpu(const std::function<std::string()>& check,
                                  int timeoutSeconds = 60);

}  // namespace wb

/// Passes when the isolated check found nothing wrong, skips the test (with
/// the reason) when it could not run here, and fails with its findings or
/// with how the child ended otherwise.
#define WB_EXPECT_ISOLATED_CHECK(result)                                        \
  do {                                                                          \
    const ::wb::IsolatedResult wbChecked = (result);                            \
    if (wbChecked.kind == ::wb::IsolatedResult::Kind::Skipped) {                \
      GTEST_SKIP() << wbChecked.detail;                                         \
    }                                                                           \
    ASSERT_EQ(wbChecked.kind, ::wb::IsolatedResult::Kind::Returned)             \
        << "the check " << wbChecked.describe();                                \
    EXPECT_TRUE(wbChecked.detail.empty()) << wbChecked.detail;                  \
  } while (0)
