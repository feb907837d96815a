// bug: a wait loop whose condition never becomes true (a spin on a value no
// thread writes), so the kernel never returns; the per-test time limit must
// stop it and the rest of the suite must go on
// expect: timeout
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setRowReadColPad(int* out) {
  __shared__ int tile[kShape.dimY][kShape.dimX + kShape.pad];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  tile[threadIdx.y][threadIdx.x] = g;
  __syncthreads();
  volatile int* flag = out;  // poisoned by the harness, never -7
  while (flag[g] != -7) {
  }
  out[g] = tile[threadIdx.x][threadIdx.y];
}
}  // namespace square

namespace rect {
__global__ void setRowReadColPad(int* out) {
  __shared__ int tile[kShape.dimY][kShape.dimX + kShape.pad];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  const int irow = t / kShape.dimY;
  const int icol = t % kShape.dimY;
  tile[threadIdx.y][threadIdx.x] = g;
  __syncthreads();
  volatile int* flag = out;
  while (flag[g] != -7) {
  }
  out[g] = tile[icol][irow];
}
}  // namespace rect

}  // namespace wb::layout
