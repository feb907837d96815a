// wb_bench: every kernel of the solutions, at sizes beyond L2, beside the
// copy ceilings and the libraries that do the same job. See usage().
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "bench.h"
#include "report.h"
#include "wb/device.h"
#include "wb/modules.h"

namespace {

using wb::bench::Section;

constexpr int kExitFailed = 1;       // a wrong result, a CUDA error, no GPU, a file not written
constexpr int kExitBadArgument = 2;  // the command line is wrong
constexpr int kExitSkipped = 77;     // no GPU in --smoke mode: CTest's SKIP_RETURN_CODE

constexpr int kSmokeRepetitions = 3;
constexpr int kSmokeWarmup = 1;
constexpr int kMaxRepetitions = 10000;

// The parts of --help that hold no section; usage() puts each section's
// name, sizes and baselines between them, from the sections registered.
const char* const kUsageHead =
    R"(usage: wb_bench [--section S] [--kernel K] [--size N] [--reps N] [--smoke]
                [--csv FILE] [--json FILE] [--help]

Times every kernel of the workbook's reference solutions, section by
section, at sizes beyond the L2 cache, beside the kernels beyond the book,
the libraries that do the same job (cub::DeviceReduce::Sum, cublasSgeam)
and two copy ceilings (copyInt4, a 16-byte grid-stride copy, and cudaMemcpy).

)";
const char* const kUsageOptions =
    R"(  --kernel K   run only kernel K (as the tables name it; repeat it or use
               commas); the copy kernel and the baselines of K run too,
               since the shares and speedups are measured against them
)";
const char* const kUsageMore =
    R"(  --reps N     timed runs per kernel (default 31)
  --smoke      tiny sizes and 3 runs: shows that everything works, measures
               nothing (the CTest test); exit 77 without a GPU
  --csv FILE   also write every row as CSV
  --json FILE  also write the run as JSON
  --help       print this text and exit

Each kernel's output is checked once before it is timed; a wrong kernel is
reported and not timed. Each time is the median of N runs timed with CUDA
events, L2 flushed before each run that reads device memory. A progress line
goes to stderr, a table per section to stdout.

Columns: median ms; GB/s, effective bandwidth, the bytes the job must read
plus the bytes it must write over the median time (10^9 bytes per second);
of copy, GB/s over copyInt4's in the same section and run; of peak, GB/s
over the device's theoretical peak (2 x memory clock x bus width, from
device attributes); speedup, the baseline's time over this time.
)";
const char* const kUsageTail =
    R"(Kinds: exercise (a chapter kernel), baseline, ceiling (copies; the
chapter's copyGmem too), peer (a library), reference (beyond the book).

CSV columns: section, kernel, kind, size, bytes, time_ms, gb_per_s,
share_of_copy, share_of_peak, speedup_vs_baseline, baseline, status (ok,
wrong, error), device, driver_version, runtime_version, date (UTC). A value
not measured is empty. JSON: the run's device, device_description,
compute_capability, peak_gb_per_s, driver_version, runtime_version, date,
repetitions and smoke, and "rows" with the CSV's per-row fields (null when
not measured) and "problem" (what was wrong, or null).

Exit status: 0 when every kernel was right; 1 when one was wrong, a CUDA
call failed, a file could not be written, or no usable GPU is present (77
then with --smoke, which CTest reports as skipped); 2 for a bad argument.
)";

struct Options {
  std::vector<const Section*> sections;  ///< empty until parsed: then every section
  std::set<std::string> kernels;
  std::optional<std::uint64_t> size;
  std::optional<int> repetitions;
  bool smoke = false;
  std::string csvPath;
  std::string jsonPath;
  bool help = false;
};

/// @p text split at commas, empty pieces dropped.
std::vector<std::string> splitCommas(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string part =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!part.empty()) parts.push_back(part);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return parts;
}

/// @p text as a whole number in [1, @p most], or nothing.
std::optional<std::uint64_t> positive(const std::string& text, std::uint64_t most) {
  if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  const std::uint64_t value = std::strtoull(text.c_str(), nullptr, 10);
  if (value < 1 || value > most) return std::nullopt;
  return value;
}

const Section* findSection(const std::string& name) {
  for (const Section& s : wb::bench::sections()) {
    if (name == s.name) return &s;
  }
  return nullptr;
}

