/**
 * @file transpose.cuh
 * @brief Book section 5.4, "Coalescing Global Memory Accesses": the contract
 *        of the matrix-transpose exercises.
 *
 * Every kernel takes a row-major float matrix `in` of nrows x ncols and
 * writes `out`:
 *  - the transposes write the ncols x nrows matrix
 *    `out[c * nrows + r] = in[r * ncols + c]` for every r < nrows, c < ncols;
 *  - copyGmem, the bandwidth ceiling, writes the nrows x ncols copy.
 * Every element of `out` is written exactly once and nothing outside it is;
 * nrows and ncols are any positive sizes, not only tile multiples.
 *
 * Launch (the `launch` helper below does it): blocks of blockX x blockY
 * threads, grid (ceil(ncols / (blockX * unroll)), ceil(nrows / blockY)).
 * Block (bx, by) covers input rows [by * blockY, (by + 1) * blockY) and
 * input columns [bx * blockX * unroll, (bx + 1) * blockX * unroll).
 *  - The static-tile kernels (transposeSmem, transposeSmemPad,
 *    transposeSmemUnrollPad) need blocks of kBlockX x kBlockY = 32 x 16.
 *  - The dynamic-tile kernels (transposeSmemDyn, transposeSmemPadDyn) size
 *    their tile from blockDim and work with any block shape; they are
 *    launched with (blockDim.x + pad) * blockDim.y floats of dynamic shared
 *    memory, pad being kPad for the padded one and 0 otherwise.
 *  - The global-memory kernels work with any block shape.
 *
 * Rules every kernel keeps: a thread outside the matrix skips its loads and
 * stores but still reaches every `__syncthreads()` (never `return` before a
 * barrier); each phase tests the coordinates of the element it touches
 * against the matrix that element lives in (see transpose_maps.h).
 *
 * Each exercise is one file with the kernel's name under `starter/transpose/`.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/exercise_kernel.h"
#include "transpose_maps.h"

namespace wb::transpose {

/// Copies the nrows x ncols input row by row: reads and writes coalesced,
/// the ceiling the transposes are measured against (5.4.1). Given.
__global__ void copyGmem(float* out, const float* in, int nrows, int ncols);
/// Thread (row, col) reads in[row][col] (coalesced) and writes
/// out[col][row]: lanes of a warp write nrows floats apart, one memory
/// segment per lane (5.4.1). Given.
__global__ void naiveGmem(float* out, const float* in, int nrows, int ncols);
/// naiveGmem with two elements per thread, blockDim.x columns apart: more
/// independent loads in flight per thread, the same strided writes (5.4.4).
__global__ void naiveGmemUnroll(float* out, const float* in, int nrows, int ncols);
/// Transposes through a kBlockY x kBlockX static tile: rows of the input go
/// into tile rows, tile columns come out as rows of the output, so both
/// global accesses are coalesced; the column read is a 16-way bank
/// conflict (5.4.2).
__global__ void transposeSmem(float* out, const float* in, int nrows, int ncols);
/// transposeSmem with the tile in dynamic shared memory, blockDim.y rows of
/// blockDim.x floats: works for any block shape (5.4.2).
__global__ void transposeSmemDyn(float* out, const float* in, int nrows, int ncols);
/// transposeSmem on a tile padded by kPad floats per row: the column read
/// becomes conflict-free (5.4.3).
__global__ void transposeSmemPad(float* out, const float* in, int nrows, int ncols);
/// transposeSmemPad in dynamic shared memory, blockDim.x + kPad floats per
/// tile row: any block shape (5.4.3).
__global__ void transposeSmemPadDyn(float* out, const float* in, int nrows, int ncols);
/// Two padded tiles side by side per block: each thread moves two elements,
/// kBlockX columns apart, through a kBlockY x (2 * kBlockX + kPad) tile
/// (5.4.4).
__global__ void transposeSmemUnrollPad(float* out, const float* in, int nrows, int ncols);

/// The parameters every kernel of the section has, as the C++ demangler
/// writes them.
inline constexpr const char* kKernelParameters = "(float*, float const*, int, int)";

/// Where a kernel keeps its tile.
enum class SharedTile {
  None,     ///< global memory only
  Static,   ///< `__shared__ float tile[..][..]`, fixed 32 x 16 blocks
  Dynamic,  ///< `extern __shared__ float tile[]`, sized by the launch
};

/// One exercise of the section and everything a test, the sweep or a report
/// needs to know about it.
struct TransposeKernel {
  const char* name;          ///< kernel name, also the exercise's file name (without .cu)
  Reference reference;       ///< the output it must produce
  int unroll;                ///< input columns per thread, blockDim.x apart
  SharedTile tile;           ///< where its tile lives, if it has one
  bool padded;               ///< tile rows carry kPad floats of padding
  const char* bookSection;   ///< where the book discusses it
  std::size_t staticSmemBytes;  ///< static shared memory it must declare, padding included

  /// The kernel, from the exercise's compiled module (exercise_kernel.h).
  const void* function() const {
    const std::string signature = std::string("wb::transpose::") + name + kKernelParameters;
    return exerciseKernel("transpose", name, signature.c_str());
  }
  /// True unless the kernel's tile is static, which fixes the block shape.
  bool anyBlockShape() const { return tile != SharedTile::Static; }
  /// The tile a block of @p block threads works through (its index maps and
  /// bank behaviour are in transpose_maps.h). Meaningless when tile is None.
  TileGeometry tileFor(dim3 block = dim3(kBlockX, kBlockY)) const {
    return TileGeometry{static_cast<int>(block.x), static_cast<int>(block.y), unroll,
                        padded ? kPad : 0};
  }
  /// Dynamic shared memory to launch with blocks of @p block threads, in bytes.
  std::size_t dynamicSmemBytes(dim3 block) const {
    return tile == SharedTile::Dynamic ? tileFor(block).bytes() : 0;
  }
  /// The grid that covers an nrows x ncols input with blocks of @p block.
  dim3 grid(int nrows, int ncols, dim3 block) const {
    return dim3(static_cast<unsigned>(gridX(ncols, static_cast<int>(block.x), unroll)),
                static_cast<unsigned>(gridY(nrows, static_cast<int>(block.y))));
  }
};

/// The block every kernel is launched with unless the caller picks another.
inline dim3 defaultBlock() { return dim3(kBlockX, kBlockY); }

/// Every kernel of the section, in the order the book presents them.
inline const std::vector<TransposeKernel>& transposeKernels() {
  using R = Reference;
  using S = SharedTile;
  static const std::vector<TransposeKernel> all = {
      {"copyGmem", R::Copy, 1, S::None, false, "5.4.1", 0},
      {"naiveGmem", R::Transpose, 1, S::None, false, "5.4.1", 0},
      {"naiveGmemUnroll", R::Transpose, kUnroll, S::None, false, "5.4.4",
       0},
      {"transposeSmem", R::Transpose, 1, S::Static, false, "5.4.2",
       kTile.bytes()},
      {"transposeSmemDyn", R::Transpose, 1, S::Dynamic, false, "5.4.2", 0},
      {"transposeSmemPad", R::Transpose, 1, S::Static, true, "5.4.3",
       kPaddedTile.bytes()},
      {"transposeSmemPadDyn", R::Transpose, 1, S::Dynamic, true, "5.4.3", 0},
      {"transposeSmemUnrollPad", R::Transpose, kUnroll, S::Static, true, "5.4.4",
       kUnrolledPaddedTile.bytes()},
  };
  return all;
}

/// Finds a kernel by name ("transposeSmemPad"); nullptr when unknown.
inline const TransposeKernel* findTransposeKernel(const std::string& name) {
  for (const auto& k : transposeKernels()) {
    if (name == k.name) return &k;
  }
  return nullptr;
}

/**
 * @brief Launches @p k on the nrows x ncols matrix @p in, writing @p out,
 *        with blocks of @p block threads and the grid and dynamic shared
 *        memory the contract prescribes. An empty matrix launches nothing.
 * @throws std::invalid_argument when the configuration breaks a launch rule
 *         (launchConfigError says which). Launch errors are left for the
 *         caller to check (wb::checkLaunch).
 */
inline void launch(const TransposeKernel& k, float* out, const float* in, int nrows, int ncols,
                   dim3 block = defaultBlock(), cudaStream_t stream = nullptr) {
  const std::string problem =
      block.z != 1 ? std::string("blocks must be two-dimensional (blockDim.z == 1)")
                   : launchConfigError(!k.anyBlockShape(), k.unroll, static_cast<int>(block.x),
                                       static_cast<int>(block.y), nrows, ncols);
  if (!problem.empty()) throw std::invalid_argument(std::string(k.name) + ": " + problem);
  if (nrows == 0 || ncols == 0) return;
  launchKernel(k.function(), k.grid(nrows, ncols, block), block, k.dynamicSmemBytes(block),
               stream, out, in, nrows, ncols);
}

}  // namespace wb::transpose
