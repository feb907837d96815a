// Book 5.2.1.3 / 5.2.2.3, end-of-chapter exercise 3: setColReadRow with the
// tile in dynamic shared memory. As in setRowReadColDyn the kernel computes
// the offsets of the flat `extern __shared__` array itself; here the column
// offset goes with the store (which conflicts: 32-way square, 16-way
// rectangle) and the row offset with the load (conflict-free).
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setColReadRowDyn(int* out) {
  extern __shared__ int tile[];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  const int colOffset = threadIdx.x * kShape.dimX + threadIdx.y;  // (tx, ty)
  const int rowOffset = threadIdx.y * kShape.dimX + threadIdx.x;  // (ty, tx)
  tile[colOffset] = g;
  __syncthreads();
  out[g] = tile[rowOffset];
}
}  // namespace square

namespace rect {
__global__ void setColReadRowDyn(int* out) {
  extern __shared__ int tile[];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  const int irow = t / kShape.dimY;
  const int icol = t % kShape.dimY;
  const int colOffset = icol * kShape.dimX + irow;  // element (icol, irow)
  tile[colOffset] = g;
  __syncthreads();
  out[g] = tile[t];  // row-major load: the linear index is the row offset
}
}  // namespace rect

}  // namespace wb::layout
