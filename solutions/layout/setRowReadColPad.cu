// Book 5.2.1.4 / 5.2.2.4: setRowReadCol on a padded tile. Each row is `pad`
// ints longer than the data, so row r starts r * pad banks further along and
// a column's elements spread over different banks. The square tile needs one
// int; the 16-row rectangle needs two, because with one its column read still
// sends lane i and lane i + 15 to the same bank (2-way).
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setRowReadColPad(int* out) {
  __shared__ int tile[kShape.dimY][kShape.dimX + kShape.pad];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  tile[threadIdx.y][threadIdx.x] = g;
  __syncthreads();
  out[g] = tile[threadIdx.x][threadIdx.y];
}
}  // namespace square

namespace rect {
__global__ void setRowReadColPad(int* out) {
  __shared__ int tile[kShape.dimY][kShape.dimX + kShape.pad];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  const int irow = t / kShape.dimY;
  const int icol = t % kShape.dimY;
  tile[threadIdx.y][threadIdx.x] = g;
  __syncthreads();
  out[g] = tile[icol][irow];
}
}  // namespace rect

}  // namespace wb::layout
