// forgery: GPU-only. The padded tile indexed as if unpadded (a 16-way bank conflict on the column read), plus, on a launch of one block (the runner's), 1000 conflict-free shared loads per thread, which bring the launch's shared-load wavefronts per request to 1.015 (H100), inside the bank check's 5% of 1.00. The profile test also holds the kernel's work to the reference's on the same launch: 64,976 warp instructions against 768, so the bank-conflict points are lost
// exercise: transpose/transposeSmemPad
// base: solutions
// expect: zero bank_conflicts
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void transposeSmemPad(float* out, const float* in, int nrows, int ncols) {
  __shared__ float tile[kBlockY][kBlockX + kPad];
  float* flat = &tile[0][0];  // rows kBlockX apart: the padding is never used

  const int row = blockIdx.y * kBlockY + threadIdx.y;
  const int col = blockIdx.x * kBlockX + threadIdx.x;
  if (row < nrows && col < ncols) {
    flat[threadIdx.y * kBlockX + threadIdx.x] = in[static_cast<std::size_t>(row) * ncols + col];
  }

  __syncthreads();

  const int t = threadIdx.y * kBlockX + threadIdx.x;
  if (gridDim.x * gridDim.y == 1) {
    // The profiled launch: loads with one lane per bank, one wavefront each,
    // to bring the launch's average down to the padded tile's.
    volatile float* v = flat;
#pragma unroll 1
    for (int k = 0; k < 1000; ++k) (void)v[t % 32];
  }

  const int irow = t / kBlockY;
  const int icol = t % kBlockY;
  const int outRow = blockIdx.x * kBlockX + irow;
  const int outCol = blockIdx.y * kBlockY + icol;
  if (outRow < ncols && outCol < nrows) {
    out[static_cast<std::size_t>(outRow) * nrows + outCol] = flat[icol * kBlockX + irow];
  }
}

}  // namespace wb::transpose
