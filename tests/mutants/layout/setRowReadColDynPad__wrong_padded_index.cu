// bug: the store uses the padded pitch but the load uses the unpadded one,
// so threads read the wrong elements
// expect: tests
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setRowReadColDynPad(int* out) {
  extern __shared__ int tile[];
  constexpr int pitch = kShape.dimX + kShape.pad;
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  tile[threadIdx.y * pitch + threadIdx.x] = g;
  __syncthreads();
  out[g] = tile[threadIdx.x * kShape.dimX + threadIdx.y];
}
}  // namespace square

namespace rect {
__global__ void setRowReadColDynPad(int* out) {
  extern __shared__ int tile[];
  constexpr int pitch = kShape.dimX + kShape.pad;
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  const int irow = t / kShape.dimY;
  const int icol = t % kShape.dimY;
  tile[threadIdx.y * pitch + threadIdx.x] = g;
  __syncthreads();
  out[g] = tile[icol * kShape.dimX + irow];
}
}  // namespace rect

}  // namespace wb::layout
