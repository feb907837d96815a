// Book 5.2.1.4 / 5.2.2.4, end-of-chapter exercises 4 (square) and 7
// (rectangle): setColReadRow on a padded tile. Here the column access is the
// store, and a store meets the banks exactly as a load does: with rows `pad`
// ints longer than the data, a column's elements spread over 32 banks and
// the store becomes conflict-free. The row load was conflict-free already.
// The rectangle needs two ints of padding, for the reason setRowReadColPad
// gives.
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setColReadRowPad(int* out) {
  __shared__ int tile[kShape.dimY][kShape.dimX + kShape.pad];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  tile[threadIdx.x][threadIdx.y] = g;
  __syncthreads();
  out[g] = tile[threadIdx.y][threadIdx.x];
}
}  // namespace square

namespace rect {
__global__ void setColReadRowPad(int* out) {
  __shared__ int tile[kShape.dimY][kShape.dimX + kShape.pad];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  const int irow = t / kShape.dimY;
  const int icol = t % kShape.dimY;
  tile[icol][irow] = g;
  __syncthreads();
  out[g] = tile[threadIdx.y][threadIdx.x];
}
}  // namespace rect

}  // namespace wb::layout
