// Book 5.4.3: transposeSmem on a padded tile. Each tile row is kPad floats
// longer than the data it holds, so tile row r starts r * (32 + kPad) floats
// in, in bank (2 * r) % 32. In the write phase a warp reads two neighbouring
// tile columns down all 16 rows: one column lands on the 16 even banks, the
// other on the 16 odd ones, 32 different banks, one pass (unpadded, all 16
// rows of a column share a bank). Only the tile's declaration changes; the
// indices into it and into global memory are transposeSmem's.
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void transposeSmemPad(float* out, const float* in, int nrows, int ncols) {
  __shared__ float tile[kBlockY][kBlockX + kPad];

  const int row = blockIdx.y * kBlockY + threadIdx.y;
  const int col = blockIdx.x * kBlockX + threadIdx.x;
  if (row < nrows && col < ncols) {
    tile[threadIdx.y][threadIdx.x] = in[static_cast<std::size_t>(row) * ncols + col];
  }

  __syncthreads();

  const int t = threadIdx.y * kBlockX + threadIdx.x;
  const int irow = t / kBlockY;
  const int icol = t % kBlockY;
  const int outRow = blockIdx.x * kBlockX + irow;
  const int outCol = blockIdx.y * kBlockY + icol;
  if (outRow < ncols && outCol < nrows) {
    out[static_cast<std::size_t>(outRow) * nrows + outCol] = tile[icol][irow];
  }
}

}  // namespace wb::transpose
