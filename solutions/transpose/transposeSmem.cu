// Book 5.4.2: the transpose through a shared tile.
//  1. Read phase: thread (tx, ty) copies in[row][col] into tile[ty][tx]. A
//     warp reads 32 consecutive floats of one input row (coalesced) and
//     writes one tile row (32 banks, conflict-free).
//  2. Barrier: the whole tile must be loaded before anyone reads a column.
//  3. Write phase: the thread's linear index t is split as
//     t = irow * kBlockY + icol. It reads tile[icol][irow] (a tile column)
//     and writes it to output row (block's first column + irow), column
//     (block's first row + icol). Consecutive lanes write consecutive floats
//     of an output row: coalesced. The column read, though, walks 16 tile
//     rows 32 floats apart, all in the same bank: a 16-way conflict, which
//     5.4.3 removes.
// Threads outside the matrix skip the access but still reach the barrier.
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void transposeSmem(float* out, const float* in, int nrows, int ncols) {
  __shared__ float tile[kBlockY][kBlockX];

  // Read phase: the input element this thread loads.
  const int row = blockIdx.y * kBlockY + threadIdx.y;
  const int col = blockIdx.x * kBlockX + threadIdx.x;
  if (row < nrows && col < ncols) {
    tile[threadIdx.y][threadIdx.x] = in[static_cast<std::size_t>(row) * ncols + col];
  }

  __syncthreads();

  // Write phase: lanes walk down a tile column, along an output row.
  const int t = threadIdx.y * kBlockX + threadIdx.x;
  const int irow = t / kBlockY;  // tile column, becomes the output row in this block
  const int icol = t % kBlockY;  // tile row, becomes the output column in this block
  const int outRow = blockIdx.x * kBlockX + irow;  // an input column
  const int outCol = blockIdx.y * kBlockY + icol;  // an input row
  // The output is ncols x nrows. This test also says the tile slot was
  // loaded: it holds in[outCol][outRow], loaded iff outCol < nrows, outRow < ncols.
  if (outRow < ncols && outCol < nrows) {
    out[static_cast<std::size_t>(outRow) * nrows + outCol] = tile[icol][irow];
  }
}

}  // namespace wb::transpose
