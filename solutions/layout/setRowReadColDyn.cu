// Book 5.2.1.3 / 5.2.2.3: setRowReadCol with the tile in dynamic shared
// memory. An `extern __shared__` array is one-dimensional and sized by the
// third launch parameter, so the kernel computes both offsets itself. The
// bank behaviour is that of the static tile: it is the same bytes.
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setRowReadColDyn(int* out) {
  extern __shared__ int tile[];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  const int rowOffset = threadIdx.y * kShape.dimX + threadIdx.x;  // (ty, tx)
  const int colOffset = threadIdx.x * kShape.dimX + threadIdx.y;  // (tx, ty)
  tile[rowOffset] = g;
  __syncthreads();
  out[g] = tile[colOffset];
}
}  // namespace square

namespace rect {
__global__ void setRowReadColDyn(int* out) {
  extern __shared__ int tile[];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  const int irow = t / kShape.dimY;
  const int icol = t % kShape.dimY;
  const int colOffset = icol * kShape.dimX + irow;  // element (icol, irow)
  tile[t] = g;  // row-major store: the linear index is the row offset
  __syncthreads();
  out[g] = tile[colOffset];
}
}  // namespace rect

}  // namespace wb::layout
