/**
 * @file beyond.cuh
 * @brief Beyond book section 5.4: reference transposes that run close to the
 *        speed of a plain copy. Not exercises; the benchmark (bench/wb_bench)
 *        sets them beside the chapter's kernels and cublasSgeam.
 *
 * They compute what the chapter's transposes compute, on the same row-major
 * float matrices: `out[c * nrows + r] = in[r * ncols + c]`, for any
 * positive nrows and ncols (nrows at most kMaxRows). What they add over
 * transposeSmemPad and transposeSmemUnrollPad:
 *  - **A square 32 x 32 tile moved by 32 x 8 threads.** Each thread moves
 *    four elements (tile rows ty, ty + 8, ty + 16, ty + 24) instead of one:
 *    four independent loads in flight per thread, a quarter of the blocks,
 *    and a quarter of the index arithmetic per element. A square tile also
 *    makes the read and the write phase alike: both touch 32 rows of 32
 *    floats, 128 bytes per row, whole cache lines both ways.
 *  - **One float of padding per tile row.** Row pitch 33 puts the 32 floats
 *    of a tile column on 32 different banks, so the column read of the write
 *    phase is conflict-free (the chapter's 16-row tile needs kPad = 2).
 *  - **16-byte global accesses where the matrix allows them**
 *    (transposeTiledVec4, transposeTiledVec4Wide). A thread loads one
 *    `float4`, four consecutive floats of an input row, and later stores one
 *    `float4`, four consecutive floats of an output row that it gathered from
 *    four tile rows. Still four elements per thread, but one load and one
 *    store instruction instead of four each. The shared tile keeps 4-byte
 *    accesses and its one float of padding: with eight threads per tile row,
 *    a warp's stores and gathers fall on 32 different banks. This needs both
 *    sides divisible by four (so no vector straddles a matrix edge) and both
 *    pointers 16-byte aligned; vec4Allowed says when.
 *  - **More bytes in flight per block** (transposeTiledVec4Wide,
 *    transposeTiledVec4Quad): two tiles side by side, or a 2 x 2 block of
 *    four tiles (64 x 64 floats), so each thread has two or four `float4`
 *    loads in flight before the barrier. The quad block also writes 256
 *    contiguous bytes into each output row it touches, where one tile
 *    writes 128: longer runs per DRAM page on the write side, the side that
 *    limits a transpose.
 *  - **A block order that keeps both sides of memory local.** Blocks run
 *    roughly in launch order, x fastest; in plain raster order the ~1000
 *    blocks resident at once on a large GPU cover a few tile rows of the
 *    input, and so a few *columns* of the output: each output row receives
 *    only a few hundred contiguous bytes while those blocks run, spread over
 *    thousands of rows (and DRAM pages). Here consecutive blocks walk down a
 *    band of kGroupRows block rows first and only then move right (the
 *    grouped order of tiled GEMMs), so the resident blocks cover a patch
 *    taller than wide: several KB contiguous per output row written, the
 *    side where short runs cost most. The order is a launch argument
 *    (groupRows, 1 = plain raster order) so that the benchmark can set the
 *    two side by side.
 *
 * transposeTiled, the scalar kernel, works on any matrix and any alignment;
 * transpose() picks the widest kernel the matrix and pointers allow, the one
 * expected to be fastest (wb_bench times all three, so check it there).
 */
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace wb::transpose::beyond {

/// Side of the square tile, in floats.
constexpr int kTileSide = 32;
/// Threads per block in y; each thread moves kTileSide / kTileThreadRows
/// elements of each tile.
constexpr int kTileThreadRows = 8;
/// Floats of padding after each tile row.
constexpr int kTilePad = 1;
/// Block rows in one band of the grouped block order: consecutive blocks
/// take consecutive block rows of a band of this many, then the next block
/// column. Measured on an H200 at 8192 x 8192 with the quad kernel (a grid
/// 128 blocks high), bands of 16, 32, 64 and 128 block rows gave 3911,
/// 3935, 3978 and 4100 GB/s: the taller the band, the longer the run each
/// output row receives while its blocks are resident. 128 covers 8192 rows
/// with the quad block and still bounds the patch on taller matrices.
constexpr int kGroupRows = 128;
/// Most rows a launch accepts: the scalar kernel's grid has one block row
/// per tile row, and a grid has at most 65535 blocks in y.
constexpr int kMaxRows = 65535 * kTileSide;

/// Scalar transpose through a padded 32 x 32 tile with 32 x 8 threads, four
/// elements per thread. Any matrix shape, any 4-byte-aligned pointers.
/// @p groupRows: the block order (kGroupRows, or 1 for plain raster order).
__global__ void transposeTiled(float* out, const float* in, int nrows, int ncols, int groupRows);
/// transposeTiled with one `float4` load and one `float4` store per thread.
/// Needs vec4Allowed(out, in, nrows, ncols).
__global__ void transposeTiledVec4(float* out, const float* in, int nrows, int ncols,
                                   int groupRows);
/// transposeTiledVec4 over two tiles side by side per block: each thread
/// has two `float4` loads in flight. Needs vec4Allowed.
__global__ void transposeTiledVec4Wide(float* out, const float* in, int nrows, int ncols,
                                       int groupRows);
/// transposeTiledVec4 over a 2 x 2 block of tiles: four `float4` loads in
/// flight per thread, 256 contiguous bytes per output row. Needs vec4Allowed.
__global__ void transposeTiledVec4Quad(float* out, const float* in, int nrows, int ncols,
                                       int groupRows);

/// A block's position in the grid: block column bx, block row by.
struct TilePosition {
  int bx;
  int by;
};

/**
 * @brief The block position (tiles or groups of tiles) that the block
 *        launched at (x, y) of a gx x gy grid takes in the grouped order.
 *
 * Blocks are dispatched roughly in launch order, x fastest. The launch
 * index is dealt out down a band of @p groupRows block rows first, then one
 * block column to the right, band after band; the last band may be shorter.
 * A one-to-one map of the grid onto itself for any grid of fewer than 2^32
 * blocks (launchVariant checks) and any groupRows >= 1 (smaller values
 * count as 1); groupRows = 1 is plain raster order, (x, y) itself.
 *
 * 32-bit arithmetic on purpose: every thread of every block evaluates this
 * before its first load, and a 64-bit division is a long software routine
 * on the GPU where a 32-bit one is a handful of instructions.
 */
__host__ __device__ inline TilePosition groupedTilePosition(unsigned int x, unsigned int y,
                                                            unsigned int gx, unsigned int gy,
                                                            int groupRows) {
  const unsigned int rowsPerGroup = groupRows > 1 ? static_cast<unsigned int>(groupRows) : 1u;
  const unsigned int launchIndex = y * gx + x;
  const unsigned int blocksPerGroup = rowsPerGroup * gx;  // < 2^32: at most gx * gy blocks
  const unsigned int group = launchIndex / blocksPerGroup;
  const unsigned int firstRow = group * rowsPerGroup;
  const unsigned int rowsLeft = gy - firstRow;
  const unsigned int rows = rowsLeft < rowsPerGroup ? rowsLeft : rowsPerGroup;
  const unsigned int inGroup = launchIndex - group * blocksPerGroup;
  const unsigned int bx = inGroup / rows;
  return TilePosition{static_cast<int>(bx), static_cast<int>(firstRow + (inGroup - bx * rows))};
}

/// The reference transposes, slowest to fastest where all apply.
enum class Variant { Tiled, TiledVec4, TiledVec4Wide, TiledVec4Quad };

/// The kernel's name, as the benchmark prints it.
inline const char* variantName(Variant v) {
  switch (v) {
    case Variant::Tiled: return "transposeTiled";
    case Variant::TiledVec4: return "transposeTiledVec4";
    case Variant::TiledVec4Wide: return "transposeTiledVec4Wide";
    case Variant::TiledVec4Quad: return "transposeTiledVec4Quad";
  }
  return "?";
}

/// Tiles side by side in one block of @p v.
__host__ __device__ constexpr int tilesAcross(Variant v) {
  return v == Variant::TiledVec4Wide || v == Variant::TiledVec4Quad ? 2 : 1;
}
/// Tile rows in one block of @p v.
__host__ __device__ constexpr int tilesDown(Variant v) {
  return v == Variant::TiledVec4Quad ? 2 : 1;
}

/// True when the float4 kernels may run: both sides divisible by four and
/// both pointers 16-byte aligned.
inline bool vec4Allowed(const float* out, const float* in, int nrows, int ncols) {
  const auto aligned = [](const float* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  return nrows % 4 == 0 && ncols % 4 == 0 && aligned(out) && aligned(in);
}

/// The kernel transpose() runs for these arguments: the quad float4
/// kernel when allowed, otherwise the scalar one.
inline Variant chooseVariant(const float* out, const float* in, int nrows, int ncols) {
  return vec4Allowed(out, in, nrows, ncols) ? Variant::TiledVec4Quad : Variant::Tiled;
}

/// Threads per block of every reference transpose: 32 x 8.
inline dim3 tiledBlock() { return dim3(kTileSide, kTileThreadRows); }

/// The grid of @p v over an nrows x ncols input: one block per
/// tilesDown(v) tile rows of the input in y, one per tilesAcross(v) tiles
/// of a row in x.
inline dim3 tiledGrid(Variant v, int nrows, int ncols) {
  const long long cols = static_cast<long long>(kTileSide) * tilesAcross(v);
  const long long rows = static_cast<long long>(kTileSide) * tilesDown(v);
  return dim3(static_cast<unsigned int>((ncols + cols - 1) / cols),
              static_cast<unsigned int>((nrows + rows - 1) / rows));
}

/**
 * @brief Launches @p v on the nrows x ncols matrix @p in, writing @p out,
 *        its blocks in the grouped order of @p groupRows block rows (1: plain
 *        raster order). An empty matrix launches nothing.
 * @return cudaErrorInvalidValue when a side is negative, nrows exceeds
 *         kMaxRows, groupRows is below 1, the grid has 2^32 blocks or more,
 *         or @p v is a float4 kernel and !vec4Allowed; otherwise
 *         the launch's own error (cudaPeekAtLastError, which leaves it for
 *         wb::checkLaunch too), without waiting for the kernel to finish.
 */
inline cudaError_t launchVariant(Variant v, float* out, const float* in, int nrows, int ncols,
                                 cudaStream_t stream = nullptr, int groupRows = kGroupRows) {
  if (nrows < 0 || ncols < 0 || nrows > kMaxRows || groupRows < 1) return cudaErrorInvalidValue;
  if (v != Variant::Tiled && !vec4Allowed(out, in, nrows, ncols)) return cudaErrorInvalidValue;
  if (nrows == 0 || ncols == 0) return cudaSuccess;
  const dim3 grid = tiledGrid(v, nrows, ncols);
  // The block order counts blocks in 32 bits. Any matrix that fits in device
  // memory has far fewer tiles (2^32 tiles are 16 TiB of floats).
  if (static_cast<unsigned long long>(grid.x) * grid.y > 0xFFFFFFFFull) return cudaErrorInvalidValue;
  switch (v) {
    case Variant::Tiled:
      transposeTiled<<<grid, tiledBlock(), 0, stream>>>(out, in, nrows, ncols, groupRows);
      break;
    case Variant::TiledVec4:
      transposeTiledVec4<<<grid, tiledBlock(), 0, stream>>>(out, in, nrows, ncols, groupRows);
      break;
    case Variant::TiledVec4Wide:
      transposeTiledVec4Wide<<<grid, tiledBlock(), 0, stream>>>(out, in, nrows, ncols,
                                                                groupRows);
      break;
    case Variant::TiledVec4Quad:
      transposeTiledVec4Quad<<<grid, tiledBlock(), 0, stream>>>(out, in, nrows, ncols,
                                                                groupRows);
      break;
  }
  return cudaPeekAtLastError();
}

/// Transposes the nrows x ncols matrix @p in into @p out with the fastest
/// kernel these arguments allow (chooseVariant). Same errors as launchVariant.
inline cudaError_t transpose(float* out, const float* in, int nrows, int ncols,
                             cudaStream_t stream = nullptr) {
  return launchVariant(chooseVariant(out, in, nrows, ncols), out, in, nrows, ncols, stream);
}

}  // namespace wb::transpose::beyond
