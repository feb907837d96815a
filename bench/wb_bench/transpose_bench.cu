// Book section 5.4 in the benchmark: every transpose kernel of the chapter
// (copyGmem, the chapter's own ceiling, among them), the reference
// transposes beyond it (the widest once more in plain raster block order, to
// show what the grouped order buys), cublasSgeam with op T, and the copy
// ceilings, on one square float matrix. A transpose reads and writes every
// element once: bytes = 2 * side^2 * 4. Speedups are over naiveGmem.
#include <cublas_v2.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench.h"
#include "beyond/transpose_beyond_check.h"
#include "transpose/beyond.cuh"
#include "transpose/transpose.cuh"
#include "transpose/transpose_check.h"
#include "wb/buffer.h"
#include "wb/cuda_check.h"

namespace wb::bench {
namespace {

const std::string kBaseline = "naiveGmem";
const std::string kChapterCeiling = "copyGmem";
const std::string kCublasName = "cublasSgeam";
constexpr std::uint64_t kInputSeed = 54;  // any fixed seed: the same input every run

constexpr transpose::beyond::Variant kVariants[] = {
    transpose::beyond::Variant::Tiled, transpose::beyond::Variant::TiledVec4,
    transpose::beyond::Variant::TiledVec4Wide, transpose::beyond::Variant::TiledVec4Quad};

/// The widest reference kernel once more in plain raster block order
/// (groupRows = 1): what the grouped order buys, measured in the same run.
constexpr transpose::beyond::Variant kRasterVariant = transpose::beyond::Variant::TiledVec4Quad;
const std::string kRasterSuffix = "/raster";

/// One reference transpose to time: a kernel and its block order.
struct ReferenceRun {
  transpose::beyond::Variant variant;
  int groupRows;
  std::string name;
};

std::vector<ReferenceRun> referenceRuns() {
  std::vector<ReferenceRun> runs;
  for (const auto v : kVariants) {
    runs.push_back({v, transpose::beyond::kGroupRows, transpose::beyond::variantName(v)});
  }
  runs.push_back(
      {kRasterVariant, 1, std::string(transpose::beyond::variantName(kRasterVariant)) + kRasterSuffix});
  return runs;
}

/// Throws naming @p call when a cuBLAS call failed.
void checkCublas(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(call) + " failed: " + cublasGetStatusName(status) +
                             " (" + cublasGetStatusString(status) + ")");
  }
}

/// A cuBLAS handle for the lifetime of one section run.
class CublasHandle {
 public:
  CublasHandle() { checkCublas(cublasCreate(&handle_), "cublasCreate"); }
  ~CublasHandle() { cublasDestroy(handle_); }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace

std::vector<std::string> transposeKernelNames() {
  std::vector<std::string> names;
  for (const transpose::TransposeKernel& k : transpose::transposeKernels()) {
    names.push_back(k.name);
  }
  for (const ReferenceRun& r : referenceRuns()) names.push_back(r.name);
  names.insert(names.end(), {kCublasName, kCopyKernelName, kMemcpyName});
  return names;
}

std::vector<Row> runTranspose(std::uint64_t sideLength, Context& context) {
  namespace tt = transpose::testing;
  namespace beyond = transpose::beyond;
  const int side = static_cast<int>(sideLength);
  const std::size_t count = static_cast<std::size_t>(side) * side;
  const double matrixBytes = static_cast<double>(count) * sizeof(float);

  const std::vector<float> input = tt::randomMatrix(side, side, kInputSeed);
  const std::vector<float> transposed =
      transpose::referenceOutput(transpose::Reference::Transpose, input, side, side);
  DeviceBuffer<float> in(count);
  DeviceBuffer<float> out(count);
  in.poison();  // guard zones: a read outside the matrix shows in the output
  in.upload(input);

  std::vector<Candidate> candidates;
  for (const transpose::TransposeKernel& k : transpose::transposeKernels()) {
    const std::string name = k.name;
    const Kind kind = name == kBaseline        ? Kind::Baseline
                      : name == kChapterCeiling ? Kind::Ceiling
                                                : Kind::Exercise;
    const std::vector<float>& expected =
        k.reference == transpose::Reference::Copy ? input : transposed;
    candidates.push_back(
        {name, kind, kBaseline, matrixBytes, matrixBytes,
         [&, &k = k, &expected = expected] {
           return tt::runOnce(k, out, in, expected, side, side);
         },
         [&, &k = k] { transpose::launch(k, out.data(), in.data(), side, side); }, {}, true});
  }

  for (const ReferenceRun& r : referenceRuns()) {
    const beyond::Variant v = r.variant;
    const int groupRows = r.groupRows;
    const std::string name = r.name;
    if (v != beyond::Variant::Tiled && !beyond::vec4Allowed(out.data(), in.data(), side, side)) {
      std::fprintf(stderr, "wb_bench: %s needs a side divisible by 4; %d is not, skipped\n",
                   name.c_str(), side);
      continue;
    }
    const auto run = [&, v, groupRows] {
      WB_CUDA(beyond::launchVariant(v, out.data(), in.data(), side, side, nullptr, groupRows));
    };
    candidates.push_back({name, Kind::Reference, kBaseline, matrixBytes, matrixBytes,
                          [&, run, name] {
                            out.poison();
                            run();
                            checkLaunch(name);
                            return beyond::testing::checkTransposed(name, out, transposed, side);
                          },
                          run, {}, true});
  }

  // cuBLAS is column-major: our row-major side x side input is its
  // column-major transpose, so C = op(A) with op T writes our transpose.
  // Beta is 0 and B is C itself (geam's documented in-place form). The
  // check zeroes the output instead of poisoning it: whether geam reads C
  // when beta is 0 is cuBLAS's business, and 0 * NaN would be NaN.
  CublasHandle cublas;
  const auto geam = [&] {
    const float one = 1.0f;
    const float zero = 0.0f;
    checkCublas(cublasSgeam(cublas.get(), CUBLAS_OP_T, CUBLAS_OP_N, side, side, &one, in.data(),
                            side, &zero, out.data(), side, out.data(), side),
                "cublasSgeam");
  };
  candidates.push_back({kCublasName, Kind::Peer, kBaseline, matrixBytes, matrixBytes,
                        [&] {
                          out.poison();  // the guard zones
                          WB_CUDA(cudaMemset(out.data(), 0, out.bytes()));
                          geam();
                          checkLaunch(kCublasName);
                          return beyond::testing::checkTransposed(kCublasName, out, transposed,
                                                                  side);
                        },
                        geam, {}, true});

  addCopyCeilings(candidates, in.data(), out.data(), count * sizeof(float), kBaseline);

  return measureSection("transpose", sideLength, candidates, context);
}

}  // namespace wb::bench

WB_BENCH_SECTION(transpose, "rows = cols of a float matrix", 8192, 132, 32768,
                 wb::bench::transposeKernelNames, wb::bench::runTranspose,
                 "naiveGmem");
