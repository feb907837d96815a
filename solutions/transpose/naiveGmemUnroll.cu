// Book 5.4.4, applied without shared memory: naiveGmem with two elements per
// thread. The block covers 2 * blockDim.x input columns; a thread's two
// columns are blockDim.x apart, so each of its two reads is still coalesced
// across the warp, and both can be in flight at once. Each element has its
// own bounds test: the second column can fall outside the matrix while the
// first is inside.
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void naiveGmemUnroll(float* out, const float* in, int nrows, int ncols) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x * kUnroll + threadIdx.x;
  const int col2 = col + blockDim.x;
  if (row < nrows) {
    const std::size_t inRow = static_cast<std::size_t>(row) * ncols;
    if (col < ncols) out[static_cast<std::size_t>(col) * nrows + row] = in[inRow + col];
    if (col2 < ncols) out[static_cast<std::size_t>(col2) * nrows + row] = in[inRow + col2];
  }
}

}  // namespace wb::transpose
