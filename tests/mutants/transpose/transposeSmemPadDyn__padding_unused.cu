// bug: the launch provides the padded tile but the kernel indexes it with the
// unpadded pitch blockDim.x: the output is right and no static memory is
// declared, but the column read keeps its 16-way bank conflict
// expect: profile
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void transposeSmemPadDyn(float* out, const float* in, int nrows, int ncols) {
  extern __shared__ float tile[];
  const int pitch = blockDim.x;  // should be blockDim.x + kPad
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < nrows && col < ncols) {
    tile[threadIdx.y * pitch + threadIdx.x] = in[static_cast<std::size_t>(row) * ncols + col];
  }
  __syncthreads();
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int irow = t / blockDim.y;
  const int icol = t % blockDim.y;
  const int outRow = blockIdx.x * blockDim.x + irow;
  const int outCol = blockIdx.y * blockDim.y + icol;
  if (outRow < ncols && outCol < nrows) {
    out[static_cast<std::size_t>(outRow) * nrows + outCol] = tile[icol * pitch + irow];
  }
}

}  // namespace wb::transpose
