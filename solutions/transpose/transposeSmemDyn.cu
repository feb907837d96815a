// Book 5.4.2, dynamic variant: transposeSmem with the tile in dynamic shared
// memory. The tile is blockDim.y rows of blockDim.x floats, sized by the
// launch, so the kernel works for any block shape (the sweep of 5.4.5 relies
// on that). A 1-D array needs explicit offsets: row r, column c is at
// r * blockDim.x + c.
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void transposeSmemDyn(float* out, const float* in, int nrows, int ncols) {
  extern __shared__ float tile[];
  const int pitch = blockDim.x;

  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < nrows && col < ncols) {
    tile[threadIdx.y * pitch + threadIdx.x] = in[static_cast<std::size_t>(row) * ncols + col];
  }

  __syncthreads();

  // t < blockDim.x * blockDim.y, so irow < blockDim.x and icol < blockDim.y.
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
