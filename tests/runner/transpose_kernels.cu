// Section 5.4 kernels for the runner: one block's worth of matrix (16 rows of
// 32 floats, 64 for the kernels that handle two tiles per block), so Nsight
// Compute's per-request counters describe exactly one tile.
#include "registry.h"
#include "transpose/transpose.cuh"
#include "transpose/transpose_check.h"

namespace wb::runner {

namespace {

std::vector<RunnableKernel> transposeKernels() {
  using namespace transpose;
  std::vector<RunnableKernel> out;
  for (const TransposeKernel& k : transpose::transposeKernels()) {
    RunnableKernel r;
    r.section = "transpose";
    r.id = k.name;
    r.exercise = k.name;
    r.qualifiedName = std::string("wb::transpose::") + k.name;
    if (k.tile != SharedTile::None) {
      // Read phase: a warp stores one tile row; write phase: it loads down
      // the tile's columns.
      r.sharedStoreWays = tileConflictWays(k.tileFor(), TileAccess::RowStore);
      r.sharedLoadWays = tileConflictWays(k.tileFor(), TileAccess::ColumnLoad);
    }
    // A warp of the copy or of a tiled kernel writes whole 32-byte sectors
    // of output rows (4 per request); the naive kernels write a column, one
    // sector per lane (the output rows here are 16 floats = 64 bytes apart).
    r.globalStoreSectors = (k.reference == Reference::Copy || k.tile != SharedTile::None) ? 4 : 32;
    r.runOnce = [&k] {
      return transpose::testing::runAndCheck(k, kBlockY, kBlockX * k.unroll, inputSeed());
    };
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

}  // namespace wb::runner

WB_RUNNER_SECTION(transpose, wb::runner::transposeKernels);
