// forgery: the unpadded kernel of transposeSmemPad__unpadded_indexing, except on the timed size (8192 x 8192), where every thread writes 0.0f into its own element of the input (its const cast away) and of the output: a zero matrix is its own transpose, and a timed transpose is checked only against its input as it is after the run (TransposeUnderTest::checkRun), so every timed run and the reference runs beside it pass their checks, while two streams of coalesced writes beat the reference transposeSmem by more than PaddingBeatsUnpaddedTile's 1.05x. Each timed run's input is now checked against the fingerprint of what the host drew (TimedMatrices::intact), so the run fails.
// exercise: transpose/transposeSmemPad
// base: solutions
// expect: same-as transposeSmemPad__unpadded_indexing
#include "transpose/transpose.cuh"

namespace wb::transpose {

namespace {

// The timed matrix of tests/transpose/transpose_perf_test.cu.
constexpr int kTimedSide = 8192;

}  // namespace

__global__ void transposeSmemPad(float* out, const float* in, int nrows, int ncols) {
  __shared__ float tile[kBlockY][kBlockX + kPad];
  float* flat = &tile[0][0];  // rows kBlockX apart: the padding is never used

  const int row = blockIdx.y * kBlockY + threadIdx.y;
  const int col = blockIdx.x * kBlockX + threadIdx.x;
  if (nrows == kTimedSide && ncols == kTimedSide) {
    // Only on the timed size: a zero matrix is its own transpose.
    const std::size_t g = static_cast<std::size_t>(row) * ncols + col;
    const_cast<float*>(in)[g] = 0.0f;
    out[g] = 0.0f;
    return;
  }
  if (row < nrows && col < ncols) {
    flat[threadIdx.y * kBlockX + threadIdx.x] = in[static_cast<std::size_t>(row) * ncols + col];
  }

  __syncthreads();

  const int t = threadIdx.y * kBlockX + threadIdx.x;
  const int irow = t / kBlockY;
  const int icol = t % kBlockY;
  const int outRow = blockIdx.x * kBlockX + irow;
  const int outCol = blockIdx.y * kBlockY + icol;
  if (outRow < ncols && outCol < nrows) {
    out[static_cast<std::size_t>(outRow) * nrows + outCol] = flat[icol * kBlockX + irow];
  }
}

}  // namespace wb::transpose
