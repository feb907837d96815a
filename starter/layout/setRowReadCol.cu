// Exercise setRowReadCol (book section 5.2.1.2 and 5.2.2.2). Row store, column load.
// The contract is in chapters/layout/layout.cuh; setRowReadRow.cu beside this
// file is the worked example to start from. Your value for a thread is
//   g = blockIdx.x * kShape.elements() + threadIdx.y * blockDim.x + threadIdx.x
// and it is stored, and later written, at out[g] of the global output.
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setRowReadCol(int* out) {
  // TODO(book 5.2.1.2): Row store, column load.
  // Store g row-wise (tile[threadIdx.y][threadIdx.x]), __syncthreads(),
  // then load column-wise and write the value to out[g].
  // Until then the kernel writes nothing and its tests fail.
  (void)out;
}
}  // namespace square

namespace rect {
__global__ void setRowReadCol(int* out) {
  // TODO(book 5.2.2.2): Row store, column load.
  // Store g row-wise (tile[threadIdx.y][threadIdx.x]), __syncthreads(),
  // then load column-wise and write the value to out[g].
  // Rectangle: the tile is 16 rows high, so the column load is
  // tile[icol][irow] with irow = t / kShape.dimY and icol = t %
  // kShape.dimY.
  // Until then the kernel writes nothing and its tests fail.
  (void)out;
}
}  // namespace rect

}  // namespace wb::layout
