// Book 5.2.1.2 / 5.2.2.2: column store, row load. The store conflicts (32-way
// square, 16-way rectangle), the load does not; what a thread reads is the
// value of the thread whose column position matches its row position, so the
// output is the block's tile transposed.
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setColReadRow(int* out) {
  __shared__ int tile[kShape.dimY][kShape.dimX];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  tile[threadIdx.x][threadIdx.y] = g;
  __syncthreads();
  out[g] = tile[threadIdx.y][threadIdx.x];
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
  out[g] = tile[threadIdx.y][threadIdx.x];
}
}  // namespace rect

}  // namespace wb::layout
