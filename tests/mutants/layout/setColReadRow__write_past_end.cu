// bug: the global index is off by one, so the last thread of the last block
// writes one element past the end of the output (and every other element
// lands one place late)
// expect: tests
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setColReadRow(int* out) {
  __shared__ int tile[kShape.dimY][kShape.dimX];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  tile[threadIdx.x][threadIdx.y] = g;
  __syncthreads();
  out[g + 1] = tile[threadIdx.y][threadIdx.x];
}
}  // namespace square

namespace rect {
__global__ void setColReadRow(int* out) {
  __shared__ int tile[kShape.dimY][kShape.dimX];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  const int irow = t / kShape.dimY;
  const int icol = t % kShape.dimY;
  tile[icol][irow] = g;
  __syncthreads();
  out[g + 1] = tile[threadIdx.y][threadIdx.x];
}
}  // namespace rect

}  // namespace wb::layout
