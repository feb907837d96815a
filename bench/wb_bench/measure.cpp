// Checking and timing a section's candidates, and the ratios between them.
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <map>

#include "bench.h"
#include "wb/stats.h"
#include "wb/timing.h"

namespace wb::bench {

Progress::Progress() : terminal_(isatty(fileno(stderr)) != 0) {}

void Progress::show(const std::string& section, std::size_t index, std::size_t count,
                    const std::string& kernel, const std::string& what) {
  const std::string line = "wb_bench [" + section + " " + std::to_string(index) + "/" +
                           std::to_string(count) + "] " + kernel + ": " + what;
  if (terminal_) {
    // Overwrite the previous line, blanking what is left of a longer one.
    const std::size_t pad = lastLength_ > line.size() ? lastLength_ - line.size() : 0;
    std::fprintf(stderr, "\r%s%*s", line.c_str(), static_cast<int>(pad), "");
    lastLength_ = line.size();
  } else if (kernel != lastKernel_) {
    // A log file gets one line per kernel, not one per step.
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  lastKernel_ = kernel;
  std::fflush(stderr);
}

void Progress::clear() {
  if (terminal_ && lastLength_ > 0) {
    std::fprintf(stderr, "\r%*s\r", static_cast<int>(lastLength_), "");
    std::fflush(stderr);
  }
  lastLength_ = 0;
}

namespace {

/// The names that must run: those asked for, the copy kernel, and the
/// baseline of everything asked for.
std::set<std::string> namesToRun(const std::vector<Candidate>& candidates,
                                 const std::set<std::string>& asked) {
  std::set<std::string> run;
  for (const Candidate& c : candidates) {
    if (asked.empty() || asked.count(c.name)) {
      run.insert(c.name);
      if (!c.baseline.empty()) run.insert(c.baseline);
    }
  }
  run.insert(kCopyKernelName);
  return run;
}

/// Checks, then times one candidate; never throws.
Row measureOne(const std::string& section, std::uint64_t size, const Candidate& c,
               std::size_t index, std::size_t count, Context& context) {
  Row row;
  row.section = section;
  row.kernel = c.name;
  row.kind = c.kind;
  row.size = size;
  row.bytes = c.bytesRead + c.bytesWritten;
  row.baseline = c.baseline;
  try {
    if (context.progress) context.progress->show(section, index, count, c.name, "checking");
    const std::string wrong = c.verify();
    if (!wrong.empty()) {
      row.status = "wrong";
      row.problem = wrong;
      return row;
    }
    if (context.progress) context.progress->show(section, index, count, c.name, "timing");
    TimingOptions options;
    options.warmup = context.warmup;
    options.repetitions = context.repetitions;
    options.flushL2 = c.flushL2;
    options.beforeEach = c.beforeEach;
    row.timeMs = timeKernel(section + " " + c.name, c.launch, options).medianMs;
    row.gbPerS = gbPerSecond(c.bytesRead, c.bytesWritten, row.timeMs);
  } catch (const std::exception& e) {
    row.status = "error";
    row.problem = e.what();
  }
  return row;
}

}  // namespace

std::vector<Row> measureSection(const std::string& section, std::uint64_t size,
                                const std::vector<Candidate>& candidates, Context& context) {
  const std::set<std::string> run = namesToRun(candidates, context.kernels);
  std::vector<const Candidate*> chosen;
  for (const Candidate& c : candidates) {
    if (run.count(c.name)) chosen.push_back(&c);
  }

  std::vector<Row> rows;
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    rows.push_back(measureOne(section, size, *chosen[i], i + 1, chosen.size(), context));
    const Row& r = rows.back();
    if (r.status != "ok") {
      if (context.progress) context.progress->clear();
      std::fprintf(stderr, "wb_bench: %s %s is %s, not timed:\n%s\n", section.c_str(),
                   r.kernel.c_str(), r.status == "wrong" ? "WRONG" : "in ERROR",
                   r.problem.c_str());
    }
  }
  if (context.progress) context.progress->clear();

  // Ratios, now that every time of the section is known.
  std::map<std::string, const Row*> byName;
  for (const Row& r : rows) byName[r.kernel] = &r;
  const auto timed = [&](const std::string& name) -> const Row* {
    const auto it = byName.find(name);
    return it != byName.end() && it->second->status == "ok" ? it->second : nullptr;
  };
  const Row* copy = timed(kCopyKernelName);
  for (Row& r : rows) {
    if (r.status != "ok") continue;
    if (copy != nullptr) r.shareOfCopy = r.gbPerS / copy->gbPerS;
    if (context.peakGBs > 0.0) r.shareOfPeak = r.gbPerS / context.peakGBs;
    if (const Row* base = r.baseline.empty() ? nullptr : timed(r.baseline)) {
      r.speedup = base->timeMs / r.timeMs;
    }
  }
  return rows;
}

const std::vector<Section>& sections() {
  static const std::vector<Section> all = SectionTable::inCourseOrder();
  return all;
}

}  // namespace wb::bench
