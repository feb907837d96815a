// Exercise setColReadRowDyn (book section 5.2.1.3 and 5.2.2.3, end-of-chapter exercise 3). setColReadRow with dynamic shared memory.
// The contract is in chapters/layout/layout.cuh; setRowReadRow.cu beside this
// file is the worked example to start from. Your value for a thread is
//   g = blockIdx.x * kShape.elements() + threadIdx.y * blockDim.x + threadIdx.x
// and it is stored, and later written, at out[g] of the global output.
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setColReadRowDyn(int* out) {
  // TODO(book 5.2.1.3): setColReadRow with the tile in dynamic shared memory,
  // a flat array whose offsets you compute yourself.
  // Contract: square::setColReadRowDyn in chapters/layout/layout.cuh.
  // Roughly 8 lines; `./workbook hint setColReadRowDyn` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)out;
}
}  // namespace square

namespace rect {
__global__ void setColReadRowDyn(int* out) {
  // TODO(book 5.2.2.3): the same on the 32 x 16 tile.
  // Contract: rect::setColReadRowDyn in chapters/layout/layout.cuh.
  // Roughly 9 lines; `./workbook hint setColReadRowDyn` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)out;
}
}  // namespace rect

}  // namespace wb::layout
