/**
 * @file isolated_gpu.h
 * @brief A test's own GPU check, run in a child process where no student
 *        code runs.
 *
 * A CUDA context does not survive fork(), and every host exercise is called
 * in a forked child (wb/isolated.h), so a test process that calls one never
 * initialises CUDA itself: what it needs of the GPU, it asks of a child. That
 * child runs only the test's code: it probes for a GPU, initialises CUDA, is
 * confined (wb/confine.h) and sends back what the check found wrong. It is
 * trusted because nothing of the student's runs in it; a check that needs the
 * CUDA state a student's function left (a kernel attribute it set) gets it
 * by making again, in this child, the runtime calls recorded where the
 * function ran (tests/config/recorded_check.h), never by calling the
 * function here.
 */
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "wb/device.h"
#include "wb/isolated.h"

namespace wb {

/**
 * @brief Runs @p check, code of the test's only, in a confined child after
 *        checking for a usable GPU there and initialising CUDA.
 *
 * Kind::Returned with `detail` set to what @p check found wrong ("" when
 * nothing; at most 1023 characters), Kind::Skipped (with the reason) without
 * a GPU or when it threw IsolatedSkip, otherwise how the child failed to
 * answer. @p check must not call a student's function.
 */
IsolatedResult judgeOnGpu(const std::function<std::string()>& check, int timeoutSeconds = 60);

}  // namespace wb

/// Passes when the check found nothing wrong, skips the test (with the
/// reason) when it could not run here, and fails with its findings or with
/// how the child ended otherwise.
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
