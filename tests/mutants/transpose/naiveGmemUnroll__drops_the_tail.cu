// bug: both elements are written only when the second is inside the matrix,
// so the last block column loses its first elements whenever ncols is not a
// multiple of 2 * blockDim.x
// expect: tests
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void naiveGmemUnroll(float* out, const float* in, int nrows, int ncols) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x * kUnroll + threadIdx.x;
  const int col2 = col + blockDim.x;
  if (row < nrows && col2 < ncols) {  // one test for two elements
    const std::size_t inRow = static_cast<std::size_t>(row) * ncols;
    out[static_cast<std::size_t>(col) * nrows + row] = in[inRow + col];
    out[static_cast<std::size_t>(col2) * nrows + row] = in[inRow + col2];
  }
}

}  // namespace wb::transpose
