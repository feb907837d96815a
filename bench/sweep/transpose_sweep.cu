// Book 5.4.5, "Exposing More Parallelism": the block shape of a transpose is
// a tuning knob. This program times every kernel of section 5.4 that sizes
// itself from blockDim over a grid of block shapes, next to the fixed-shape
// static-tile kernels and the copy ceiling, and names the best shape of each.
// A benchmark, not a test: it checks each configuration's output once, then
// times it, and reports; it asserts nothing about the numbers.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "transpose/transpose.cuh"
#include "transpose/transpose_check.h"
#include "wb/buffer.h"
#include "wb/cuda_check.h"
#include "wb/device.h"
#include "wb/modules.h"
#include "wb/stats.h"
#include "wb/timing.h"

namespace {

using namespace wb::transpose;

constexpr int kExitFailed = 1;       // a wrong result or a CUDA error
constexpr int kExitBadArgument = 2;  // the command line is wrong
constexpr int kExitNoGpu = 77;       // CTest's SKIP_RETURN_CODE for the smoke run

constexpr std::uint64_t kInputSeed = 54;  // the input only needs to be the same every run

const char* const kUsage =
    R"(usage: wb_transpose_sweep [--rows N] [--cols N] [--csv FILE] [--help]

Block-shape tuning of the matrix transpose (book section 5.4.5). Times the
kernels of section 5.4 that accept any block shape (copyGmem, naiveGmem,
naiveGmemUnroll, transposeSmemDyn, transposeSmemPadDyn) with blocks of
x in {8, 16, 32, 64, 128} by y in {2, 4, 8, 16, 32} threads, at most 1024 per
block, and the static-tile kernels with their fixed 32 x 16 blocks for
comparison. Each configuration's output is checked once against the host
reference, then the kernel is timed: the median of 31 runs, L2 flushed
before each. Prints a table and the best block shape of each kernel.

  --rows N    rows of the input matrix (default 8192)
  --cols N    columns of the input matrix (default 8192)
  --csv FILE  also write the table to FILE as CSV with the columns
              kernel,block_x,block_y,ms,gb_per_s,share_of_copy
  --help      print this text and exit

Bandwidth (GB/s, 10^9 bytes per second) counts the bytes read plus the bytes
written. share_of_copy is a kernel's bandwidth over the best copyGmem
bandwidth of the same sweep. At the default size the sweep takes a minute
or two, most of it checking results on the host; smaller sizes are quicker
but fit in L2, which flatters every kernel.

Exit status: 0 when every configuration was right, 1 when one was wrong or
a CUDA call failed, 2 for a bad argument, 77 when no usable GPU is present
(the reason is printed; CTest reports the smoke run as skipped).
)";

struct Options {
  int rows = 8192;
  int cols = 8192;
  std::string csvPath;  ///< empty: no CSV
  bool help = false;
};

/// @p text as an int in [1, INT_MAX], or nothing.
std::optional<int> positiveInt(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  if (text.size() > 10) return std::nullopt;
  const long long value = std::stoll(text);
  if (value < 1 || value > INT_MAX) return std::nullopt;
  return static_cast<int>(value);
}

/// Fills @p options from the command line; returns what is wrong with it,
/// or an empty string.
std::string parseArguments(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      options.help = true;
      continue;
    }
    if (arg != "--rows" && arg != "--cols" && arg != "--csv") {
      return "unknown argument '" + arg + "'";
    }
    if (i + 1 >= argc) return arg + " needs a value";
    const std::string value = argv[++i];
    if (arg == "--csv") {
      if (value.empty()) return "--csv needs a file name";
      options.csvPath = value;
      continue;
    }
    const std::optional<int> n = positiveInt(value);
    if (!n) return arg + " needs a positive whole number, not '" + value + "'";
    (arg == "--rows" ? options.rows : options.cols) = *n;
  }
  return {};
}

/// The block shapes the sweep tries on kernels that accept any shape.
std::vector<dim3> sweptBlocks() {
  std::vector<dim3> blocks;
  for (unsigned x : {8u, 16u, 32u, 64u, 128u}) {
    for (unsigned y : {2u, 4u, 8u, 16u, 32u}) {
      if (x * y <= static_cast<unsigned>(kMaxThreadsPerBlock)) blocks.emplace_back(x, y);
    }
  }
  return blocks;
}

/// One timed configuration.
struct Result {
  const TransposeKernel* kernel;
  dim3 block;
  double ms;   ///< median
  double gbs;  ///< effective bandwidth
};

std::string shape(dim3 b) { return std::to_string(b.x) + " x " + std::to_string(b.y); }

