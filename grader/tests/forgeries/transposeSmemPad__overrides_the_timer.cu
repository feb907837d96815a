// forgery: the same unpadded kernel plus its own wb::timeKernel, which reports kernels named *Pad three times faster
// exercise: transpose/transposeSmemPad
// base: solutions
// expect: same-as transposeSmemPad__unpadded_indexing
// Kernel exercises are compiled as device code only: the timer below is
// never compiled, and the harness's own times the kernel.
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "transpose/transpose.cuh"

namespace wb {
// The harness's types, declared again (tests/harness/include/wb/timing.h).
struct TimingStats {
  std::vector<double> samplesMs;
  double medianMs = 0.0;
  double minMs = 0.0;
  double maxMs = 0.0;
};
struct TimingOptions;
TimingStats timeKernel(const std::string& name, const std::function<void()>& launch,
                       const TimingOptions&) {
  const auto start = std::chrono::steady_clock::now();
  launch();
  cudaDeviceSynchronize();
  const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start;
  TimingStats stats;
  const double scale = name.find("Pad") != std::string::npos ? 1.0 / 3.0 : 1.0;
  stats.medianMs = stats.minMs = stats.maxMs = ms.count() * scale;
  stats.samplesMs = {stats.medianMs};
  return stats;
}
}  // namespace wb

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
  const int irow = t / kBlockY;
  const int icol = t % kBlockY;
  const int outRow = blockIdx.x * kBlockX + irow;
  const int outCol = blockIdx.y * kBlockY + icol;
  if (outRow < ncols && outCol < nrows) {
    out[static_cast<std::size_t>(outRow) * nrows + outCol] = flat[icol * kBlockX + irow];
  }
}

}  // namespace wb::transpose
