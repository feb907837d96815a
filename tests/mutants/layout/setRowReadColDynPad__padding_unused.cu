// bug: the launch reserves a padded tile but both offsets use the unpadded
// pitch, so the column load keeps its 32-way (square) and 16-way (rectangle)
// bank conflict; the output is still right
// expect: profile
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setRowReadColDynPad(int* out) {
  extern __shared__ int tile[];
  constexpr int pitch = kShape.dimX;
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  tile[threadIdx.y * pitch + threadIdx.x] = g;
  __syncthreads();
  out[g] = tile[threadIdx.x * pitch + threadIdx.y];
}
}  // namespace square

namespace rect {
__global__ void setRowReadColDynPad(int* out) {
  extern __shared__ int tile[];
  constexpr int pitch = kShape.dimX;
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  const int irow = t / kShape.dimY;
  const int icol = t % kShape.dimY;
  tile[threadIdx.y * pitch + threadIdx.x] = g;
  __syncthreads();
  out[g] = tile[icol * pitch + irow];
}
}  // namespace rect

}  // namespace wb::layout