std::string sectionList() {
  std::string names;
  for (const Section& s : wb::bench::sections()) names += (names.empty() ? "" : ", ") + std::string(s.name);
  return names;
}

/// 2^k for a power of two of 2^10 or more, else the number.
std::string sizeText(std::uint64_t n) {
  if (n >= 1024 && (n & (n - 1)) == 0) {
    int k = 0;
    while ((std::uint64_t{1} << k) != n) ++k;
    return "2^" + std::to_string(k);
  }
  return std::to_string(n);
}

/// @p text broken into lines of at most 79 characters, each after @p indent.
std::string wrapped(const std::string& text, const std::string& indent) {
  std::string out;
  std::string line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t space = text.find(' ', start);
    if (space == std::string::npos) space = text.size();
    const std::string word = text.substr(start, space - start);
    if (!line.empty() && indent.size() + line.size() + 1 + word.size() > 79) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    start = space + 1;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

/// --help, with the sections registered (workbook.toml's order).
std::string usage() {
  std::string text = kUsageHead;
  text += "  --section S  run only section S (repeat it, or separate names with commas):\n";
  text += wrapped(sectionList(), "               ");
  text += kUsageOptions;
  text += "  --size N     problem size, by section:\n";
  for (const Section& s : wb::bench::sections()) {
    text += wrapped(std::string(s.name) + ": " + s.sizeUnit + " (default " +
                        sizeText(s.defaultSize) + ", most " + sizeText(s.maxSize) + ")",
                    "               ");
  }
  text += kUsageMore;
  text += "Baselines:\n";
  for (const Section& s : wb::bench::sections()) {
    text += wrapped(std::string(s.name) + ": " + s.baselines + ".", "  ");
  }
  text += "\n";
  text += kUsageTail;
  return text;
}

/// Reads the command line into @p o; returns what is wrong with it, or "".
std::string parseArguments(int argc, char** argv, Options& o) {
  const std::set<std::string> withValue = {"--section", "--kernel", "--size",
                                           "--reps",    "--csv",    "--json"};
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::optional<std::string> value;
    if (const std::size_t eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);  // --size=4096
      arg = arg.substr(0, eq);
    }
    if (arg == "--help" || arg == "-h") {
      o.help = true;
      continue;
    }
    if (arg == "--smoke") {
      if (value) return "--smoke takes no value";
      o.smoke = true;
      continue;
    }
    if (!withValue.count(arg)) return "unknown argument '" + std::string(argv[i]) + "'";
    if (!value) {
      if (i + 1 >= argc) return arg + " needs a value";
      value = argv[++i];
    }
    if (arg == "--section") {
      const std::vector<std::string> names = splitCommas(*value);
      if (names.empty()) return "--section needs a section name (" + sectionList() + ")";
      for (const std::string& name : names) {
        const Section* s = findSection(name);
        if (s == nullptr) return "unknown section '" + name + "'; the sections are " + sectionList();
        bool listed = false;
        for (const Section* t : o.sections) listed = listed || t == s;
        if (!listed) o.sections.push_back(s);
      }
    } else if (arg == "--kernel") {
      const std::vector<std::string> names = splitCommas(*value);
      if (names.empty()) return "--kernel needs a kernel name";
      o.kernels.insert(names.begin(), names.end());
    } else if (arg == "--size") {
      o.size = positive(*value, UINT64_MAX);
      if (!o.size) return "--size needs a positive whole number, not '" + *value + "'";
    } else if (arg == "--reps") {
      const auto reps = positive(*value, kMaxRepetitions);
      if (!reps) {
        return "--reps needs a whole number from 1 to " + std::to_string(kMaxRepetitions) +
               ", not '" + *value + "'";
      }
      o.repetitions = static_cast<int>(*reps);
    } else if (arg == "--csv" || arg == "--json") {
      if (value->empty()) return arg + " needs a file name";
      (arg == "--csv" ? o.csvPath : o.jsonPath) = *value;
    }
  }
  if (o.sections.empty()) {
    for (const Section& s : wb::bench::sections()) o.sections.push_back(&s);
  }
  if (o.size) {
    for (const Section* s : o.sections) {
      if (*o.size > s->maxSize) {
        return "--size " + std::to_string(*o.size) + " is too large for the " + s->name +
               " section (" + s->sizeUnit + ", at most " + std::to_string(s->maxSize) + ")";
      }
    }
  }
  // Every kernel asked for must exist in a section that runs.
  std::set<std::string> known;
  for (const Section* s : o.sections) {
    for (const std::string& name : s->kernelNames()) known.insert(name);
  }
  for (const std::string& k : o.kernels) {
    if (!known.count(k)) {
      std::string names;
      for (const std::string& n : known) names += "\n  " + n;
      return "unknown kernel '" + k + "'; the sections chosen have:" + names;
    }
  }
  return {};
}

