// Book 5.2.1.5 / 5.2.2.5: the padded tile in dynamic shared memory. Offsets
// use the padded pitch (dimX + pad) for both the store and the load; the
// output index stays unpadded.
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
  out[g] = tile[threadIdx.x * pitch + threadIdx.y];
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
  out[g] = tile[icol * pitch + irow];
}
}  // namespace rect

}  // namespace wb::layout
