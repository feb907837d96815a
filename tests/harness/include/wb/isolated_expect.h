/**
 * @file isolated_expect.h
 * @brief GoogleTest expectations on what a checked answer, called in a child
 *        process (wb/isolated.h), did with arguments its contract refuses.
 */
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "wb/isolated.h"

namespace wb {

/// Expects @p got, the result of @p call ("bankOfElement(0, -1, 32)"), to be
/// a std::invalid_argument whose message names @p argument: the checked
/// answers' contracts ask for both, so that a caller learns which argument
/// was wrong.
inline void expectInvalidArgumentNaming(const IsolatedResult& got, const std::string& call,
                                        const std::string& argument) {
  EXPECT_EQ(got.kind, IsolatedResult::Kind::InvalidArgument)
      << call << " " << got.describe() << "; expected it to throw std::invalid_argument";
  if (got.kind == IsolatedResult::Kind::InvalidArgument) {
    EXPECT_NE(got.detail.find(argument), std::string::npos)
        << call << ": the message (" << got.detail << ") should name the argument " << argument;
  }
}

}  // namespace wb
