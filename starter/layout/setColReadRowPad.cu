// Exercise setColReadRowPad (book section 5.2.1.4 and 5.2.2.4, end-of-chapter exercises 4 and 7). setColReadRow on a padded static tile.
// The contract is in chapters/layout/layout.cuh; setRowReadRow.cu beside this
// file is the worked example to start from. Your value for a thread is
//   g = blockIdx.x * kShape.elements() + threadIdx.y * blockDim.x + threadIdx.x
// and it is stored, and later written, at out[g] of the global output.
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setColReadRowPad(int* out) {
  // TODO(book 5.2.1.4): setColReadRow on a static tile with padded rows, so
  // that the column store is free of bank conflicts.
  // Contract: square::setColReadRowPad in chapters/layout/layout.cuh.
  // Roughly 6 lines; `./workbook hint setColReadRowPad` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)out;
}
}  // namespace square

namespace rect {
__global__ void setColReadRowPad(int* out) {
  // TODO(book 5.2.2.4): the same on the 32 x 16 tile, where the column store
  // must also end up conflict-free.
  // Contract: rect::setColReadRowPad in chapters/layout/layout.cuh.
  // Roughly 8 lines; `./workbook hint setColReadRowPad` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)out;
}
}  // namespace rect

}  // namespace wb::layout
