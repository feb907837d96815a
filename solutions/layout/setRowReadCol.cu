// Book 5.2.1.2 / 5.2.2.2: row store (conflict-free), column load (32-way on
// the square tile, 16-way on the rectangle). The output is the tile
// transposed: the building block of the transpose in section 5.4.
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setRowReadCol(int* out) {
  __shared__ int tile[kShape.dimY][kShape.dimX];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  tile[threadIdx.y][threadIdx.x] = g;
  __syncthreads();
  out[g] = tile[threadIdx.x][threadIdx.y];
}
}  // namespace square

namespace rect {
__global__ void setRowReadCol(int* out) {
  __shared__ int tile[kShape.dimY][kShape.dimX];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  // The tile is 16 rows high, so a column read cannot simply swap tx and ty:
  // re-split the linear index into (column position, row position).
  const int irow = t / kShape.dimY;
  const int icol = t % kShape.dimY;
  tile[threadIdx.y][threadIdx.x] = g;
  __syncthreads();
  out[g] = tile[icol][irow];
}
}  // namespace rect

}  // namespace wb::layout
