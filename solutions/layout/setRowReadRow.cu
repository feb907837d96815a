// Book 5.2.1.1 / 5.2.2.1: row store, row load. The worked example.
// Lane i of a warp touches tile[ty][i]: 32 consecutive ints, one per bank, so
// both the store and the load are served in a single pass.
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setRowReadRow(int* out) {
  __shared__ int tile[kShape.dimY][kShape.dimX];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;  // thread's place in the block
  const int g = blockIdx.x * kShape.elements() + t;       // and in the output
  tile[threadIdx.y][threadIdx.x] = g;
  __syncthreads();  // every store must land before any thread reads
  out[g] = tile[threadIdx.y][threadIdx.x];
}
}  // namespace square

namespace rect {
__global__ void setRowReadRow(int* out) {
  __shared__ int tile[kShape.dimY][kShape.dimX];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  tile[threadIdx.y][threadIdx.x] = g;
  __syncthreads();
  out[g] = tile[threadIdx.y][threadIdx.x];
}
}  // namespace rect

}  // namespace wb::layout
