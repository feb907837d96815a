// Beyond book section 5.4: transposes through a padded 32 x 32 tile with
// 32 x 8 threads. See chapters/transpose/beyond.cuh for what they add over
// the chapter's kernels.
//
// Block (bx, by) covers input rows [32 D by, 32 D by + 32 D) and input
// columns [32 A bx, 32 A bx + 32 A): D tile rows of A tiles each (A = D = 1
// except in the wide kernel, A = 2, and the quad kernel, A = D = 2). In
// the output those columns are rows and those rows are columns.
// Which (bx, by) a block takes comes from its launch position through the
// grouped block order (tileOf), not from blockIdx directly.
// Every global access tests the coordinates of the element it touches
// against the matrix it lives in, and no thread leaves before the barrier.
#include "transpose/beyond.cuh"

namespace wb::transpose::beyond {
namespace {

constexpr int kThreads = kTileSide * kTileThreadRows;         // 256
constexpr int kElementsPerThread = kTileSide / kTileThreadRows;  // 4 per tile
constexpr int kVectorsPerRow = kTileSide / 4;                 // float4s in one tile row
static_assert(kTileSide % kTileThreadRows == 0, "every thread moves whole tile columns");
static_assert(kThreads == kTileSide * kVectorsPerRow,
              "the float4 kernels give each thread exactly one vector per tile");

/// This block's tile position (bx, by) in the grouped order.
__device__ __forceinline__ TilePosition tileOf(int groupRows) {
  return groupedTilePosition(blockIdx.x, blockIdx.y, gridDim.x, gridDim.y, groupRows);
}

/// The float4 transpose of a block of kDown x kAcross tiles (kDown tile
/// rows of kAcross tiles each); see the file comment. Preconditions
/// (checked by the host launcher): nrows and ncols divisible by 4, both
/// pointers 16-byte aligned. Then a vector lies wholly inside or wholly
/// outside the matrix, and every vector address is 16-byte aligned.
template <int kAcross, int kDown>
__device__ __forceinline__ void transposeVec4Tiles(float* __restrict__ out,
                                                   const float* __restrict__ in, int nrows,
                                                   int ncols, int groupRows) {
  __shared__ float tile[kDown][kAcross][kTileSide][kTileSide + kTilePad];

  const int t = threadIdx.y * kTileSide + threadIdx.x;  // 0 .. 255
  // Read phase: thread t loads vector (t % 8) of tile row (t / 8) of every
  // tile. A warp covers four tile rows, 128 contiguous bytes of each: whole
  // cache lines. All kDown x kAcross loads are issued before the first
  // store to shared memory, so they are all in flight at once.
  const int tileRow = t / kVectorsPerRow;
  const int vec = t % kVectorsPerRow;
  const TilePosition position = tileOf(groupRows);
  const int row0 = position.by * kTileSide * kDown;
  const int col0 = position.bx * kTileSide * kAcross;

  float4 v[kDown][kAcross];
#pragma unroll
  for (int i = 0; i < kDown; ++i) {
    const int row = row0 + i * kTileSide + tileRow;
#pragma unroll
    for (int j = 0; j < kAcross; ++j) {
      const int col = col0 + j * kTileSide + 4 * vec;
      v[i][j] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (row < nrows && col < ncols) {
        v[i][j] =
            *reinterpret_cast<const float4*>(in + static_cast<std::size_t>(row) * ncols + col);
      }
    }
  }
  // Scattered into the tiles as four 4-byte stores: with pitch 33, lane l
  // stores to bank (tileRow + 4 vec + k) mod 32, and a warp's four rows and
  // eight vectors make 32 different banks.
#pragma unroll
  for (int i = 0; i < kDown; ++i) {
#pragma unroll
    for (int j = 0; j < kAcross; ++j) {
      tile[i][j][tileRow][4 * vec + 0] = v[i][j].x;
      tile[i][j][tileRow][4 * vec + 1] = v[i][j].y;
      tile[i][j][tileRow][4 * vec + 2] = v[i][j].z;
      tile[i][j][tileRow][4 * vec + 3] = v[i][j].w;
    }
  }

  __syncthreads();

  // Write phase: thread t writes four consecutive floats of output row
  // (t / 8) of each tile, that is tile column (t / 8), gathered from tile
  // rows 4 (t % 8) .. 4 (t % 8) + 3. Banks (4 vec + k + tileCol) mod 32: 32
  // different ones per warp again. The kDown tiles of one tile column land
  // side by side in the same output rows: with kDown = 2 each output row
  // receives 256 contiguous bytes from this block.
  const int tileCol = t / kVectorsPerRow;
#pragma unroll
  for (int j = 0; j < kAcross; ++j) {
    const int outRow = col0 + j * kTileSide + tileCol;  // an input column
#pragma unroll
    for (int i = 0; i < kDown; ++i) {
      const int outCol = row0 + i * kTileSide + 4 * vec;  // the first of four input rows
      if (outRow < ncols && outCol < nrows) {
        const float4 w =
            make_float4(tile[i][j][4 * vec + 0][tileCol], tile[i][j][4 * vec + 1][tileCol],
                        tile[i][j][4 * vec + 2][tileCol], tile[i][j][4 * vec + 3][tileCol]);
        *reinterpret_cast<float4*>(out + static_cast<std::size_t>(outRow) * nrows + outCol) = w;
      }
    }
  }
}

}  // namespace

__global__ void __launch_bounds__(kThreads)
    transposeTiled(float* __restrict__ out, const float* __restrict__ in, int nrows, int ncols,
                   int groupRows) {
  __shared__ float tile[kTileSide][kTileSide + kTilePad];

  const TilePosition position = tileOf(groupRows);
  const int row0 = position.by * kTileSide;
  const int col0 = position.bx * kTileSide;

  // Read phase: thread (tx, ty) loads input column col0 + tx of tile rows
  // ty, ty + 8, ty + 16 and ty + 24. A warp (one ty) reads 128 contiguous
  // bytes of one row. All four loads go into registers before the first
  // store to the tile, so all four are in flight at once (a store right
  // after each load would wait for that load before the next could issue).
  // Slots outside the matrix get a 0 that the write phase never writes out.
  const int col = col0 + threadIdx.x;
  float v[kElementsPerThread];
#pragma unroll
  for (int k = 0; k < kElementsPerThread; ++k) {
    const int row = row0 + threadIdx.y + k * kTileThreadRows;
    v[k] = 0.0f;
    if (row < nrows && col < ncols) v[k] = in[static_cast<std::size_t>(row) * ncols + col];
  }
#pragma unroll
  for (int k = 0; k < kElementsPerThread; ++k) {
    tile[threadIdx.y + k * kTileThreadRows][threadIdx.x] = v[k];
  }

  __syncthreads();

  // Write phase: thread (tx, ty) writes output rows col0 + ty + 8k (input
  // columns) at output column row0 + tx (an input row): a warp writes 128
  // contiguous bytes of one output row, read down tile column ty + 8k. With
  // pitch 33 the 32 floats of that column sit on 32 different banks.
  const int outCol = row0 + threadIdx.x;
#pragma unroll
  for (int k = 0; k < kElementsPerThread; ++k) {
    const int tileCol = threadIdx.y + k * kTileThreadRows;
    const int outRow = col0 + tileCol;
    if (outRow < ncols && outCol < nrows) {
      out[static_cast<std::size_t>(outRow) * nrows + outCol] = tile[threadIdx.x][tileCol];
    }
  }
}

__global__ void __launch_bounds__(kThreads)
    transposeTiledVec4(float* __restrict__ out, const float* __restrict__ in, int nrows,
                       int ncols, int groupRows) {
  transposeVec4Tiles<1, 1>(out, in, nrows, ncols, groupRows);
}

__global__ void __launch_bounds__(kThreads)
    transposeTiledVec4Wide(float* __restrict__ out, const float* __restrict__ in, int nrows,
                           int ncols, int groupRows) {
  transposeVec4Tiles<tilesAcross(Variant::TiledVec4Wide), tilesDown(Variant::TiledVec4Wide)>(
      out, in, nrows, ncols, groupRows);
}

__global__ void __launch_bounds__(kThreads)
    transposeTiledVec4Quad(float* __restrict__ out, const float* __restrict__ in, int nrows,
                           int ncols, int groupRows) {
  transposeVec4Tiles<tilesAcross(Variant::TiledVec4Quad), tilesDown(Variant::TiledVec4Quad)>(
      out, in, nrows, ncols, groupRows);
}

}  // namespace wb::transpose::beyond
