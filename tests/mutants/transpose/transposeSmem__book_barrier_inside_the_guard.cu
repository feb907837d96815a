// bug: the book's transposeSmem puts the load, the __syncthreads() and the
// store inside one `if` on the transposed coordinates, assuming the matrix
// is a whole number of tiles: on any other size the threads that fail the
// test skip the barrier, and those that pass load the element their write
// position names (not their own), so tile slots that are read were never
// written and elements outside the matrix are read
// expect: tests
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void transposeSmem(float* out, const float* in, int nrows, int ncols) {
  __shared__ float tile[kBlockY][kBlockX];
  const int row = blockIdx.y * kBlockY + threadIdx.y;
  const int col = blockIdx.x * kBlockX + threadIdx.x;
  const int t = threadIdx.y * kBlockX + threadIdx.x;
  const int irow = t / kBlockY;
  const int icol = t % kBlockY;
  const int outRow = blockIdx.x * kBlockX + irow;
  const int outCol = blockIdx.y * kBlockY + icol;
  if (outRow < ncols && outCol < nrows) {
    tile[threadIdx.y][threadIdx.x] = in[static_cast<std::size_t>(row) * ncols + col];
    __syncthreads();
    out[static_cast<std::size_t>(outRow) * nrows + outCol] = tile[icol][irow];
  }
}

}  // namespace wb::transpose
