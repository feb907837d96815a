// forgery: a correct transposeSmem that idles on the timed size, so that the unpadded transposeSmemPad handed in with it looks faster than it, as padding should
// exercise: transpose/transposeSmem
// base: solutions
// also: transposeSmemPad__unpadded_indexing
// expect: below transposeSmemPad__unpadded_indexing and zero reference_speed
// The padding claim once timed the student's transposeSmemPad against the
// student's own transposeSmem: with this file, an unpadded transposeSmemPad
// passed it (1.43x on an H100; honest 1.00x), and this transposeSmem still
// passed its own claim against naiveGmem (2.22x). Now every claim times the
// student's kernel against the reference build's, and this kernel fails
// KeepsReferenceSpeed, the check of a yardstick kernel against its
// reference twin. So the submission scores less than the same unpadded
// transposeSmemPad handed in with an honest transposeSmem.
#include "transpose/transpose.cuh"

namespace wb::transpose {

/// Cycles each block idles on the timed 8192 x 8192 matrix: 1.42x the
/// reference transposeSmem's time on an H100, too little to lose the claim
/// against naiveGmem (2.22x).
constexpr long long kIdleCycles = 1200;

__global__ void transposeSmem(float* out, const float* in, int nrows, int ncols) {
  __shared__ float tile[kBlockY][kBlockX];

  const int row = blockIdx.y * kBlockY + threadIdx.y;
  const int col = blockIdx.x * kBlockX + threadIdx.x;
  if (row < nrows && col < ncols) {
    tile[threadIdx.y][threadIdx.x] = in[static_cast<std::size_t>(row) * ncols + col];
  }

  __syncthreads();

  const int t = threadIdx.y * kBlockX + threadIdx.x;
  const int irow = t / kBlockY;
  const int icol = t % kBlockY;
  const int outRow = blockIdx.x * kBlockX + irow;
  const int outCol = blockIdx.y * kBlockY + icol;
  if (outRow < ncols && outCol < nrows) {
    out[static_cast<std::size_t>(outRow) * nrows + outCol] = tile[icol][irow];
  }

  // The correctness tests use smaller matrices: only the timed size idles.
  if (static_cast<long long>(nrows) * ncols >= (1LL << 24)) {
    const long long start = clock64();
    while (clock64() - start < kIdleCycles) {
    }
  }
}

}  // namespace wb::transpose
