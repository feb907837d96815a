// bug: the rectangle's column store swaps `threadIdx.x` and `threadIdx.y` as
// on the square tile: offsets reach 31 * 32 + 15, past the 512 ints the launch
// reserves, and half the elements the row load reads are never stored
// expect: tests
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setColReadRowDyn(int* out) {
  extern __shared__ int tile[];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  tile[threadIdx.x * kShape.dimX + threadIdx.y] = g;
  __syncthreads();
  out[g] = tile[threadIdx.y * kShape.dimX + threadIdx.x];
}
}  // namespace square

namespace rect {
__global__ void setColReadRowDyn(int* out) {
  extern __shared__ int tile[];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  tile[threadIdx.x * kShape.dimX + threadIdx.y] = g;  // threadIdx.x runs to 31, not 15
  __syncthreads();
  out[g] = tile[threadIdx.y * kShape.dimX + threadIdx.x];
}
}  // namespace rect

}  // namespace wb::layout
