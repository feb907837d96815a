// bug: the square tile gets its padding as an extra row,
// `tile[kShape.dimY + kShape.pad][kShape.dimX]`, not at the end of every row:
// as many bytes, but every row still starts in bank 0, so the column store
// keeps its 32-way conflict; the output is right
// expect: profile
// The declared size is the contract's (33 x 32 ints = 32 x 33 ints), so only
// Nsight Compute's wavefronts per request tell it from the solution.
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setColReadRowPad(int* out) {
  __shared__ int tile[kShape.dimY + kShape.pad][kShape.dimX];
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
