// Correctness of every layout kernel (book section 5.2), square and
// rectangular: the exact output permutation on every block of a multi-block
// launch, written into poisoned memory with guard zones on both sides, and
// the shared memory each kernel must declare.
#include <gtest/gtest.h>

#include "layout/layout.cuh"
#include "layout_check.h"
#include "wb/gtest_support.h"

namespace wb::layout {
namespace {

class GpuLayout : public GpuTestWithParam<LayoutKernel> {};

// Several blocks, an odd count: a kernel that ignores blockIdx, or writes
// only block 0, or mixes up blocks, fails on some block.
TEST_P(GpuLayout, WritesTheContractPermutation) {
  const LayoutKernel& k = GetParam();
  EXPECT_TRUE(noProblem(testing::runAndCheck(k, 7)));
}

// One block: the smallest launch the contract allows.
TEST_P(GpuLayout, SingleBlock) {
  const LayoutKernel& k = GetParam();
  EXPECT_TRUE(noProblem(testing::runAndCheck(k, 1)));
}

// The exercise is about shared memory: the kernel must declare its tile
// there, statically or dynamically as the exercise says. A kernel that
// computes the permutation straight from indices would pass the output test
// but teach nothing.
TEST_P(GpuLayout, DeclaresItsSharedTile) {
  const LayoutKernel& k = GetParam();
  // Only a working kernel earns this check: an empty starter kernel declares
  // no static tile either, which is what the dynamic exercises ask for.
  ASSERT_TRUE(noProblem(testing::runAndCheck(k, 1))) << "make " << k.id() << " correct first";
  cudaFuncAttributes attr{};
  WB_CUDA(cudaFuncGetAttributes(&attr, k.function()));
  if (k.dynamicSmem) {
    EXPECT_EQ(attr.sharedSizeBytes, 0u)
        << k.id() << " must keep its tile in dynamic shared memory (extern __shared__), "
        << "but declares " << attr.sharedSizeBytes << " bytes of static shared memory";
  } else {
    EXPECT_EQ(attr.sharedSizeBytes, k.shape.tileBytes(k.padded))
        << k.id() << " must declare a static tile of " << k.shape.pitch(k.padded) << " x "
        << k.shape.dimY << " ints (" << k.shape.tileBytes(k.padded) << " bytes)"
        << (k.padded ? ", padding included" : "");
  }
}

// The parameter name starts with the kernel's exercise (setRowReadCol_square):
// CTest's discovery labels each test with the exercise it names first
// (cmake/WorkbookDiscoverTests.cmake).
INSTANTIATE_TEST_SUITE_P(Layout, GpuLayout, ::testing::ValuesIn(layoutKernels()),
                         [](const ::testing::TestParamInfo<LayoutKernel>& info) {
                           return std::string(info.param.exercise) + "_" +
                                  info.param.shapeName;
                         });

}  // namespace
}  // namespace wb::layout
