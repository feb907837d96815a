// bug: pads the rectangle's rows by one int, as on the square tile: lanes i
// and i + 15 of the column store still meet in one bank (2-way), and the tile
// is 16 x 33 ints instead of the contract's 16 x 34
// expect: tests
// GpuLayout.DeclaresItsSharedTile finds 2112 bytes where the contract says
// 2176; the profile check would find 2 wavefronts per store request.
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
  __shared__ int tile[kShape.dimY][kShape.dimX + 1];
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
