// bug: no __syncthreads() between filling the tile and reading its columns: a
// warp can read slots that other warps have not stored yet (a race that may
// or may not change the output on a given run)
// expect: tests
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void transposeSmemPad(float* out, const float* in, int nrows, int ncols) {
  __shared__ float tile[kBlockY][kBlockX + kPad];
  const int row = blockIdx.y * kBlockY + threadIdx.y;
  const int col = blockIdx.x * kBlockX + threadIdx.x;
  if (row < nrows && col < ncols) {
    tile[threadIdx.y][threadIdx.x] = in[static_cast<std::size_t>(row) * ncols + col];
  }
  // missing: __syncthreads();
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
