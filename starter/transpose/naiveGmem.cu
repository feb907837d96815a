// Book 5.4.1: the baseline transpose, global memory only. Thread (row, col)
// reads in[row][col] and writes out[col][row]. Consecutive lanes read
// consecutive floats of one input row (coalesced) but write one float each
// into consecutive output rows, nrows floats apart: every lane's store needs
// its own memory segment.
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void naiveGmem(float* out, const float* in, int nrows, int ncols) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < nrows && col < ncols) {
    const float value = in[static_cast<std::size_t>(row) * ncols + col];
    out[static_cast<std::size_t>(col) * nrows + row] = value;
  }
}

}  // namespace wb::transpose
