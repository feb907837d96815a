/**
 * @file verify.h
 * @brief Host-side checks of a kernel's output: poison, guard zones and
 *        element-wise comparison. Pure C++, so the host tests exercise them
 *        without a GPU.
 *
 * Before every run the harness fills an output buffer, and guard zones before
 * and after it, with a poison word. After the run:
 *  - a poison word left inside the output is an element the kernel never wrote;
 *  - a guard word that is no longer poison is a write out of bounds.
 * The poison word 0x7FBADBAD is a NaN as a float and 2142952365 as an int,
 * neither of which a workbook kernel can legitimately produce.
 */
#pragma once

#include "wb/shared_poison.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace wb {

/// The 4-byte poison word written before every kernel run.
constexpr std::uint32_t kPoisonWord = 0x7FBADBADu;

/// True when @p value holds the poison bit pattern (every 4-byte word of it).
template <class T>
bool isPoison(const T& value) {
  static_assert(sizeof(T) % sizeof(std::uint32_t) == 0, "poison is checked in 4-byte words");
  std::uint32_t words[sizeof(T) / sizeof(std::uint32_t)];
  std::memcpy(words, &value, sizeof(T));
  for (std::uint32_t w : words) {
    if (w != kPoisonWord) return false;
  }
  return true;
}

/// A value of type T holding the poison pattern.
template <class T>
T poisonValue() {
  static_assert(sizeof(T) % sizeof(std::uint32_t) == 0, "poison is written in 4-byte words");
  std::uint32_t words[sizeof(T) / sizeof(std::uint32_t)];
  for (auto& w : words) w = kPoisonWord;
  T value;
  std::memcpy(&value, words, sizeof(T));
  return value;
}

/// Turns a flat output index into the text a student reads in a failure
/// message, e.g. "[17]" or "(row 3, col 5)".
using IndexFormatter = std::function<std::string(std::size_t)>;

/// "[i]": the default formatter for 1-D outputs.
inline std::string flatIndex(std::size_t i) { return "[" + std::to_string(i) + "]"; }

/// Formatter for a row-major matrix with @p cols columns.
inline IndexFormatter rowColIndex(std::size_t cols) {
  return [cols](std::size_t i) {
    return "(row " + std::to_string(i / cols) + ", col " + std::to_string(i % cols) + ")";
  };
}

/**
 * @brief Checks a downloaded buffer laid out as [front guard | n outputs |
 *        back guard].
 * @return an empty string when every output was written and both guards are
 *         intact; otherwise a message that names @p kernel, the first bad
 *         position and how many positions are bad.
 */
template <class T>
std::string checkPoisonAndGuards(const std::vector<T>& whole, std::size_t frontGuard, std::size_t n,
                                 const std::string& kernel,
                                 const IndexFormatter& where = flatIndex) {
  std::ostringstream msg;
  std::size_t firstFront = whole.size(), badFront = 0;
  for (std::size_t i = 0; i < frontGuard; ++i) {
    if (!isPoison(whole[i])) {
      if (badFront++ == 0) firstFront = i;
    }
  }
  if (badFront) {
    msg << kernel << " wrote before the start of its output: " << badFront
        << " guard element(s) changed, the first at offset -" << (frontGuard - firstFront)
        << ". ";
  }
  std::size_t firstUnwritten = n, unwritten = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (isPoison(whole[frontGuard + i])) {
      if (unwritten++ == 0) firstUnwritten = i;
    }
  }
  if (unwritten) {
    msg << kernel << " left " << unwritten << " of " << n
        << " output element(s) unwritten, the first at " << where(firstUnwritten) << ". ";
  }
  std::size_t firstBack = 0, badBack = 0;
  for (std::size_t i = frontGuard + n; i < whole.size(); ++i) {
    if (!isPoison(whole[i])) {
      if (badBack++ == 0) firstBack = i - frontGuard;
    }
  }
  if (badBack) {
    msg << kernel << " wrote past the end of its output (" << n << " elements): " << badBack
        << " guard element(s) changed, the first at offset " << firstBack << ". ";
  }
  std::string text = msg.str();
  if (!text.empty()) text.pop_back();
  return text;
}

/**
 * @brief Compares @p actual with @p expected element by element.
 * @return an empty string when equal; otherwise a message naming @p kernel,
 *         the number of mismatches and the first @p maxShown of them with
 *         their positions, expected and actual values.
 */
template <class T>
std::string describeMismatches(const T* actual, const T* expected, std::size_t n,
                               const std::string& kernel, const IndexFormatter& where = flatIndex,
                               int maxShown = 8) {
  std::size_t mismatches = 0;
  std::size_t sharedPoisoned = 0;
  std::ostringstream shown;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(actual[i] == expected[i])) {
      const bool outputPoison = isPoison(actual[i]);
      const int poisonWords = outputPoison ? 0 : sharedPoisonCount(actual[i], expected[i]);
      if (poisonWords > 0) ++sharedPoisoned;
      if (mismatches < static_cast<std::size_t>(maxShown)) {
        shown << "\n  at " << where(i) << ": expected " << expected[i] << ", got ";
        if (outputPoison) {
          shown << "poison (never written)";
        } else {
          shown << actual[i];
          if (poisonWords > 1) shown << " (off by " << poisonWords << " shared-memory poison words)";
        }
      }
      ++mismatches;
    }
  }
  if (mismatches == 0) return {};
  std::ostringstream msg;
  msg << kernel << ": " << mismatches << " of " << n << " element(s) differ from the reference"
      << shown.str();
  if (mismatches > static_cast<std::size_t>(maxShown)) msg << "\n  ...";
  if (sharedPoisoned > 0) msg << "\n  " << sharedPoisonHint();
  return msg.str();
}

}  // namespace wb
