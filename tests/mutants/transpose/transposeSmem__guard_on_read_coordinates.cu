// bug: the right output offset, but the write is guarded by the bounds test of
// the element the thread read, not of the one it writes: right on tile
// multiples, while partial blocks of any other size leave outputs unwritten
// and write outside the matrix
// expect: tests
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void transposeSmem(float* out, const float* in, int nrows, int ncols) {
  __shared__ float tile[kBlockY][kBlockX];
  const int row = blockIdx.y * kBlockY + threadIdx.y;
  const int col = blockIdx.x * kBlockX + threadIdx.x;
  const bool readInside = row < nrows && col < ncols;
  if (readInside) tile[threadIdx.y][threadIdx.x] = in[static_cast<std::size_t>(row) * ncols + col];
  __syncthreads();
  const int t = threadIdx.y * kBlockX + threadIdx.x;
  const int irow = t / kBlockY;
  const int icol = t % kBlockY;
  const int outRow = blockIdx.x * kBlockX + irow;
  const int outCol = blockIdx.y * kBlockY + icol;
  if (readInside) {  // wrong test: should be outRow < ncols && outCol < nrows
    out[static_cast<std::size_t>(outRow) * nrows + outCol] = tile[icol][irow];
  }
}

}  // namespace wb::transpose
