// bug: the study notes' unrolled kernel: it takes its value from a tile column
// (the write phase) but computes where to write it, and whether to, from the
// (row, col) it read with, transposed; those are different elements, so the
// output is scrambled on every matrix larger than 1 x 1
// expect: tests
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void transposeSmemUnrollPad(float* out, const float* in, int nrows, int ncols) {
  __shared__ float tile[kBlockY][kUnroll * kBlockX + kPad];
  const int row = blockIdx.y * kBlockY + threadIdx.y;
  const int col = blockIdx.x * kBlockX * kUnroll + threadIdx.x;
  const int col2 = col + kBlockX;
  if (row < nrows && col < ncols) {
    tile[threadIdx.y][threadIdx.x] = in[static_cast<std::size_t>(row) * ncols + col];
  }
  if (row < nrows && col2 < ncols) {
    tile[threadIdx.y][kBlockX + threadIdx.x] = in[static_cast<std::size_t>(row) * ncols + col2];
  }
  __syncthreads();
  const int t = threadIdx.y * kBlockX + threadIdx.x;
  const int irow = t / kBlockY;
  const int icol = t % kBlockY;
  if (row < nrows && col < ncols) {
    out[static_cast<std::size_t>(col) * nrows + row] = tile[icol][irow];  // wrong offset
  }
  if (row < nrows && col2 < ncols) {
    out[static_cast<std::size_t>(col2) * nrows + row] = tile[icol][kBlockX + irow];
  }
}

}  // namespace wb::transpose
