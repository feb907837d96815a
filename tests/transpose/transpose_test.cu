// Correctness of every transpose kernel (book section 5.4): the exact output
// on square and rectangular matrices that are not tile multiples, written
// into poisoned memory with guard zones on both sides; any block shape for
// the kernels that accept one; and the shared memory each tiled kernel must
// declare.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "transpose/transpose.cuh"
#include "transpose_check.h"
#include "transpose_sizes.h"
#include "wb/gtest_support.h"

namespace wb::transpose {
namespace {

using testing::MatrixSize;

// ---------------------------------------------------------------------------
// Every kernel on every size of the list.

struct SizeCase {
  TransposeKernel kernel;
  MatrixSize size;
};

void PrintTo(const SizeCase& c, std::ostream* os) {
  *os << c.kernel.name << " on " << c.size.id();
}

std::vector<SizeCase> everyKernelOnEverySize() {
  std::vector<SizeCase> cases;
  for (const TransposeKernel& k : transposeKernels()) {
    for (const MatrixSize& s : testing::testSizes()) cases.push_back({k, s});
  }
  return cases;
}

class GpuTranspose : public GpuTestWithParam<SizeCase> {};

TEST_P(GpuTranspose, MatchesTheReference) {
  const SizeCase& c = GetParam();
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  SCOPED_TRACE(c.size.why);
  EXPECT_TRUE(noProblem(testing::runAndCheck(c.kernel, c.size.nrows, c.size.ncols, seed)));
}

INSTANTIATE_TEST_SUITE_P(Transpose, GpuTranspose, ::testing::ValuesIn(everyKernelOnEverySize()),
                         [](const ::testing::TestParamInfo<SizeCase>& info) {
                           return std::string(info.param.kernel.name) + "_" +
                                  info.param.size.id();
                         });

// ---------------------------------------------------------------------------
// Sizes nobody chose: three random shapes per run, from the test's seed.

class GpuTransposeRandom : public GpuTestWithParam<TransposeKernel> {};

TEST_P(GpuTransposeRandom, MatchesTheReferenceOnRandomSizes) {
  const TransposeKernel& k = GetParam();
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> side(1, 3000);
  for (int round = 0; round < 3; ++round) {
    const int nrows = side(rng);
    const int ncols = side(rng);
    SCOPED_TRACE(std::to_string(nrows) + " x " + std::to_string(ncols));
    EXPECT_TRUE(noProblem(testing::runAndCheck(k, nrows, ncols, rng())));
  }
}

INSTANTIATE_TEST_SUITE_P(Transpose, GpuTransposeRandom, ::testing::ValuesIn(transposeKernels()),
                         [](const ::testing::TestParamInfo<TransposeKernel>& info) {
                           return std::string(info.param.name);
                         });

// ---------------------------------------------------------------------------
// Kernels without a static tile must work for any block shape: the
// block-shape sweep (book 5.4.5, bench/sweep) launches them with all of these.

struct BlockCase {
  TransposeKernel kernel;
  dim3 block;
};

void PrintTo(const BlockCase& c, std::ostream* os) {
  *os << c.kernel.name << " with blocks of " << c.block.x << " x " << c.block.y;
}

std::vector<BlockCase> flexibleKernelsOnOtherBlocks() {
  // Narrow and wide, short and tall, the largest block, and one shape that
  // is not a power of two.
  const dim3 blocks[] = {dim3(8, 2), dim3(64, 4), dim3(16, 16), dim3(128, 8), dim3(32, 32),
                         dim3(7, 3)};
  std::vector<BlockCase> cases;
  for (const TransposeKernel& k : transposeKernels()) {
    if (!k.anyBlockShape()) continue;
    for (const dim3& b : blocks) cases.push_back({k, b});
  }
  return cases;
}

class GpuTransposeAnyBlock : public GpuTestWithParam<BlockCase> {};

TEST_P(GpuTransposeAnyBlock, MatchesTheReference) {
  const BlockCase& c = GetParam();
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  for (const auto& [nrows, ncols] : {std::pair{33, 31}, std::pair{1000, 777}}) {
    EXPECT_TRUE(noProblem(testing::runAndCheck(c.kernel, nrows, ncols, seed, c.block)));
  }
}

INSTANTIATE_TEST_SUITE_P(Transpose, GpuTransposeAnyBlock,
                         ::testing::ValuesIn(flexibleKernelsOnOtherBlocks()),
                         [](const ::testing::TestParamInfo<BlockCase>& info) {
                           return std::string(info.param.kernel.name) + "_block" +
                                  std::to_string(info.param.block.x) + "x" +
                                  std::to_string(info.param.block.y);
                         });

// ---------------------------------------------------------------------------
// The exercise is the shared tile: a kernel that transposes straight from
// global memory would pass the output tests but teach nothing.

std::vector<TransposeKernel> tiledKernels() {
  std::vector<TransposeKernel> tiled;
  for (const TransposeKernel& k : transposeKernels()) {
    if (k.tile != SharedTile::None) tiled.push_back(k);
  }
  return tiled;
}

class GpuTransposeSharedTile : public GpuTestWithParam<TransposeKernel> {};

// Static kernels: exactly the tile, padding included. Dynamic kernels: no
// static tile at all, and a correct result with a block whose tile only the
// launch-sized dynamic memory can hold.
TEST_P(GpuTransposeSharedTile, DeclaresItsSharedTile) {
  const TransposeKernel& k = GetParam();
  cudaFuncAttributes attr{};
  WB_CUDA(cudaFuncGetAttributes(&attr, k.function()));
  if (k.tile == SharedTile::Static) {
    EXPECT_EQ(attr.sharedSizeBytes, k.staticSmemBytes)
        << k.name << " must declare a static tile of " << k.staticSmemBytes / sizeof(float)
        << " floats (" << kBlockY << " rows of " << k.unroll * kBlockX
        << (k.padded ? " + kPad" : "") << "), " << k.staticSmemBytes << " bytes";
    return;
  }
  EXPECT_EQ(attr.sharedSizeBytes, 0u)
      << k.name << " must keep its tile in dynamic shared memory (extern __shared__), but "
      << "declares " << attr.sharedSizeBytes << " bytes of static shared memory";
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  const dim3 block(64, 8);
  EXPECT_TRUE(noProblem(testing::runAndCheck(k, 200, 300, seed, block)))
      << k.name << " must size its tile from blockDim: launched with blocks of 64 x 8 and "
      << k.dynamicSmemBytes(block) << " bytes of dynamic shared memory";
}

INSTANTIATE_TEST_SUITE_P(Transpose, GpuTransposeSharedTile, ::testing::ValuesIn(tiledKernels()),
                         [](const ::testing::TestParamInfo<TransposeKernel>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace wb::transpose
