// Exercise setRowReadCol (book section 5.2.1.2 and 5.2.2.2). Row store, column load.
// The contract is in chapters/layout/layout.cuh; setRowReadRow.cu beside this
// file is the worked example to start from. Your value for a thread is
//   g = blockIdx.x * kShape.elements() + threadIdx.y * blockDim.x + threadIdx.x
// and it is stored, and later written, at out[g] of the global output.
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setRowReadCol(int* out) {
  // TODO(book 5.2.1.2): store g into a static tile by rows, wait for the
  // block, load by columns and write what you loaded to out[g].
  // Contract: square::setRowReadCol in chapters/layout/layout.cuh.
  // Roughly 6 lines; `./workbook hint setRowReadCol` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)out;
}
}  // namespace square

namespace rect {
__global__ void setRowReadCol(int* out) {
  // TODO(book 5.2.2.2): the same row store and column load on the 32 x 16 tile.
  // Contract: rect::setRowReadCol in chapters/layout/layout.cuh.
  // Roughly 8 lines; `./workbook hint setRowReadCol` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)out;
}
}  // namespace rect

}  // namespace wb::layout
