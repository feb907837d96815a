// bug: the square kernel writes 1 GiB past its output, an illegal address:
// the kernel faults, its own tests fail, and (each test in its own process)
// the rest of the suite still runs
// expect: tests
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setRowReadRow(int* out) {
  __shared__ int tile[kShape.dimY][kShape.dimX];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;  // thread's place in the block
  const int g = blockIdx.x * kShape.elements() + t;       // and in the output
  tile[threadIdx.y][threadIdx.x] = g;
  __syncthreads();  // every store must land before any thread reads
  out[g + (1u << 28)] = tile[threadIdx.y][threadIdx.x];  // 1 GiB past the output
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
