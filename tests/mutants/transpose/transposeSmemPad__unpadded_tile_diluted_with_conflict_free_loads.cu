// bug: the padded tile is indexed as if it had no padding (the column read
// is a 16-way bank conflict), and a launch of one block first makes a
// thousand conflict-free shared loads per thread, which bring the launch's
// wavefronts per request down to 1.015 (H100), inside the bank check's 5%
// expect: profile
// Wavefronts per request is an average over the launch; the loads that
// dilute it multiply the kernel's work: 85 times the reference's warp
// instructions on the same launch (H100), past the bound of 4.
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
    // One lane per bank: one wavefront per load.
    volatile float* lanes = flat;
#pragma unroll 1
    for (int k = 0; k < 1000; ++k) (void)lanes[t % 32];
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