/// The names of @p section that @p asked selects (all when nothing was asked).
std::set<std::string> kernelsOf(const Section& section, const std::set<std::string>& asked) {
  std::set<std::string> chosen;
  for (const std::string& name : section.kernelNames()) {
    if (asked.count(name)) chosen.insert(name);
  }
  return chosen;
}

}  // namespace

int main(int argc, char** argv) {
  // The book's kernels come from the reference solutions' modules unless
  // WB_MODULES names others (the starter's, to time one's own).
  wb::setDefaultModuleFolders(WB_SOLUTION_MODULES);
  Options options;
  const std::string badArgument = parseArguments(argc, argv, options);
  if (const auto status = wb::stopBeforeTheWork("wb_bench", badArgument, options.help, usage(),
                                                kExitBadArgument,
                                                options.smoke ? kExitSkipped : kExitFailed)) {
    return *status;
  }

  try {
    const wb::DeviceInfo device = wb::currentDevice();
    wb::bench::RunInfo info;
    info.device = device.name;
    info.description = device.describe();
    info.computeCapability = std::to_string(device.major) + "." + std::to_string(device.minor);
    info.peakGBs = device.peakGBs();
    info.driverVersion = wb::bench::cudaVersionText(device.driverVersion);
    info.runtimeVersion = wb::bench::cudaVersionText(device.runtimeVersion);
    info.date = wb::bench::utcNow();
    info.smoke = options.smoke;

    wb::bench::Progress progress;
    wb::bench::Context context;
    context.repetitions =
        options.repetitions.value_or(options.smoke ? kSmokeRepetitions : context.repetitions);
    context.warmup = options.smoke ? kSmokeWarmup : context.warmup;
    context.peakGBs = info.peakGBs;
    context.progress = &progress;
    info.repetitions = context.repetitions;

    std::printf("wb_bench on %s\ntheoretical peak %.0f GB/s; driver supports CUDA %s, runtime %s; "
                "median of %d runs%s\n",
                info.description.c_str(), info.peakGBs, info.driverVersion.c_str(),
                info.runtimeVersion.c_str(), context.repetitions,
                options.smoke ? " (smoke run: tiny sizes, the numbers mean nothing)" : "");
    std::fflush(stdout);

    bool failed = false;
    std::vector<wb::bench::Row> all;
    for (const Section* section : options.sections) {
      context.kernels = kernelsOf(*section, options.kernels);
      if (!options.kernels.empty() && context.kernels.empty()) continue;  // nothing asked here
      const std::uint64_t size =
          options.size.value_or(options.smoke ? section->smokeSize : section->defaultSize);
      try {
        const std::vector<wb::bench::Row> rows = section->run(size, context);
        wb::bench::printTable(stdout, *section, size, rows);
        for (const wb::bench::Row& r : rows) failed = failed || r.status != "ok";
        all.insert(all.end(), rows.begin(), rows.end());
      } catch (const std::exception& e) {
        progress.clear();
        std::fprintf(stderr, "wb_bench: the %s section failed: %s\n", section->name, e.what());
        failed = true;
      }
    }

    if (!options.csvPath.empty()) {
      if (wb::bench::writeCsv(options.csvPath, info, all)) {
        std::printf("\nwrote %s\n", options.csvPath.c_str());
      } else {
        std::fprintf(stderr, "wb_bench: cannot write %s\n", options.csvPath.c_str());
        failed = true;
      }
    }
    if (!options.jsonPath.empty()) {
      if (wb::bench::writeJson(options.jsonPath, info, all)) {
        std::printf("wrote %s\n", options.jsonPath.c_str());
      } else {
        std::fprintf(stderr, "wb_bench: cannot write %s\n", options.jsonPath.c_str());
        failed = true;
      }
    }
    if (failed) {
      std::fprintf(stderr, "wb_bench: some kernels were wrong or failed (see above)\n");
      return kExitFailed;
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "wb_bench: %s\n", e.what());
    return kExitFailed;
  }
}
