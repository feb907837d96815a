// bug: the last thread of every block skips its global write (a guard that
// is one too strict), leaving one element per block unwritten
// expect: tests
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setColReadCol(int* out) {
  __shared__ int tile[kShape.dimX][kShape.dimY];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  tile[threadIdx.x][threadIdx.y] = g;
  __syncthreads();
  if (t < kShape.elements() - 1) out[g] = tile[threadIdx.x][threadIdx.y];
}
}  // namespace square

namespace rect {
__global__ void setColReadCol(int* out) {
  __shared__ int tile[kShape.dimY][kShape.dimX];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  const int irow = t / kShape.dimY;
  const int icol = t % kShape.dimY;
  tile[icol][irow] = g;
  __syncthreads();
  if (t < kShape.elements() - 1) out[g] = tile[icol][irow];
}
}  // namespace rect

}  // namespace wb::layout
