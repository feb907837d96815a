// Correctness of the reference transposes beyond book section 5.4: each
// kernel on every shape it accepts (the scalar kernel on all, the float4
// kernels on sides divisible by four), and transpose(), which picks one, on
// all shapes and on pointers off a 16-byte boundary. Outputs are poisoned
// and guarded; inputs are guarded, so a read outside the matrix brings a
// NaN into the output.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "transpose/beyond.cuh"
#include "transpose_beyond_check.h"
#include "wb/gtest_support.h"

namespace wb::transpose::beyond {
namespace {

struct Shape {
  int nrows;
  int ncols;
  std::string id() const { return std::to_string(nrows) + "x" + std::to_string(ncols); }
};

// Any shape: single elements, rows and columns, one off a tile either way,
// partial tiles on both edges, and large with a ragged edge.
const Shape kAnyShapes[] = {{1, 1},    {1, 1000}, {1000, 1},   {33, 31},
                            {31, 33},  {1000, 777}, {4097, 2049}};
// Sides divisible by four but not by the tile (32) or the wide and quad
// blocks (64), so the float4 kernels meet partial tiles and empty second
// tiles, across and down.
const Shape kVec4Shapes[] = {{4, 4},     {4, 1000},   {1000, 4},    {36, 28},
                             {28, 36},   {1000, 776}, {4096, 2052}, {2048, 2048}};

/// One kernel (empty: transpose()) on one shape.
struct Case {
  std::optional<Variant> variant;
  Shape shape;
};

std::vector<Case> allCases() {
  std::vector<Case> cases;
  const std::optional<Variant> kernels[] = {std::nullopt, Variant::Tiled, Variant::TiledVec4,
                                            Variant::TiledVec4Wide, Variant::TiledVec4Quad};
  for (const auto& kernel : kernels) {
    for (const Shape& s : kAnyShapes) {
      if (!kernel || *kernel == Variant::Tiled) cases.push_back({kernel, s});
    }
    for (const Shape& s : kVec4Shapes) cases.push_back({kernel, s});
  }
  return cases;
}

class GpuBeyondTranspose : public GpuTestWithParam<Case> {};

TEST_P(GpuBeyondTranspose, TransposesEveryElement) {
  const Case& c = GetParam();
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  EXPECT_TRUE(noProblem(testing::runAndCheck(c.variant, c.shape.nrows, c.shape.ncols, seed)));
}

INSTANTIATE_TEST_SUITE_P(Beyond, GpuBeyondTranspose, ::testing::ValuesIn(allCases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           const Case& c = info.param;
                           return std::string(c.variant ? variantName(*c.variant) : "transpose") +
                                  "_" + c.shape.id();
                         });

// The block order must not matter to the result: plain raster order (1),
// bands that do not divide the grid (3: the last band is short), and one
// band taller than the grid (1000: the whole grid column-major).
class GpuBeyondTransposeBlockOrder
    : public GpuTestWithParam<std::tuple<Variant, int>> {};

TEST_P(GpuBeyondTransposeBlockOrder, AnyBandHeightGivesTheSameTranspose) {
  const auto& [variant, groupRows] = GetParam();
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  EXPECT_TRUE(noProblem(testing::runAndCheck(variant, 1000, 776, seed, 0, 0, groupRows)));
  if (variant == Variant::Tiled) {
    EXPECT_TRUE(noProblem(testing::runAndCheck(variant, 4097, 2049, seed + 1, 0, 0, groupRows)));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Beyond, GpuBeyondTransposeBlockOrder,
    ::testing::Combine(::testing::Values(Variant::Tiled, Variant::TiledVec4,
                                         Variant::TiledVec4Wide, Variant::TiledVec4Quad),
                       ::testing::Values(1, 3, 1000)),
    [](const ::testing::TestParamInfo<std::tuple<Variant, int>>& info) {
      return std::string(variantName(std::get<0>(info.param))) + "_bands" +
             std::to_string(std::get<1>(info.param));
    });

// transpose() on pointers off a 16-byte boundary: the float4 kernels would
// fault or read the wrong floats, so it must fall back to the scalar one.
class GpuBeyondTransposeMisaligned : public GpuTestWithParam<Shape> {};

TEST_P(GpuBeyondTransposeMisaligned, FallsBackToTheScalarKernel) {
  const Shape& s = GetParam();
  const std::uint64_t seed = testSeed();
  SCOPED_TRACE(seedNote(seed));
  EXPECT_TRUE(noProblem(testing::runAndCheck(std::nullopt, s.nrows, s.ncols, seed, 1, 0)));
  EXPECT_TRUE(noProblem(testing::runAndCheck(std::nullopt, s.nrows, s.ncols, seed + 1, 0, 3)));
  EXPECT_TRUE(noProblem(testing::runAndCheck(Variant::Tiled, s.nrows, s.ncols, seed + 2, 2, 1)));
}

INSTANTIATE_TEST_SUITE_P(Beyond, GpuBeyondTransposeMisaligned,
                         ::testing::Values(Shape{36, 28}, Shape{1000, 776}),
                         [](const ::testing::TestParamInfo<Shape>& info) {
                           return info.param.id();
                         });

// The launch rules, on the host: no kernel runs in these tests.
const float* at(std::uintptr_t address) { return reinterpret_cast<const float*>(address); }

TEST(HostBeyondTranspose, Vec4NeedsSidesOfFourAndAlignedPointers) {
  EXPECT_TRUE(vec4Allowed(const_cast<float*>(at(256)), at(512), 8, 12));
  EXPECT_FALSE(vec4Allowed(const_cast<float*>(at(256)), at(512), 8, 13));
  EXPECT_FALSE(vec4Allowed(const_cast<float*>(at(256)), at(512), 6, 12));
  EXPECT_FALSE(vec4Allowed(const_cast<float*>(at(260)), at(512), 8, 12));
  EXPECT_FALSE(vec4Allowed(const_cast<float*>(at(256)), at(520), 8, 12));
  EXPECT_EQ(chooseVariant(const_cast<float*>(at(256)), at(512), 8, 12), Variant::TiledVec4Quad);
  EXPECT_EQ(chooseVariant(const_cast<float*>(at(256)), at(516), 8, 12), Variant::Tiled);
}

TEST(HostBeyondTranspose, RefusesWhatItCannotRun) {
  float* out = const_cast<float*>(at(256));
  EXPECT_EQ(launchVariant(Variant::TiledVec4, out, at(512), 8, 13), cudaErrorInvalidValue);
  EXPECT_EQ(launchVariant(Variant::Tiled, out, at(512), -1, 4), cudaErrorInvalidValue);
  EXPECT_EQ(launchVariant(Variant::Tiled, out, at(512), kMaxRows + 1, 4), cudaErrorInvalidValue);
  EXPECT_EQ(launchVariant(Variant::Tiled, out, at(512), 8, 4, nullptr, 0), cudaErrorInvalidValue);
  // 65535 x 2^23 blocks: more than the block order's 32-bit count.
  EXPECT_EQ(launchVariant(Variant::Tiled, out, at(512), kMaxRows, 1 << 28), cudaErrorInvalidValue);
  EXPECT_EQ(launchVariant(Variant::Tiled, out, at(512), 0, 4), cudaSuccess);  // nothing to do
}

// Every tile is taken by exactly one block, whatever the grid and the band.
TEST(HostBeyondTranspose, GroupedOrderIsOneToOne) {
  struct Grid {
    unsigned int gx, gy;
    int groupRows;
  };
  for (const Grid g : {Grid{1, 1, kGroupRows}, Grid{3, 5, 2}, Grid{256, 256, kGroupRows},
                       Grid{129, 65, kGroupRows}, Grid{7, 100, kGroupRows},
                       Grid{64, 1, kGroupRows}, Grid{1, 64, kGroupRows}, Grid{13, 17, 3},
                       Grid{10, 10, 1}, Grid{10, 10, 0}}) {
    SCOPED_TRACE(std::to_string(g.gx) + " x " + std::to_string(g.gy) + " blocks, bands of " +
                 std::to_string(g.groupRows));
    std::vector<int> taken(static_cast<std::size_t>(g.gx) * g.gy, 0);
    for (unsigned int y = 0; y < g.gy; ++y) {
      for (unsigned int x = 0; x < g.gx; ++x) {
        const TilePosition t = groupedTilePosition(x, y, g.gx, g.gy, g.groupRows);
        ASSERT_TRUE(t.bx >= 0 && t.by >= 0 && static_cast<unsigned int>(t.bx) < g.gx &&
                    static_cast<unsigned int>(t.by) < g.gy)
            << "block (" << x << ", " << y << ") got tile (" << t.bx << ", " << t.by << ")";
        ++taken[static_cast<std::size_t>(t.by) * g.gx + t.bx];
        if (g.groupRows <= 1) {
          EXPECT_EQ(t.bx, static_cast<int>(x));
          EXPECT_EQ(t.by, static_cast<int>(y));
        }
      }
    }
    for (const int count : taken) ASSERT_EQ(count, 1);
  }
  // Consecutive launches walk down the band first.
  const TilePosition second = groupedTilePosition(1, 0, 256, 256, kGroupRows);
  EXPECT_EQ(second.bx, 0);
  EXPECT_EQ(second.by, 1);
}

TEST(HostBeyondTranspose, GridCoversTheMatrix) {
  const dim3 g = tiledGrid(Variant::Tiled, 33, 65);
  EXPECT_EQ(g.x, 3u);
  EXPECT_EQ(g.y, 2u);
  const dim3 w = tiledGrid(Variant::TiledVec4Wide, 32, 68);
  EXPECT_EQ(w.x, 2u);
  EXPECT_EQ(w.y, 1u);
  const dim3 q = tiledGrid(Variant::TiledVec4Quad, 65, 64);
  EXPECT_EQ(q.x, 1u);
  EXPECT_EQ(q.y, 2u);
}

}  // namespace
}  // namespace wb::transpose::beyond
