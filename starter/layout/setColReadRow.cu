// Exercise setColReadRow (book section 5.2.1.2 and 5.2.2.2). Column store, row load.
// The contract is in chapters/layout/layout.cuh; setRowReadRow.cu beside this
// file is the worked example to start from. Your value for a thread is
//   g = blockIdx.x * kShape.elements() + threadIdx.y * blockDim.x + threadIdx.x
// and it is stored, and later written, at out[g] of the global output.
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setColReadRow(int* out) {
  // TODO(book 5.2.1.2): Column store, row load.
  // Store g column-wise, __syncthreads(), then load row-wise
  // (tile[threadIdx.y][threadIdx.x]) and write the value to out[g]. The
  // output is each block's tile transposed.
  // Until then the kernel writes nothing and its tests fail.
  (void)out;
}
}  // namespace square

namespace rect {
__global__ void setColReadRow(int* out) {
  // TODO(book 5.2.2.2): Column store, row load.
  // Store g column-wise, __syncthreads(), then load row-wise
  // (tile[threadIdx.y][threadIdx.x]) and write the value to out[g]. The
  // output is each block's tile transposed.
  // Rectangle: the column store uses tile[icol][irow] with irow = t /
  // kShape.dimY, icol = t % kShape.dimY.
  // Until then the kernel writes nothing and its tests fail.
  (void)out;
}
}  // namespace rect

}  // namespace wb::layout
