// bug: a "dynamic" kernel that still indexes with kBlockX and kBlockY: right
// with the default 32 x 16 launch, wrong with any other block shape
// expect: tests
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void transposeSmemDyn(float* out, const float* in, int nrows, int ncols) {
  extern __shared__ float tile[];
  const int row = blockIdx.y * kBlockY + threadIdx.y;
  const int col = blockIdx.x * kBlockX + threadIdx.x;
  if (row < nrows && col < ncols) {
    tile[threadIdx.y * kBlockX + threadIdx.x] = in[static_cast<std::size_t>(row) * ncols + col];
  }
  __syncthreads();
  const int t = threadIdx.y * kBlockX + threadIdx.x;
  const int irow = t / kBlockY;
  const int icol = t % kBlockY;
  const int outRow = blockIdx.x * kBlockX + irow;
  const int outCol = blockIdx.y * kBlockY + icol;
  if (outRow < ncols && outCol < nrows) {
    out[static_cast<std::size_t>(outRow) * nrows + outCol] = tile[icol * kBlockX + irow];
  }
}

}  // namespace wb::transpose
