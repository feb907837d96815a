// What the parts of wb_bench share: a candidate to time, a measured row, the
// run's settings, and the entry point of each section. main.cpp reads the
// command line, each <section>_bench.cu builds its candidates, measure.cpp
// checks and times them, report.cpp prints and writes the results.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "wb/section_registry.h"

namespace wb::bench {

/// What a row is, for the reader of the table and for the plot.
enum class Kind {
  Exercise,   ///< a kernel of the chapter, from solutions/
  Baseline,   ///< the kernel of the section the speedups are measured against
  Ceiling,    ///< moves the same bytes without any work: no kernel beats it
  Peer,       ///< a library doing the same job (CUB, cuBLAS)
  Reference,  ///< a kernel beyond the book (solutions/<section>/beyond)
};

/// "exercise", "baseline", "ceiling", "peer", "reference".
const char* kindName(Kind kind);

/// A value not measured (a kernel not timed, a ratio without its base).
constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();

/// One thing to check and time.
struct Candidate {
  std::string name;      ///< as printed and as --kernel selects it
  Kind kind;
  std::string baseline;  ///< the candidate its speedup is taken against; "" for none
  double bytesRead;      ///< bytes the job must read from device memory
  double bytesWritten;   ///< bytes the job must write
  /// Runs the job once and checks its output: "" when right, otherwise what
  /// is wrong. A wrong candidate is reported and never timed.
  std::function<std::string()> verify;
  /// The work that is timed: enqueues the job on the default stream.
  std::function<void()> launch;
  /// Runs before each timed launch, outside the timed region (restoring an
  /// input the job overwrites). May be empty.
  std::function<void()> beforeEach;
  /// Evict L2 before each timed launch (harness TimingOptions::flushL2).
  bool flushL2 = true;
};

/// One measured candidate: a line of the table, a row of the CSV and JSON.
struct Row {
  std::string section;
  std::string kernel;
  Kind kind = Kind::Exercise;
  std::uint64_t size = 0;  ///< the section's --size (see the usage text)
  double bytes = 0.0;      ///< bytes read plus bytes written by one run
  double timeMs = kNotMeasured;        ///< median of the timed runs
  double gbPerS = kNotMeasured;        ///< bytes / time, 10^9 bytes per second
  double shareOfCopy = kNotMeasured;   ///< gbPerS over the copy kernel's, same section
  double shareOfPeak = kNotMeasured;   ///< gbPerS over the device's theoretical peak
  double speedup = kNotMeasured;       ///< baseline's time over this time
  std::string baseline;                ///< the row speedup is taken against
  std::string status = "ok";           ///< "ok", "wrong" (verification failed), "error"
  std::string problem;                 ///< what was wrong, when status is not ok
};

/// One progress line on stderr, rewritten in place on a terminal; one line
/// per kernel when stderr is a file.
class Progress {
 public:
  Progress();
  /// Shows "[section i/n] kernel: what".
  void show(const std::string& section, std::size_t index, std::size_t count,
            const std::string& kernel, const std::string& what);
  /// Removes the line (on a terminal), so the table starts on a clean line.
  void clear();

 private:
  bool terminal_;
  std::size_t lastLength_ = 0;
  std::string lastKernel_;
};

/// Settings of one run, shared by every section.
struct Context {
  int warmup = 3;        ///< untimed launches before the timed ones
  int repetitions = 31;  ///< timed launches; the median is reported
  /// Candidates to run by name (empty: all). The copy kernel and the
  /// baselines of the named candidates always run too: shares and speedups
  /// are measured against them.
  std::set<std::string> kernels;
  double peakGBs = 0.0;  ///< theoretical peak bandwidth of the device
  Progress* progress = nullptr;
};

/// Checks and times the candidates @p context selects, in order, and fills
/// in every ratio. Never throws for a single candidate: a CUDA error or a
/// wrong result becomes that row's status.
std::vector<Row> measureSection(const std::string& section, std::uint64_t size,
                                const std::vector<Candidate>& candidates, Context& context);

// ---------------------------------------------------------------------------
// Ceilings shared by every section (ceilings.cu).

/// The vectorised copy kernel: the bandwidth every share_of_copy divides by.
inline const std::string kCopyKernelName = "copyInt4";
/// cudaMemcpy device to device: the driver's own copy.
inline const std::string kMemcpyName = "cudaMemcpyD2D";

/// The two copy ceilings over @p bytes (a multiple of 4) from @p src to
/// @p dst (both 16-byte aligned), appended to @p out, their speedups taken
/// against @p baseline ("" for none). Their verification compares the copy
/// with the source.
void addCopyCeilings(std::vector<Candidate>& out, const void* src, void* dst, std::size_t bytes,
                     const std::string& baseline);

// ---------------------------------------------------------------------------
// Sections (<section>_bench.cu).

/// One section of the benchmark.
struct Section {
  const char* name;      ///< the section's folder name, as workbook.toml lists it
  const char* sizeUnit;  ///< what --size counts in this section
  std::uint64_t defaultSize;
  std::uint64_t smokeSize;
  std::uint64_t maxSize;
  /// Every candidate name the section can run (for --kernel), without a GPU.
  std::vector<std::string> (*kernelNames)();
  /// Allocates, builds the candidates and measures them.
  std::vector<Row> (*run)(std::uint64_t size, Context& context);
  /// What the speedup column compares with, for --help.
  const char* baselines;
};

/// Every section, in workbook.toml's order: each section's file,
/// bench/wb_bench/<section>_bench.cu, registers its own (WB_BENCH_SECTION),
/// and CMake compiles the files of the sections workbook.toml lists.
const std::vector<Section>& sections();

using SectionTable = SectionRegistry<Section>;

}  // namespace wb::bench

/// Registers section @p section (its folder's name) with the benchmark: the
/// other arguments are Section's fields after the name, in order.
#define WB_BENCH_SECTION(section, ...) \
  WB_REGISTER_SECTION(::wb::bench::SectionTable, section, (::wb::bench::Section{#section, __VA_ARGS__}))
