// bug: the right output straight from global memory, no tile: every output
// test passes, only the shared-tile test (DeclaresItsSharedTile) rejects it
// expect: tests
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void transposeSmem(float* out, const float* in, int nrows, int ncols) {
  const int row = blockIdx.y * kBlockY + threadIdx.y;
  const int col = blockIdx.x * kBlockX + threadIdx.x;
  if (row < nrows && col < ncols) {
    const float value = in[static_cast<std::size_t>(row) * ncols + col];
    out[static_cast<std::size_t>(col) * nrows + row] = value;
  }
}

}  // namespace wb::transpose
