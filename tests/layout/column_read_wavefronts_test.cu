// Host tests of the wavefront-counting exercise (book section 5.2.1.2, the
// book's end-of-chapter exercise 5), wb::layout::sharedWavefrontsPerRequest.
// They run on the CPU and judge each implementation (starter, solutions),
// each linked into its own copy of these tests. Every call of the
// exercise's function is made in a child process (wb::callIsolatedEach),
// and every expected count is worked out here, in the test process.
#include <gtest/gtest.h>

#include <climits>
#include <cstddef>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "layout/layout.cuh"
#include "wb/isolated.h"
#include "wb/isolated_expect.h"

namespace wb::layout {
namespace {

struct Read {
  int tileSide, rowPitch;
  bool readColumn;
};

std::string describe(const Read& r) {
  return "sharedWavefrontsPerRequest(" + std::to_string(r.tileSide) + ", " +
         std::to_string(r.rowPitch) + ", " + (r.readColumn ? "true" : "false") + ")";
}

// Calls the exercise on every read in one child process; the results in the
// same order.
std::vector<IsolatedResult> wavefronts(const std::vector<Read>& reads) {
  return callIsolatedEach(reads.size(), [&reads](std::size_t i) {
    return static_cast<double>(
        sharedWavefrontsPerRequest(reads[i].tileSide, reads[i].rowPitch, reads[i].readColumn));
  });
}

struct Case {
  Read read;
  int expected;
  const char* why;
};

// Wrong cases reported one by one; the rest are counted.
constexpr int kReportedMismatches = 6;

void expectWavefronts(const std::vector<Case>& cases) {
  std::vector<Read> reads;
  for (const Case& c : cases) reads.push_back(c.read);
  const std::vector<IsolatedResult> got = wavefronts(reads);
  int wrong = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    if (got[i].kind == IsolatedResult::Kind::Returned && got[i].value == c.expected) continue;
    if (++wrong <= kReportedMismatches) {
      ADD_FAILURE() << describe(c.read) << " " << got[i].describe() << "; expected " << c.expected
                    << " (" << c.why << ")";
    }
  }
  EXPECT_EQ(wrong, 0) << wrong << " of " << cases.size() << " reads got a wrong count";
}

TEST(HostColumnReadWavefronts, MeasuredOnAnH100) {
  // Nsight Compute's shared-memory wavefronts per request of one block's
  // column and row reads, 32 x 32 and 16 x 16
  // (docs/results/book-exercises-nvidia-h100.md, "Exercise 5"), and of
  // setRowReadColPad's padded column read, which the suite's profile test
  // holds to one wavefront on the same GPU.
  expectWavefronts({
      {{32, 32, true}, 32, "every lane reads bank ty: 32-way"},
      {{32, 32, false}, 1, "32 consecutive words"},
      {{16, 16, true}, 8, "lane tx + 16 ty reads word 16 tx + ty: 4 banks, 8 words each"},
      {{16, 16, false}, 1, "two rows of 16 words are 32 consecutive words"},
      {{32, 33, true}, 1, "the padding starts row tx in bank tx"},
  });
}

TEST(HostColumnReadWavefronts, PaddedAndSmallerTiles) {
  expectWavefronts({
      // Word 17 tx + ty: column 0 of row 0 and column 1 of row 15 (word
      // 256) are both in bank 0; every other bank has one word at most.
      {{16, 17, true}, 2, "word 0 and word 256 share bank 0"},
      // Rows 0 and 1 are words 0-15 and 17-32: words 0 and 32 share bank 0.
      {{16, 17, false}, 2, "word 0 and word 32 share bank 0"},
      // A warp is four rows of 8; word 8 tx + ty is in bank 8 (tx mod 4) + ty,
      // so tx and tx + 4 meet.
      {{8, 8, true}, 2, "columns tx and tx + 4 share banks"},
      {{8, 8, false}, 1, "four rows of 8 words are 32 consecutive words"},
      // The block has only 16 threads: words 4 tx + ty are 0 to 15.
      {{4, 4, true}, 1, "16 lanes, 16 different banks"},
      {{4, 4, false}, 1, "16 lanes, 16 different banks"},
      {{1, 1, true}, 1, "one thread, one word"},
      {{1, 1, false}, 1, "one thread, one word"},
      // A 16 x 16 block in rows of 32 ints: lane tx + 16 ty reads bank ty.
      {{16, 32, true}, 16, "banks 0 and 1, 16 words each"},
  });
}

TEST(HostColumnReadWavefronts, ThirtyTwoWideColumnReadIsTheGcdOfPitchAnd32) {
  // With a 32-wide block the first warp is row ty = 0: lane tx reads word
  // rowPitch * tx, and banks repeat every 32 / gcd(rowPitch, 32) lanes, so
  // gcd(rowPitch, 32) lanes share each bank.
  std::vector<Case> cases;
  for (int rowPitch = 32; rowPitch <= 96; ++rowPitch) {
    cases.push_back({{32, rowPitch, true}, std::gcd(rowPitch, 32), "gcd(rowPitch, 32)"});
  }
  for (const int rowPitch : {(1 << 30) + 16, (1 << 30) + 1, INT_MAX - 7, INT_MAX}) {
    cases.push_back({{32, rowPitch, true}, std::gcd(rowPitch, 32), "gcd(rowPitch, 32)"});
  }
  expectWavefronts(cases);
}

TEST(HostColumnReadWavefronts, LargeRowPitchesDoNotOverflow) {
  // tx * rowPitch + ty passes the largest int here. Computed in int it
  // wraps to negative words, whose negative remainders fall in no bank.
  expectWavefronts({
      // INT_MAX = -1 (mod 32): word tx * rowPitch + ty is in bank
      // (ty - tx) mod 32, and the 4 lanes with tx = ty share bank 0.
      {{4, INT_MAX, true}, 4, "lanes tx = ty share bank 0"},
      {{4, INT_MAX, false}, 4, "lanes tx = ty share bank 0"},
      // Rows 0 to 3 of 8 threads: again tx = ty for tx from 0 to 3.
      {{8, INT_MAX, true}, 4, "lanes tx = ty share bank 0"},
      // 2^30 + 1 = 1 (mod 32): bank tx + ty, which is 3 for 4 lanes.
      {{4, (1 << 30) + 1, true}, 4, "lanes with tx + ty = 3 share bank 3"},
  });
}

TEST(HostColumnReadWavefronts, ThirtyTwoWideRowReadIsConflictFree) {
  // Row ty = 0 again, read along: 32 consecutive words, whatever the pitch.
  std::vector<Case> cases;
  for (const int rowPitch : {32, 33, 34, 48, 64, 1000, INT_MAX}) {
    cases.push_back({{32, rowPitch, false}, 1, "32 consecutive words"});
  }
  expectWavefronts(cases);
}

TEST(HostColumnReadWavefronts, RejectsInvalidArguments) {
  // Each with the argument its message must name.
  const std::vector<std::pair<Read, std::string>> cases = {
      {{0, 32, true}, "tileSide"},   {{-1, 32, false}, "tileSide"},
      {{33, 33, true}, "tileSide"},  {{64, 64, false}, "tileSide"},
      {{16, 15, true}, "rowPitch"},  {{32, 31, false}, "rowPitch"},
      {{1, 0, true}, "rowPitch"},
  };
  std::vector<Read> reads;
  for (const auto& c : cases) reads.push_back(c.first);
  const std::vector<IsolatedResult> got = wavefronts(reads);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    expectInvalidArgumentNaming(got[i], describe(cases[i].first), cases[i].second);
  }
}

}  // namespace
}  // namespace wb::layout
