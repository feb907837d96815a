// GPU tests of the harness: the checks every performance test runs after
// each timed run, an output's fingerprint computed on the device
// (wb::perf::fingerprintOnDevice, behind compareWithFingerprint) and the
// transpose check. If they said "right" for a wrong output, a kernel that
// skips its work once checked would pass every performance test; these tests
// are what would notice. Skipped without a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "wb/buffer.h"
#include "wb/fingerprint.h"
#include "wb/isolated.h"
#include "wb/gtest_support.h"
#include "wb/perf_ratio.h"

namespace wb {
namespace {

class GpuFingerprint : public GpuTest {
 protected:
  /// The fingerprint of @p values, uploaded and computed on the device.
  template <class T>
  static std::uint64_t onDevice(const std::vector<T>& values) {
    DeviceBuffer<T> d(values.size());
    d.upload(values);
    return perf::fingerprintOnDevice(d.data(), values.size());
  }
};

/// n distinct-looking ints.
std::vector<int> pattern(std::size_t n) {
  std::vector<int> a(n);
  for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<int>(i * 2654435761u);
  return a;
}

// The device computes the host's fingerprint, for every size: an expected
// output is fingerprinted on the host and compared with outputs
// fingerprinted on the device.
TEST_F(GpuFingerprint, DeviceAndHostAgreeForEverySize) {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{255}, std::size_t{257},
                        std::size_t{3} * 4096 * 256 + 5}) {
    const std::vector<int> a = pattern(n);
    EXPECT_EQ(onDevice(a), perf::fingerprintOnHost(a)) << n << " elements";
    std::vector<float> f(n);
    for (std::size_t i = 0; i < n; ++i) f[i] = static_cast<float>(i % 977) * 0.25f - 3.0f;
    EXPECT_EQ(onDevice(f), perf::fingerprintOnHost(f)) << n << " floats";
  }
}

// One wrong element anywhere, the last one of an input larger than the grid
// (so only the grid-stride loop reaches it) included, and two elements
// swapped, change the fingerprint.
TEST_F(GpuFingerprint, OneDifferentElementAnywhereChangesIt) {
  const std::size_t n = std::size_t{3} * 4096 * 256 + 5;
  const std::vector<int> want = pattern(n);
  const std::uint64_t expected = perf::fingerprintOnHost(want);
  for (std::size_t at : {std::size_t{0}, std::size_t{255}, std::size_t{256}, n / 2, n - 1}) {
    std::vector<int> got = want;
    got[at] += 1;
    EXPECT_NE(onDevice(got), expected) << "element " << at << " of " << n;
  }
  std::vector<int> swapped = want;
  std::swap(swapped[3], swapped[n - 2]);
  EXPECT_NE(onDevice(swapped), expected);
}

// Compared by bits: a poisoned (NaN) element never passes, and -0 is not 0.
TEST_F(GpuFingerprint, FloatsAreComparedByTheirBits) {
  const std::vector<float> want = {1.0f, 2.0f, 0.0f};
  std::vector<float> got = want;
  EXPECT_EQ(onDevice(got), perf::fingerprintOnHost(want));
  got[1] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_NE(onDevice(got), perf::fingerprintOnHost(want));
  got = want;
  got[2] = -0.0f;
  EXPECT_NE(onDevice(got), perf::fingerprintOnHost(want));
}

// What a performance test says of a wrong timed run: unwritten elements
// first, then the first mismatches against the expected output, computed on
// the host only then.
TEST_F(GpuFingerprint, AWrongOutputIsDescribed) {
  const std::vector<int> want = pattern(1000);
  const std::uint64_t expected = perf::fingerprintOnHost(want);
  DeviceBuffer<int> out(want.size());
  out.poison();  // the guard zones too, as a performance test's buffers are
  int asked = 0;
  const auto expectedOutput = [&] {
    ++asked;
    return want;
  };
  out.upload(want);
  EXPECT_EQ(perf::compareWithExpected(out, expected, "k", flatIndex, expectedOutput), "");
  EXPECT_EQ(asked, 0) << "the expected output was computed for a right output";
  std::vector<int> wrong = want;
  wrong[517] = 5;
  out.upload(wrong);
  const std::string said = perf::compareWithExpected(out, expected, "k", flatIndex, expectedOutput);
  EXPECT_NE(said.find("[517]"), std::string::npos) << said;
  out.poison();
  EXPECT_NE(perf::compareWithExpected(out, expected, "k", flatIndex, expectedOutput), "");
}

