#include "report.h"

#include <cmath>
#include <ctime>
#include <fstream>
#include <sstream>

namespace wb::bench {
namespace {

/// @p value with printf @p format, or @p missing when it was not measured.
std::string number(double value, const char* format, const char* missing) {
  if (std::isnan(value)) return missing;
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

/// A CSV field: quoted when it holds a comma, a quote or a line break.
std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

/// A JSON string literal.
std::string jsonString(const std::string& text) {
  std::string s = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': s += "\\\""; break;
      case '\\': s += "\\\\"; break;
      case '\n': s += "\\n"; break;
      case '\r': s += "\\r"; break;
      case '\t': s += "\\t"; break;
      default:
        if (c < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
          s += escaped;
        } else {
          s += static_cast<char>(c);
        }
    }
  }
  return s + "\"";
}

// The fixed formats of every number, so the same results give the same files.
constexpr const char* kTimeFormat = "%.6f";
constexpr const char* kRateFormat = "%.2f";
constexpr const char* kRatioFormat = "%.4f";
constexpr const char* kBytesFormat = "%.0f";

}  // namespace

const char* kindName(Kind kind) {
  switch (kind) {
    case Kind::Exercise: return "exercise";
    case Kind::Baseline: return "baseline";
    case Kind::Ceiling: return "ceiling";
    case Kind::Peer: return "peer";
    case Kind::Reference: return "reference";
  }
  return "?";
}

std::string cudaVersionText(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string utcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

void printTable(std::FILE* out, const Section& section, std::uint64_t size,
                const std::vector<Row>& rows) {
  std::string baseline;
  double copyRate = kNotMeasured;
  for (const Row& r : rows) {
    if (r.kind == Kind::Baseline) baseline += (baseline.empty() ? "" : ", ") + r.kernel;
    if (r.kernel == kCopyKernelName && r.status == "ok") copyRate = r.gbPerS;
  }
  std::fprintf(out, "\n== %s: size %llu (%s); baseline %s; %s %s ==\n", section.name,
               static_cast<unsigned long long>(size), section.sizeUnit,
               baseline.empty() ? "none" : baseline.c_str(), kCopyKernelName.c_str(),
               number(copyRate, "%.1f GB/s", "not measured").c_str());
  std::fprintf(out, "%-28s %-9s %11s %9s %8s %8s %8s\n", "kernel", "kind", "median ms", "GB/s",
               "of copy", "of peak", "speedup");
  for (const Row& r : rows) {
    if (r.status != "ok") {
      std::fprintf(out, "%-28s %-9s %s (see the message above)\n", r.kernel.c_str(),
                   kindName(r.kind), r.status == "wrong" ? "WRONG RESULT, not timed" : "ERROR");
      continue;
    }
    std::fprintf(out, "%-28s %-9s %11s %9s %8s %8s %8s\n", r.kernel.c_str(), kindName(r.kind),
                 number(r.timeMs, "%.4f", "-").c_str(), number(r.gbPerS, "%.1f", "-").c_str(),
                 number(100.0 * r.shareOfCopy, "%.0f%%", "-").c_str(),
                 number(100.0 * r.shareOfPeak, "%.0f%%", "-").c_str(),
                 number(r.speedup, "%.2fx", "-").c_str());
  }
  std::fflush(out);
}

bool writeCsv(const std::string& path, const RunInfo& info, const std::vector<Row>& rows) {
  std::ofstream csv(path);
  csv << "section,kernel,kind,size,bytes,time_ms,gb_per_s,share_of_copy,share_of_peak,"
         "speedup_vs_baseline,baseline,status,device,driver_version,runtime_version,date\n";
  for (const Row& r : rows) {
    csv << csvField(r.section) << ',' << csvField(r.kernel) << ',' << kindName(r.kind) << ','
        << r.size << ',' << number(r.bytes, kBytesFormat, "") << ','
        << number(r.timeMs, kTimeFormat, "") << ',' << number(r.gbPerS, kRateFormat, "") << ','
        << number(r.shareOfCopy, kRatioFormat, "") << ','
        << number(r.shareOfPeak, kRatioFormat, "") << ','
        << number(r.speedup, kRatioFormat, "") << ',' << csvField(r.baseline) << ','
        << r.status << ',' << csvField(info.device) << ',' << info.driverVersion << ','
        << info.runtimeVersion << ',' << info.date << '\n';
  }
  csv.flush();
  return static_cast<bool>(csv);
}

bool writeJson(const std::string& path, const RunInfo& info, const std::vector<Row>& rows) {
  const auto num = [](double value, const char* format) { return number(value, format, "null"); };
  std::ostringstream j;
  j << "{\n"
    << "  \"tool\": \"wb_bench\",\n"
    << "  \"device\": " << jsonString(info.device) << ",\n"
    << "  \"device_description\": " << jsonString(info.description) << ",\n"
    << "  \"compute_capability\": " << jsonString(info.computeCapability) << ",\n"
    << "  \"peak_gb_per_s\": " << num(info.peakGBs, kRateFormat) << ",\n"
    << "  \"driver_version\": " << jsonString(info.driverVersion) << ",\n"
    << "  \"runtime_version\": " << jsonString(info.runtimeVersion) << ",\n"
    << "  \"date\": " << jsonString(info.date) << ",\n"
    << "  \"repetitions\": " << info.repetitions << ",\n"
    << "  \"smoke\": " << (info.smoke ? "true" : "false") << ",\n"
    << "  \"rows\": [";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    j << (i ? "," : "") << "\n    {"
      << "\"section\": " << jsonString(r.section) << ", \"kernel\": " << jsonString(r.kernel)
      << ", \"kind\": " << jsonString(kindName(r.kind)) << ", \"size\": " << r.size
      << ", \"bytes\": " << num(r.bytes, kBytesFormat)
      << ", \"time_ms\": " << num(r.timeMs, kTimeFormat)
      << ", \"gb_per_s\": " << num(r.gbPerS, kRateFormat)
      << ", \"share_of_copy\": " << num(r.shareOfCopy, kRatioFormat)
      << ", \"share_of_peak\": " << num(r.shareOfPeak, kRatioFormat)
      << ", \"speedup_vs_baseline\": " << num(r.speedup, kRatioFormat)
      << ", \"baseline\": " << (r.baseline.empty() ? "null" : jsonString(r.baseline))
      << ", \"status\": " << jsonString(r.status)
      << ", \"problem\": " << (r.problem.empty() ? "null" : jsonString(r.problem)) << "}";
  }
  j << "\n  ]\n}\n";
  std::ofstream file(path);
  file << j.str();
  file.flush();
  return static_cast<bool>(file);
}

}  // namespace wb::bench
