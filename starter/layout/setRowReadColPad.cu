// Exercise setRowReadColPad (book section 5.2.1.4 and 5.2.2.4). setRowReadCol on a padded static tile.
// The contract is in chapters/layout/layout.cuh; setRowReadRow.cu beside this
// file is the worked example to start from. Your value for a thread is
//   g = blockIdx.x * kShape.elements() + threadIdx.y * blockDim.x + threadIdx.x
// and it is stored, and later written, at out[g] of the global output.
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setRowReadColPad(int* out) {
  // TODO(book 5.2.1.4): setRowReadCol on a padded static tile.
  // Add kShape.pad ints to every tile row: `__shared__ int
  // tile[kShape.dimY][kShape.dimX + kShape.pad];`. Store row-wise,
  // __syncthreads(), load column-wise, write to out[g].
  // Until then the kernel writes nothing and its tests fail.
  (void)out;
}
}  // namespace square

namespace rect {
__global__ void setRowReadColPad(int* out) {
  // TODO(book 5.2.2.4): setRowReadCol on a padded static tile.
  // Add kShape.pad ints to every tile row: `__shared__ int
  // tile[kShape.dimY][kShape.dimX + kShape.pad];`. Store row-wise,
  // __syncthreads(), load column-wise, write to out[g].
  // The profile tests check that the column load is conflict-free (1
  // wavefront per request).
  // Until then the kernel writes nothing and its tests fail.
  (void)out;
}
}  // namespace rect

}  // namespace wb::layout
