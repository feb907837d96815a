/**
 * @file layout.cuh
 * @brief Book section 5.2, "Checking the Data Layout of Shared Memory": the
 *        contract of the layout exercises.
 *
 * Every kernel here is launched with one block of `dimX x dimY` threads per
 * tile (kSquare or kRect from layout_maps.h) and as many blocks as the caller
 * likes. Thread (tx, ty) of block b owns the value
 * `v = b * dimX * dimY + ty * dimX + tx`. Each kernel
 *   1. stores v into a shared tile with its *store* pattern,
 *   2. waits at a barrier until the whole tile is written,
 *   3. loads one element with its *load* pattern and writes it to
 *      `out[b * dimX * dimY + ty * dimX + tx]` (a coalesced global write).
 *
 * The name says the patterns: `setRowReadCol` stores row-wise and loads
 * column-wise. The patterns are defined exactly by wb::layout::tileOffset.
 * `Dyn` kernels declare the tile as `extern __shared__ int tile[]` and are
 * launched with the tile's size as dynamic shared memory; `Pad` kernels add
 * the shape's `pad` ints to every tile row.
 *
 * The square kernels live in namespace wb::layout::square (kSquare, 32 x 32),
 * the rectangular ones in wb::layout::rect (kRect, 32 wide, 16 high). Each
 * exercise is one file with the exercise's name under `starter/layout/`.
 */
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "common/exercise_kernel.h"
#include "layout_maps.h"

namespace wb::layout {

/// Kernels on the square 32 x 32 tile (book section 5.2.1).
namespace square {
/// Tile geometry of this namespace's kernels.
constexpr TileShape kShape = kSquare;
/// Row store, row load: every warp touches 32 banks, the worked example (5.2.1.1).
__global__ void setRowReadRow(int* out);
/// Column store, column load: a warp's 32 lanes queue on one bank, 32-way (5.2.1.1).
__global__ void setColReadCol(int* out);
/// Column store (32-way), row load (conflict-free); output is the tile transposed (5.2.1.2).
__global__ void setColReadRow(int* out);
/// Row store (conflict-free), column load (32-way); output is the tile transposed (5.2.1.2).
__global__ void setRowReadCol(int* out);
/// setRowReadCol with `extern __shared__` storage sized at launch (5.2.1.3).
__global__ void setRowReadColDyn(int* out);
/// setRowReadCol on a 32 x 33 tile: the padding makes the column load conflict-free (5.2.1.4).
__global__ void setRowReadColPad(int* out);
/// setRowReadColPad with the padded tile in dynamic shared memory (5.2.1.5).
__global__ void setRowReadColDynPad(int* out);
/**
 * @brief setColReadRow in dynamic shared memory: column store (32-way), row
 *        load (conflict-free), offsets computed by hand (5.2.1.3; the book's
 *        end-of-chapter exercise 3). Output: the tile transposed.
 */
__global__ void setColReadRowDyn(int* out);
/**
 * @brief setColReadRow on a 32 x 33 tile: the padding makes the column store
 *        conflict-free, the row load stays so (5.2.1.4; the book's
 *        end-of-chapter exercise 4).
 */
__global__ void setColReadRowPad(int* out);
}  // namespace square

/// Kernels on the rectangular tile, 32 ints wide and 16 rows high (book section 5.2.2).
namespace rect {
/// Tile geometry of this namespace's kernels.
constexpr TileShape kShape = kRect;
/// Row store, row load on the 16 x 32 tile: conflict-free (5.2.2.1).
__global__ void setRowReadRow(int* out);
/// Column store and load down 16-row columns: 16-way conflicts both ways (5.2.2.1).
__global__ void setColReadCol(int* out);
/// Column store (16-way) and row load; the output is the tile transposed (5.2.2.2).
__global__ void setColReadRow(int* out);
/// Row store and column load (16-way); the output is the tile transposed (5.2.2.2).
__global__ void setRowReadCol(int* out);
/// setRowReadCol with the tile in dynamic shared memory (5.2.2.3).
__global__ void setRowReadColDyn(int* out);
/// setRowReadCol on a tile padded by kRect.pad ints per row: conflict-free (5.2.2.4).
__global__ void setRowReadColPad(int* out);
/// setRowReadColPad in dynamic shared memory (5.2.2.5).
__global__ void setRowReadColDynPad(int* out);
/**
 * @brief setColReadRow on the 16 x 32 tile in dynamic shared memory: column
 *        store (16-way), row load (5.2.2.3; the book's end-of-chapter
 *        exercise 3).
 */
__global__ void setColReadRowDyn(int* out);
/**
 * @brief setColReadRow on the 16 x 32 tile padded by kRect.pad ints per row:
 *        the column store is conflict-free (5.2.2.4; the book's end-of-chapter
 *        exercise 7).
 */
__global__ void setColReadRowPad(int* out);
}  // namespace rect

/**
 * @brief The bank that holds the 4-byte word [@p row][@p col] of a shared
 *        tile whose rows start @p rowPitch words apart (book section 5.2.1.4;
 *        the book's end-of-chapter exercise 1, exercise bankOfElement).
 *        Shared memory has 32 banks, each 4 bytes wide, on every GPU of
 *        compute capability 7.5 and newer: word w of the tile lies in bank
 *        w mod 32, and element [row][col] is word `row * rowPitch + col`.
 * @param row      the tile's row, 0 or more (any int: the product with
 *                 @p rowPitch may exceed an int)
 * @param col      the word in that row, 0 <= col < rowPitch
 * @param rowPitch words from the start of one row to the next: 32 for
 *                 `int tile[32][32]`, 33 for the padded `int tile[32][33]`
 * @return the bank, 0 to 31
 * @throws std::invalid_argument when @p row or @p col is negative, when
 *         @p rowPitch is below 1 or when @p col is not below @p rowPitch;
 *         the message names the argument and says why
 */
int bankOfElement(int row, int col, int rowPitch);

/**
 * @brief Shared-memory wavefronts the first warp of a block needs for one
 *        read of a tile of ints, row by row or down the columns (book
 *        section 5.2.1.2; the book's end-of-chapter exercise 5, a 16 x 16
 *        tile instead of 32 x 32, exercise columnReadWavefronts).
 *
 * The block is @p tileSide x @p tileSide threads, threadIdx.x fastest, and
 * its first warp is the threads of linear index `tx + ty * tileSide` from 0
 * to 31 (all of them when the block has fewer than 32). Each thread reads
 * one int of a tile whose rows start @p rowPitch ints apart: `tile[ty][tx]`
 * when @p readColumn is false, `tile[tx][ty]` when it is true. The 32 banks
 * are 4 bytes wide (word w in bank w mod 32) and deliver one word each per
 * wavefront; lanes that read the same word share it. What Nsight Compute
 * reports as shared-memory wavefronts per request is the largest number of
 * distinct words any one bank must deliver: 1 without a bank conflict, 32
 * for the 32 x 32 tile's column read.
 * @param tileSide   threads per block in x and in y, 1 to 32
 * @param rowPitch   ints from the start of one tile row to the next, at
 *                   least @p tileSide (tileSide + 1 for a padded tile)
 * @param readColumn true: `tile[tx][ty]`; false: `tile[ty][tx]`
 * @return the wavefronts of the first warp's request, 1 to 32
 * @throws std::invalid_argument when @p tileSide is not from 1 to 32 or
 *         @p rowPitch is below it; the message names the argument and says why
 */
int sharedWavefrontsPerRequest(int tileSide, int rowPitch, bool readColumn);

/// One layout kernel and everything a test, a profiler run or a diagram
/// needs to know about it.
struct LayoutKernel {
  const char* exercise;   ///< kernel name, also the exercise's file name (without .cu)
  const char* shapeName;  ///< "square" or "rect"
  TileShape shape;        ///< tile geometry and launch block shape
  Access store;           ///< pattern of the shared-memory store
  Access load;            ///< pattern of the shared-memory load
  bool padded;            ///< tile rows carry shape.pad ints of padding
  bool dynamicSmem;       ///< the tile is dynamic shared memory
  std::string bookSection;  ///< where the book discusses it, e.g. "5.2.1.4"

