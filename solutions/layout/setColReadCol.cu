// Book 5.2.1.1 / 5.2.2.1: column store, column load.
// Lane i of a warp touches row i of one column. With 32-int rows every row
// starts in bank 0, so all lanes hit the same bank: a 32-way conflict on the
// square tile, and 16-way on the rectangle, whose columns are 16 rows long
// (lanes 0-15 walk one column, 16-31 the next, in the next bank).
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setColReadCol(int* out) {
  __shared__ int tile[kShape.dimX][kShape.dimY];  // indexed [x][y]: a column per warp
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  tile[threadIdx.x][threadIdx.y] = g;
  __syncthreads();
  out[g] = tile[threadIdx.x][threadIdx.y];
}
}  // namespace square

namespace rect {
__global__ void setColReadCol(int* out) {
  __shared__ int tile[kShape.dimY][kShape.dimX];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  // Split t so that consecutive threads walk down a 16-row column.
  const int irow = t / kShape.dimY;
  const int icol = t % kShape.dimY;
  tile[icol][irow] = g;
  __syncthreads();
  out[g] = tile[icol][irow];
}
}  // namespace rect

}  // namespace wb::layout
