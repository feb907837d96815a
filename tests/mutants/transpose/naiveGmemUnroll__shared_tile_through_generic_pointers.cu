// bug: the global-memory baseline is a shared-memory tiled transpose whose
// tile is reached through generic pointers (LD and ST, no LDS or STS): not
// the baseline the book measures the tile against
// expect: method
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void naiveGmemUnroll(float* out, const float* in, int nrows, int ncols) {
  __shared__ float tileStorage[3 * 1024];
  float* tile;
  asm("cvta.shared.u64 %0, %1;" : "=l"(tile) : "l"(static_cast<unsigned long long>(
      __cvta_generic_to_shared(tileStorage))));
  const int bx = blockDim.x, by = blockDim.y;
  const int pitch = 2 * bx + 1;
  const int rowBase = blockIdx.y * by, colBase = blockIdx.x * bx * kUnroll;
  const int row = rowBase + threadIdx.y;
  for (int u = 0; u < kUnroll; ++u) {
    const int col = colBase + u * bx + threadIdx.x;
    if (row < nrows && col < ncols)
      tile[threadIdx.y * pitch + u * bx + threadIdx.x] = in[static_cast<std::size_t>(row) * ncols + col];
  }
  __syncthreads();
  const int threads = bx * by;
  for (int e = threadIdx.y * bx + threadIdx.x; e < kUnroll * threads; e += threads) {
    const int oRow = colBase + e / by, oCol = rowBase + e % by;
    if (oRow < ncols && oCol < nrows)
      out[static_cast<std::size_t>(oRow) * nrows + oCol] = tile[(e % by) * pitch + e / by];
  }
}

}  // namespace wb::transpose
