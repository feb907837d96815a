// Book 5.4.4: two padded tiles per block, side by side. A block of 32 x 16
// threads covers 16 input rows and 2 * 32 input columns; each thread reads
// two elements 32 columns apart and later writes two, into output rows 32
// apart. Twice the bytes in flight per thread, half the blocks.
//
// The output position of each element comes from the *write-phase*
// coordinates (irow, icol), never from the coordinates the thread read with:
// the thread writes different elements from those it read. Each of the four
// accesses has its own bounds test, against the matrix it touches.
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void transposeSmemUnrollPad(float* out, const float* in, int nrows, int ncols) {
  // Columns [0, 32) hold the first tile, [32, 64) the second; kPad after that
  // keeps both tiles' column reads conflict-free (64 + kPad is 2 mod 32, as
  // 32 + kPad is).
  __shared__ float tile[kBlockY][kUnroll * kBlockX + kPad];

  // Read phase.
  const int row = blockIdx.y * kBlockY + threadIdx.y;
  const int col = blockIdx.x * kBlockX * kUnroll + threadIdx.x;
  const int col2 = col + kBlockX;
  if (row < nrows) {
    const std::size_t inRow = static_cast<std::size_t>(row) * ncols;
    if (col < ncols) tile[threadIdx.y][threadIdx.x] = in[inRow + col];
    if (col2 < ncols) tile[threadIdx.y][kBlockX + threadIdx.x] = in[inRow + col2];
  }

  __syncthreads();

  // Write phase.
  const int t = threadIdx.y * kBlockX + threadIdx.x;
  const int irow = t / kBlockY;
  const int icol = t % kBlockY;
  const int outRow = blockIdx.x * kBlockX * kUnroll + irow;  // first tile's column irow
  const int outRow2 = outRow + kBlockX;                       // second tile's column irow
  const int outCol = blockIdx.y * kBlockY + icol;
  if (outCol < nrows) {
    if (outRow < ncols) out[static_cast<std::size_t>(outRow) * nrows + outCol] = tile[icol][irow];
    if (outRow2 < ncols) {
      out[static_cast<std::size_t>(outRow2) * nrows + outCol] = tile[icol][kBlockX + irow];
    }
  }
}

}  // namespace wb::transpose
