// bug: declares the tile as a static `__shared__` array instead of
// `extern __shared__`: the output is right, but the kernel ignores the
// dynamic shared memory its launch reserves, which is the exercise
// expect: tests
// GpuLayout.DeclaresItsSharedTile finds static shared memory in a kernel
// that must have none.
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setColReadRowDyn(int* out) {
  __shared__ int tile[kShape.dimY * kShape.dimX];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  tile[threadIdx.x * kShape.dimX + threadIdx.y] = g;
  __syncthreads();
  out[g] = tile[threadIdx.y * kShape.dimX + threadIdx.x];
}
}  // namespace square

namespace rect {
__global__ void setColReadRowDyn(int* out) {
  __shared__ int tile[kShape.dimY * kShape.dimX];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  const int irow = t / kShape.dimY;
  const int icol = t % kShape.dimY;
  tile[icol * kShape.dimX + irow] = g;
  __syncthreads();
  out[g] = tile[t];
}
}  // namespace rect

}  // namespace wb::layout
