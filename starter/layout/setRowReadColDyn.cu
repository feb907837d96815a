// Exercise setRowReadColDyn (book section 5.2.1.3 and 5.2.2.3). setRowReadCol with dynamic shared memory.
// The contract is in chapters/layout/layout.cuh; setRowReadRow.cu beside this
// file is the worked example to start from. Your value for a thread is
//   g = blockIdx.x * kShape.elements() + threadIdx.y * blockDim.x + threadIdx.x
// and it is stored, and later written, at out[g] of the global output.
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setRowReadColDyn(int* out) {
  // TODO(book 5.2.1.3): setRowReadCol with dynamic shared memory.
  // Declare the tile as `extern __shared__ int tile[];` (its size is the
  // launch's third parameter, see wb::layout::launch). Compute the row-
  // major and the column-major offsets into the 1-D array yourself.
  // Until then the kernel writes nothing and its tests fail.
  (void)out;
}
}  // namespace square

namespace rect {
__global__ void setRowReadColDyn(int* out) {
  // TODO(book 5.2.2.3): setRowReadCol with dynamic shared memory.
  // Declare the tile as `extern __shared__ int tile[];` (its size is the
  // launch's third parameter, see wb::layout::launch). Compute the row-
  // major and the column-major offsets into the 1-D array yourself.
  // Rectangle: the column element (icol, irow) is at offset icol *
  // kShape.dimX + irow.
  // Until then the kernel writes nothing and its tests fail.
  (void)out;
}
}  // namespace rect

}  // namespace wb::layout
