// bug: computes the word row * rowPitch + col in int: past 2^31 the product
// wraps to a negative word, whose remainder is a negative bank
// expect: host
#include <stdexcept>

#include "layout/layout.cuh"

namespace wb::layout {

int bankOfElement(int row, int col, int rowPitch) {
  if (row < 0) throw std::invalid_argument("row must be 0 or more");
  if (rowPitch < 1) throw std::invalid_argument("rowPitch must be at least 1");
  if (col < 0 || col >= rowPitch) throw std::invalid_argument("col must be below rowPitch");
  // Unsigned arithmetic wraps as the hardware's int multiply does, without
  // the undefined behaviour of a signed overflow.
  const unsigned int wrapped = static_cast<unsigned int>(row) * static_cast<unsigned int>(rowPitch) +
                               static_cast<unsigned int>(col);
  const int word = static_cast<int>(wrapped);
  return word % 32;
}

}  // namespace wb::layout
