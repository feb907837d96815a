// Exercise setColReadCol (book section 5.2.1.1 and 5.2.2.1). Column store, column load.
// The contract is in chapters/layout/layout.cuh; setRowReadRow.cu beside this
// file is the worked example to start from. Your value for a thread is
//   g = blockIdx.x * kShape.elements() + threadIdx.y * blockDim.x + threadIdx.x
// and it is stored, and later written, at out[g] of the global output.
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setColReadCol(int* out) {
  // TODO(book 5.2.1.1): Column store, column load.
  // Declare a static shared tile. Store this thread's value g column-wise
  // (square: tile[threadIdx.x][threadIdx.y]), call __syncthreads(), then
  // read the same element back and write it to out[g].
  // Until then the kernel writes nothing and its tests fail.
  (void)out;
}
}  // namespace square

namespace rect {
__global__ void setColReadCol(int* out) {
  // TODO(book 5.2.2.1): Column store, column load.
  // Declare a static shared tile. Store this thread's value g column-wise
  // (square: tile[threadIdx.x][threadIdx.y]), call __syncthreads(), then
  // read the same element back and write it to out[g].
  // Rectangle: split t = threadIdx.y * blockDim.x + threadIdx.x into irow =
  // t / kShape.dimY and icol = t % kShape.dimY and use tile[icol][irow] for
  // both the store and the load.
  // Until then the kernel writes nothing and its tests fail.
  (void)out;
}
}  // namespace rect

}  // namespace wb::layout
