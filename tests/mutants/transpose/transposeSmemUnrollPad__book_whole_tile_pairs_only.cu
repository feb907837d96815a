// bug: the book's transposeSmemUnrollPad loads and stores its two tiles only
// when the second one lies inside the matrix (`ix + blockDim.x < nx`),
// assuming ncols is a multiple of two tiles: in the last block column, a
// first tile whose partner would start past the edge is never transposed
// expect: tests
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void transposeSmemUnrollPad(float* out, const float* in, int nrows, int ncols) {
  __shared__ float tile[kBlockY][kUnroll * kBlockX + kPad];

  const int row = blockIdx.y * kBlockY + threadIdx.y;
  const int col = blockIdx.x * kBlockX * kUnroll + threadIdx.x;
  const int col2 = col + kBlockX;
  if (row < nrows && col2 < ncols) {
    const std::size_t inRow = static_cast<std::size_t>(row) * ncols;
    tile[threadIdx.y][threadIdx.x] = in[inRow + col];
    tile[threadIdx.y][kBlockX + threadIdx.x] = in[inRow + col2];
  }

  __syncthreads();

  const int t = threadIdx.y * kBlockX + threadIdx.x;
  const int irow = t / kBlockY;
  const int icol = t % kBlockY;
  const int outRow = blockIdx.x * kBlockX * kUnroll + irow;
  const int outRow2 = outRow + kBlockX;
  const int outCol = blockIdx.y * kBlockY + icol;
  if (outCol < nrows && outRow2 < ncols) {
    out[static_cast<std::size_t>(outRow) * nrows + outCol] = tile[icol][irow];
    out[static_cast<std::size_t>(outRow2) * nrows + outCol] = tile[icol][kBlockX + irow];
  }
}

}  // namespace wb::transpose
