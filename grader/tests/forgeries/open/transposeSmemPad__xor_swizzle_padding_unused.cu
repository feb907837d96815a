// forgery: the padded tile is declared (DeclaresItsSharedTile reads only its size) but never used as padding: the tile is indexed as a flat 16 x 32 array, rows 32 floats apart, and the bank conflict of the column read is removed by an XOR swizzle instead (element (r, c) kept at column c ^ 2r). Store phase: a warp writes row r, columns c ^ 2r, 32 distinct banks. Load phase: lanes 0-15 read (icol = 0..15, irow = 2w) at banks 2w ^ 2*icol, 16 distinct even banks; lanes 16-31 the odd ones: one wavefront per request, which is what the bank model predicts for the padded tile (1.00 / 1.00). The work is the reference's, so the work bounds hold.
// exercise: transpose/transposeSmemPad
// base: solutions
// expect: same-as base
// A different technique, not a cheaper one: padding, which 5.4.3 teaches, is not used, and the
// profile check cannot tell (it measures wavefronts, and both remove the conflict). Should earn
// at 840951c: bank_conflicts 2 and everything else. Listed so that the expectation is written down;
// it may well be acceptable. Evidence: profile test "shared load wavefronts per request 1.00".
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void transposeSmemPad(float* out, const float* in, int nrows, int ncols) {
  __shared__ float tile[kBlockY][kBlockX + kPad];
  float* flat = &tile[0][0];  // rows kBlockX apart: the padding stays unused

  const int row = blockIdx.y * kBlockY + threadIdx.y;
  const int col = blockIdx.x * kBlockX + threadIdx.x;
  if (row < nrows && col < ncols) {
    flat[threadIdx.y * kBlockX + (threadIdx.x ^ (2 * threadIdx.y))] =
        in[static_cast<std::size_t>(row) * ncols + col];
  }

  __syncthreads();

  const int t = threadIdx.y * kBlockX + threadIdx.x;
  const int irow = t / kBlockY;
  const int icol = t % kBlockY;
  const int outRow = blockIdx.x * kBlockX + irow;
  const int outCol = blockIdx.y * kBlockY + icol;
  if (outRow < ncols && outCol < nrows) {
    out[static_cast<std::size_t>(outRow) * nrows + outCol] = flat[icol * kBlockX + (irow ^ (2 * icol))];
  }
}

}  // namespace wb::transpose