  /// Dynamic shared memory to launch with, in bytes.
  std::size_t dynamicSmemBytes() const { return dynamicSmem ? shape.tileBytes(padded) : 0; }
  /// The kernel, from the exercise's compiled module (exercise_kernel.h).
  const void* function() const {
    const std::string signature =
        std::string("wb::layout::") + shapeName + "::" + exercise + "(int*)";
    return exerciseKernel("layout", exercise, signature.c_str());
  }
  /// A unique name, "<shape>_<exercise>", used for test and report names.
  std::string id() const { return std::string(shapeName) + "_" + exercise; }
  /// Conflict ways of one warp's shared-memory store, from the bank model.
  int storeWays() const { return conflictWays(shape, store, padded); }
  /// Conflict ways of one warp's shared-memory load, from the bank model.
  int loadWays() const { return conflictWays(shape, load, padded); }
  /// The exact output of @p blocks blocks.
  std::vector<int> expected(int blocks) const {
    return expectedOutput(shape, store, load, padded, blocks);
  }
};

/// Every layout kernel of both shapes, in the order the book presents them
/// (kLayoutPatterns for the square tile, then for the rectangle).
inline const std::vector<LayoutKernel>& layoutKernels() {
  static const std::vector<LayoutKernel> all = [] {
    std::vector<LayoutKernel> kernels;
    for (const bool isSquare : {true, false}) {
      for (std::size_t i = 0; i < std::size(kLayoutPatterns); ++i) {
        const LayoutPattern& p = kLayoutPatterns[i];
        kernels.push_back(LayoutKernel{p.exercise, isSquare ? "square" : "rect",
                                       isSquare ? kSquare : kRect, p.store,
                                       p.load, p.padded, p.dynamicSmem,
                                       std::string(isSquare ? "5.2.1." : "5.2.2.") +
                                           p.subsection});
      }
    }
    return kernels;
  }();
  return all;
}

/// Finds a kernel by id ("square_setRowReadCol"); nullptr when unknown.
inline const LayoutKernel* findLayoutKernel(const std::string& id) {
  for (const auto& k : layoutKernels()) {
    if (k.id() == id) return &k;
  }
  return nullptr;
}

/// Launches @p k over @p blocks tiles writing into @p out (which must hold
/// blocks * k.shape.elements() ints). Launch errors are left for the caller
/// to check.
inline void launch(const LayoutKernel& k, int* out, int blocks, cudaStream_t stream = nullptr) {
  const dim3 block(k.shape.dimX, k.shape.dimY);
  launchKernel(k.function(), blocks, block, k.dynamicSmemBytes(), stream, out);
}

}  // namespace wb::layout
