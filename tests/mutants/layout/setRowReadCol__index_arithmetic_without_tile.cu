// bug: computes the value another thread would have stored instead of
// reading it from the shared tile: the right output, without the technique
// expect: method
// Every value in the tile is a thread's global index g, so the column load
// can be replaced by arithmetic: the output is exactly right, and neither
// shared memory, its bank conflicts nor the barrier are left to study.
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setRowReadCol(int* out) {
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  // tile[threadIdx.x][threadIdx.y] held the g of the thread (ty, tx) swapped.
  out[g] = blockIdx.x * kShape.elements() + threadIdx.x * blockDim.x + threadIdx.y;
}
}  // namespace square

namespace rect {
__global__ void setRowReadCol(int* out) {
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  const int irow = t / kShape.dimY;
  const int icol = t % kShape.dimY;
  // tile[icol][irow] held the g of the thread at row icol, column irow.
  out[g] = blockIdx.x * kShape.elements() + icol * kShape.dimX + irow;
}
}  // namespace rect

}  // namespace wb::layout