/// Checks and times every configuration; returns the timed ones and counts
/// the wrong ones in @p wrong.
std::vector<Result> sweep(const Options& o, int& wrong) {
  const std::size_t n = static_cast<std::size_t>(o.rows) * o.cols;
  const double bytes = static_cast<double>(n) * sizeof(float);
  const std::vector<float> input = testing::randomMatrix(o.rows, o.cols, kInputSeed);
  const std::vector<float> transposed =
      referenceOutput(Reference::Transpose, input, o.rows, o.cols);
  wb::DeviceBuffer<float> in(n);
  wb::DeviceBuffer<float> out(n);
  in.poison();
  in.upload(input);

  std::vector<Result> results;
  for (const TransposeKernel& k : transposeKernels()) {
    const std::vector<dim3> blocks =
        k.anyBlockShape() ? sweptBlocks() : std::vector<dim3>{defaultBlock()};
    for (const dim3& block : blocks) {
      const std::string cannot =
          launchConfigError(!k.anyBlockShape(), k.unroll, static_cast<int>(block.x),
                            static_cast<int>(block.y), o.rows, o.cols);
      if (!cannot.empty()) {
        std::printf("skipped %s with blocks of %s: %s\n", k.name, shape(block).c_str(),
                    cannot.c_str());
        continue;
      }
      const std::vector<float>& expected = k.reference == Reference::Copy ? input : transposed;
      const std::string problem = testing::runOnce(k, out, in, expected, o.rows, o.cols, block);
      if (!problem.empty()) {
        std::fprintf(stderr, "WRONG RESULT: %s\n", problem.c_str());
        ++wrong;
        continue;
      }
      const double ms =
          wb::timeKernel(testing::describeRun(k, o.rows, o.cols, block),
                         [&] { launch(k, out.data(), in.data(), o.rows, o.cols, block); })
              .medianMs;
      results.push_back({&k, block, ms, wb::gbPerSecond(bytes, bytes, ms)});
    }
  }
  return results;
}

/// The best copyGmem bandwidth of the sweep: the ceiling the shares are of.
double copyCeiling(const std::vector<Result>& results) {
  double best = 0.0;
  for (const Result& r : results) {
    if (r.kernel->reference == Reference::Copy) best = std::max(best, r.gbs);
  }
  return best;
}

void printTable(const std::vector<Result>& results, double ceiling) {
  std::printf("\n%-24s %-9s %10s %9s %8s\n", "kernel", "block", "ms", "GB/s", "of copy");
  for (const Result& r : results) {
    std::printf("%-24s %-9s %10.4f %9.1f %7.0f%%\n", r.kernel->name, shape(r.block).c_str(), r.ms,
                r.gbs, 100.0 * r.gbs / ceiling);
  }
}

void printBestShapes(const std::vector<Result>& results, double ceiling) {
  std::printf("\nbest block shape per kernel:\n");
  for (const TransposeKernel& k : transposeKernels()) {
    const Result* best = nullptr;
    for (const Result& r : results) {
      if (r.kernel == &k && (best == nullptr || r.ms < best->ms)) best = &r;
    }
    if (best == nullptr) continue;
    std::printf("  %-24s %-9s %10.4f ms %9.1f GB/s %5.0f%% of copy%s\n", k.name,
                shape(best->block).c_str(), best->ms, best->gbs, 100.0 * best->gbs / ceiling,
                k.anyBlockShape() ? "" : " (fixed shape)");
  }
}

/// Writes the table as CSV; returns false when the file cannot be written.
bool writeCsv(const std::string& path, const std::vector<Result>& results, double ceiling) {
  std::ofstream csv(path);
  csv << "kernel,block_x,block_y,ms,gb_per_s,share_of_copy\n";
  for (const Result& r : results) {
    csv << r.kernel->name << ',' << r.block.x << ',' << r.block.y << ',' << r.ms << ',' << r.gbs
        << ',' << r.gbs / ceiling << '\n';
  }
  csv.flush();
  return static_cast<bool>(csv);
}

}  // namespace

int main(int argc, char** argv) {
  // The book's kernels come from the reference solutions' modules unless
  // WB_MODULES names others (the starter's, to time one's own).
  wb::setDefaultModuleFolders(WB_SOLUTION_MODULES);
  Options options;
  const std::string badArgument = parseArguments(argc, argv, options);
  if (const auto status = wb::stopBeforeTheWork("wb_transpose_sweep", badArgument, options.help,
                                                kUsage, kExitBadArgument, kExitNoGpu)) {
    return *status;
  }
  try {
    std::printf("%s\n", wb::currentDevice().describe().c_str());
    std::printf("input %d x %d floats (%.1f MiB), checking then timing each configuration\n",
                options.rows, options.cols,
                static_cast<double>(options.rows) * options.cols * sizeof(float) / (1 << 20));
    std::fflush(stdout);
    int wrong = 0;
    const std::vector<Result> results = sweep(options, wrong);
    const double ceiling = copyCeiling(results);
    if (ceiling <= 0.0) {
      std::fprintf(stderr, "wb_transpose_sweep: copyGmem produced no timing to compare with\n");
      return kExitFailed;
    }
    printTable(results, ceiling);
    printBestShapes(results, ceiling);
    if (!options.csvPath.empty()) {
      if (!writeCsv(options.csvPath, results, ceiling)) {
        std::fprintf(stderr, "wb_transpose_sweep: cannot write %s\n", options.csvPath.c_str());
        return kExitFailed;
      }
      std::printf("\nwrote %s\n", options.csvPath.c_str());
    }
    if (wrong > 0) {
      std::fprintf(stderr, "wb_transpose_sweep: %d configuration(s) gave a wrong result\n", wrong);
      return kExitFailed;
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "wb_transpose_sweep: %s\n", e.what());
    return kExitFailed;
  }
}
