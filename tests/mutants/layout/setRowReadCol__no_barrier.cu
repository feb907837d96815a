// bug: no __syncthreads() between the row store and the column load, so a
// thread may read an element another warp has not written yet
// expect: tests
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setRowReadCol(int* out) {
  __shared__ int tile[kShape.dimY][kShape.dimX];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  tile[threadIdx.y][threadIdx.x] = g;
  out[g] = tile[threadIdx.x][threadIdx.y];
}
}  // namespace square

namespace rect {
__global__ void setRowReadCol(int* out) {
  __shared__ int tile[kShape.dimY][kShape.dimX];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  const int irow = t / kShape.dimY;
  const int icol = t % kShape.dimY;
  tile[threadIdx.y][threadIdx.x] = g;
  out[g] = tile[icol][irow];
}
}  // namespace rect

}  // namespace wb::layout
