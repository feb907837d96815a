// Exercise setColReadCol (book section 5.2.1.1 and 5.2.2.1). Column store, column load.
// The contract is in chapters/layout/layout.cuh; setRowReadRow.cu beside this
// file is the worked example to start from. Your value for a thread is
//   g = blockIdx.x * kShape.elements() + threadIdx.y * blockDim.x + threadIdx.x
// and it is stored, and later written, at out[g] of the global output.
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setColReadCol(int* out) {
  // TODO(book 5.2.1.1): store g into a static shared tile by columns, wait
  // for the whole block, read the same element back and write it to out[g].
  // Contract: square::setColReadCol in chapters/layout/layout.cuh.
  // Roughly 6 lines; `./workbook hint setColReadCol` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)out;
}
}  // namespace square

namespace rect {
__global__ void setColReadCol(int* out) {
  // TODO(book 5.2.2.1): the same column store and column load on the 32 x 16
  // tile, whose columns are only 16 rows long.
  // Contract: rect::setColReadCol in chapters/layout/layout.cuh.
  // Roughly 8 lines; `./workbook hint setColReadCol` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)out;
}
}  // namespace rect

}  // namespace wb::layout
