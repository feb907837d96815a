// bug: waits with `__syncwarp()` instead of `__syncthreads()`: that orders
// the lanes of one warp only, but the element a thread loads by rows was
// stored by columns by a thread of another warp, which may not have stored it yet
// expect: method
// The method check finds no block barrier (BAR) in the machine code, on any
// machine; on a GPU the race may or may not show in the output.
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setColReadRowDyn(int* out) {
  extern __shared__ int tile[];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  tile[threadIdx.x * kShape.dimX + threadIdx.y] = g;
  __syncwarp();
  out[g] = tile[threadIdx.y * kShape.dimX + threadIdx.x];
}
}  // namespace square

namespace rect {
__global__ void setColReadRowDyn(int* out) {
  extern __shared__ int tile[];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  const int irow = t / kShape.dimY;
  const int icol = t % kShape.dimY;
  tile[icol * kShape.dimX + irow] = g;
  __syncwarp();
  out[g] = tile[t];
}
}  // namespace rect

}  // namespace wb::layout