// The transpose check judges an output against the input itself: every
// shape (one row, one column, rectangles past the grid), and one element
// out of place anywhere, the corners included.
TEST_F(GpuFingerprint, TransposeIsJudgedAgainstTheInput) {
  const std::pair<std::size_t, std::size_t> shapes[] = {{1, 1}, {1, 300}, {300, 1}, {17, 33},
                                                        {1200, 1100}};
  for (const auto& [rows, cols] : shapes) {
    std::vector<float> in(rows * cols);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 9973) + 0.5f;
    std::vector<float> out(in.size());
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t c = 0; c < cols; ++c) out[c * rows + r] = in[r * cols + c];
    }
    DeviceBuffer<float> din(in.size());
    DeviceBuffer<float> dout(out.size());
    din.upload(in);
    dout.upload(out);
    EXPECT_EQ(perf::compareTransposeOnDevice(dout, din, rows, cols, "t"), "")
        << rows << " x " << cols;
    for (std::size_t at : {std::size_t{0}, out.size() / 2, out.size() - 1}) {
      std::vector<float> wrong = out;
      wrong[at] += 1.0f;
      dout.upload(wrong);
      EXPECT_NE(perf::compareTransposeOnDevice(dout, din, rows, cols, "t"), "")
          << rows << " x " << cols << ", element " << at;
    }
    // The input itself is not its transpose unless the matrix is a vector.
    if (rows > 1 && cols > 1) {
      dout.upload(in);
      EXPECT_NE(perf::compareTransposeOnDevice(dout, din, rows, cols, "t"), "")
          << rows << " x " << cols << ": the input passed as its own transpose";
    }
  }
}

// A config function runs in a confined child after CUDA's initialisation,
// under a data limit and a filter without shared anonymous maps
// (wb/confine.h). CUDA's own memory must still work there: device memory
// and a memset on the device, managed memory touched from the host, a copy
// from the child's own memory. Pinned memory does not: the driver maps it
// shared and anonymous, which the filter refuses (on an H100, CUDA 13,
// cudaMallocHost and cudaHostAlloc then report cudaErrorMemoryAllocation);
// no config exercise needs it. Each step that fails names itself by its
// number, plus the CUDA error's.
TEST(GpuConfinedChild, CudaMemoryWorksWithinItsLimits) {
  const IsolatedResult r = callIsolated(
      [] {
        constexpr std::size_t kDevice = std::size_t{1} << 30;
        constexpr std::size_t kHost = std::size_t{256} << 20;
        auto failed = [](int step, cudaError_t e) { return 1000.0 * step + e; };
        void* device = nullptr;
        if (const cudaError_t e = cudaMalloc(&device, kDevice); e != cudaSuccess) return failed(1, e);
        if (const cudaError_t e = cudaMemset(device, 1, kDevice); e != cudaSuccess) return failed(2, e);
        if (const cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) return failed(3, e);
        void* managed = nullptr;
        if (const cudaError_t e = cudaMallocManaged(&managed, kHost); e != cudaSuccess) {
          return failed(4, e);
        }
        std::memset(managed, 1, kHost);
        if (const cudaError_t e = cudaMemcpy(device, managed, kHost, cudaMemcpyDefault);
            e != cudaSuccess) {
          return failed(5, e);
        }
        std::vector<char> own(std::size_t{64} << 20, 1);
        if (const cudaError_t e = cudaMemcpy(device, own.data(), own.size(), cudaMemcpyHostToDevice);
            e != cudaSuccess) {
          return failed(6, e);
        }
        if (const cudaError_t e = cudaFree(managed); e != cudaSuccess) return failed(7, e);
        if (const cudaError_t e = cudaFree(device); e != cudaSuccess) return failed(7, e);
        return 0.0;
      },
      60, ChildSetup::Gpu);
  if (r.kind == IsolatedResult::Kind::Skipped) GTEST_SKIP() << r.detail;
  ASSERT_EQ(r.kind, IsolatedResult::Kind::Returned) << "the child " << r.describe();
  EXPECT_EQ(r.value, 0.0) << "step " << static_cast<int>(r.value) / 1000 << " failed with CUDA error "
                          << static_cast<int>(r.value) % 1000
                          << " (1 cudaMalloc, 2 cudaMemset, 3 synchronize, 4 cudaMallocManaged,"
                             " 5 copy from managed memory, 6 copy from the child's own memory,"
                             " 7 freeing)";
}

}  // namespace
}  // namespace wb
