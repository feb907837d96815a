// Exercise bankOfElement (book section 5.2.1.4; the book's end-of-chapter
// exercise 1). Which bank holds an element of a shared tile, padded or not;
// tested on the CPU.
// The contract is in chapters/layout/layout.cuh.
#include <stdexcept>

#include "layout/layout.cuh"

namespace wb::layout {

int bankOfElement(int row, int col, int rowPitch) {
  // TODO(book 5.2.1.4): return the bank (32 banks, 4 bytes wide) holding
  // word [row][col] of a tile whose rows start rowPitch words apart.
  // Contract: bankOfElement in chapters/layout/layout.cuh.
  // Roughly 11 lines; `./workbook hint bankOfElement` gives it step by step.
  // Until then it returns -1 and its tests fail.
  (void)row;
  (void)col;
  (void)rowPitch;
  return -1;
}

}  // namespace wb::layout
