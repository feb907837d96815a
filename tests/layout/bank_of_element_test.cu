// Host tests of the bank-mapping exercise (book section 5.2.1.4, the book's
// end-of-chapter exercise 1), wb::layout::bankOfElement. They run on the CPU
// and judge each implementation (starter, solutions), each linked into its
// own copy of these tests. Every call of the exercise's function is made in
// a child process (wb::callIsolated, wb::callIsolatedEach), and every
// expected bank is worked out here, in the test process.
#include <gtest/gtest.h>

#include <climits>
#include <cstddef>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "layout/layout.cuh"
#include "wb/isolated.h"
#include "wb/isolated_expect.h"

namespace wb::layout {
namespace {

constexpr int kTileRows = 32;

struct Element {
  int row, col, rowPitch;
};

std::string describe(const Element& e) {
  return "bankOfElement(" + std::to_string(e.row) + ", " + std::to_string(e.col) + ", " +
         std::to_string(e.rowPitch) + ")";
}

// Calls bankOfElement on every element in one child process; the results in
// the same order.
std::vector<IsolatedResult> banks(const std::vector<Element>& elements) {
  return callIsolatedEach(elements.size(), [&elements](std::size_t i) {
    return static_cast<double>(bankOfElement(elements[i].row, elements[i].col,
                                             elements[i].rowPitch));
  });
}

// Wrong elements reported one by one; the rest are counted.
constexpr int kReportedMismatches = 5;

// Calls bankOfElement on every element and compares each result with its
// expected bank: a wrong formula gets a few examples and a count, not a
// line per element of the tile.
void expectBanks(const std::vector<Element>& elements, const std::vector<int>& expected) {
  const std::vector<IsolatedResult> got = banks(elements);
  int wrong = 0;
  for (std::size_t i = 0; i < elements.size(); ++i) {
    if (got[i].kind == IsolatedResult::Kind::Returned && got[i].value == expected[i]) continue;
    if (++wrong <= kReportedMismatches) {
      ADD_FAILURE() << describe(elements[i]) << " " << got[i].describe() << "; expected bank "
                    << expected[i];
    }
  }
  EXPECT_EQ(wrong, 0) << wrong << " of " << elements.size() << " elements got a wrong answer";
}

// Every element of a tile of 32 rows of rowPitch words, row by row.
std::vector<Element> wholeTile(int rowPitch) {
  std::vector<Element> elements;
  for (int row = 0; row < kTileRows; ++row) {
    for (int col = 0; col < rowPitch; ++col) elements.push_back({row, col, rowPitch});
  }
  return elements;
}

TEST(HostBankOfElement, UnpaddedTileBankIsTheColumn) {
  // int tile[32][32]: every row starts in bank 0, so [row][col] is in bank col.
  const std::vector<Element> elements = wholeTile(32);
  std::vector<int> expected;
  for (const Element& e : elements) expected.push_back(e.col);
  expectBanks(elements, expected);
}

TEST(HostBankOfElement, PaddedTileShiftsEachRowByOneBank) {
  // int tile[32][33]: row r starts at word 33r, in bank r, so [row][col] is
  // in bank (row + col) mod 32; the padding word of each row included.
  const std::vector<Element> elements = wholeTile(33);
  std::vector<int> expected;
  for (const Element& e : elements) expected.push_back((e.row + e.col) % 32);
  expectBanks(elements, expected);
}

TEST(HostBankOfElement, PaddedColumnCoversEveryBank) {
  // The point of the padding: the 32 elements of any column of tile[32][33]
  // lie in 32 different banks; of tile[32][32], in one.
  for (const int col : {0, 7, 31}) {
    std::vector<Element> padded, unpadded;
    for (int row = 0; row < kTileRows; ++row) {
      padded.push_back({row, col, 33});
      unpadded.push_back({row, col, 32});
    }
    std::set<double> paddedBanks, unpaddedBanks;
    for (const IsolatedResult& r : banks(padded)) {
      ASSERT_EQ(r.kind, IsolatedResult::Kind::Returned) << r.describe();
      paddedBanks.insert(r.value);
    }
    for (const IsolatedResult& r : banks(unpadded)) {
      ASSERT_EQ(r.kind, IsolatedResult::Kind::Returned) << r.describe();
      unpaddedBanks.insert(r.value);
    }
    EXPECT_EQ(paddedBanks.size(), 32u) << "column " << col << " of int tile[32][33]";
    EXPECT_EQ(unpaddedBanks.size(), 1u) << "column " << col << " of int tile[32][32]";
  }
}

TEST(HostBankOfElement, OtherRowPitches) {
  const std::vector<Element> elements = {
      {1, 0, 34},   // two words of padding (the rectangle's): row 1 starts in bank 2
      {15, 3, 34},  // 15 * 34 + 3 = 513: bank 1
      {1, 5, 16},   // rows of 16: row 1 starts half way round, bank 16 + 5
      {2, 5, 16},   // word 37: bank 5 again
      {40, 0, 1},   // one word per row: word 40, bank 8
      {3, 2, 48},   // word 146: bank 18
  };
  expectBanks(elements, {2, 1, 21, 5, 8, 18});
}

TEST(HostBankOfElement, LargeRowsDoNotOverflow) {
  const std::vector<Element> elements = {
      // (2^26 + 1) * 33 passes 2^31: as an int it wraps to a negative word,
      // whose remainder is negative. The word is 33 * 2^26 + 33, bank 1.
      {(1 << 26) + 1, 0, 33},
      // Word INT_MAX * 33 + 32; INT_MAX = 31 (mod 32), so bank (31 + 0) = 31.
      {INT_MAX, 32, 33},
      // Word INT_MAX^2 + INT_MAX - 1 needs 63 bits: 31 * 31 + 30 = 991, bank 31.
      {INT_MAX, INT_MAX - 1, INT_MAX},
  };
  expectBanks(elements, {1, 31, 31});
}

TEST(HostBankOfElement, RejectsInvalidArguments) {
  // Each with the argument its message must name.
  const std::vector<std::pair<Element, std::string>> cases = {
      {{-1, 0, 32}, "row"},       {{0, -1, 32}, "col"},      {{0, 0, 0}, "rowPitch"},
      {{0, 0, -33}, "rowPitch"},  {{0, 32, 32}, "col"},      {{5, 40, 33}, "col"},
  };
  std::vector<Element> elements;
  for (const auto& c : cases) elements.push_back(c.first);
  const std::vector<IsolatedResult> got = banks(elements);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    expectInvalidArgumentNaming(got[i], describe(cases[i].first), cases[i].second);
  }
}

}  // namespace
}  // namespace wb::layout
