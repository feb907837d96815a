// Book 5.4.3, dynamic variant: the padded tile in dynamic shared memory, any
// block shape. Rows are blockDim.x + kPad floats apart for both the store and
// the column read; the launch provides (blockDim.x + kPad) * blockDim.y
// floats. kPad = 2 is the conflict-free pad for 16-row tiles; other heights
// want other pads (notes.md), which the block-shape sweep makes visible.
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void transposeSmemPadDyn(float* out, const float* in, int nrows, int ncols) {
  extern __shared__ float tile[];
  const int pitch = blockDim.x + kPad;

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
