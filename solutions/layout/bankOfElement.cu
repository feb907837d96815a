// Book 5.2.1.4, end-of-chapter exercise 1: which bank holds each element of
// a shared tile. The 32 banks are 4 bytes wide, so word w of the tile is in
// bank w mod 32, and element [row][col] is word row * rowPitch + col. With
// rows of 32 words every row starts in bank 0, and a column stays in one
// bank; one word of padding (rows of 33) starts row r in bank r mod 32, so
// the bank of [row][col] is (row + col) mod 32 and a column covers all 32.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "layout/layout.cuh"

namespace wb::layout {

int bankOfElement(int row, int col, int rowPitch) {
  if (row < 0) {
    throw std::invalid_argument("bankOfElement: row must be 0 or more, got " +
                                std::to_string(row));
  }
  if (rowPitch < 1) {
    throw std::invalid_argument("bankOfElement: rowPitch must be at least 1 word, got " +
                                std::to_string(rowPitch));
  }
  if (col < 0 || col >= rowPitch) {
    throw std::invalid_argument("bankOfElement: col must be from 0 to rowPitch - 1 = " +
                                std::to_string(rowPitch - 1) + ", got " + std::to_string(col));
  }
  // In 64 bits: row * rowPitch passes the largest int long before the row
  // is unreasonable, and a wrapped product would give a negative remainder.
  const std::int64_t word = static_cast<std::int64_t>(row) * rowPitch + col;
  return static_cast<int>(word % bank::kNumBanks);
}

}  // namespace wb::layout
