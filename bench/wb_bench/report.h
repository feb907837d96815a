// Printing and writing wb_bench's results: a table per section on stdout,
// and the whole run as CSV and JSON (the schema is in the usage text of
// main.cpp and in the report of the benchmark's author). Pure C++.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "bench.h"

namespace wb::bench {

/// What describes the whole run, written with every CSV row and once in JSON.
struct RunInfo {
  std::string device;             ///< "NVIDIA H200"
  std::string description;        ///< wb::DeviceInfo::describe()
  std::string computeCapability;  ///< "9.0"
  double peakGBs = 0.0;           ///< theoretical peak, from device attributes
  std::string driverVersion;      ///< "13.0": the newest CUDA the driver supports
  std::string runtimeVersion;     ///< "13.0": the CUDA runtime linked in
  std::string date;               ///< UTC, ISO 8601: "2026-11-22T10:00:00Z"
  int repetitions = 0;            ///< timed runs per median
  bool smoke = false;             ///< tiny sizes: the numbers mean nothing
};

/// "13.0" for 13000.
std::string cudaVersionText(int version);

/// The current time as UTC ISO 8601.
std::string utcNow();

/// Prints one section's table to @p out.
void printTable(std::FILE* out, const Section& section, std::uint64_t size,
                const std::vector<Row>& rows);

/// Writes every row as CSV; false when the file cannot be written.
bool writeCsv(const std::string& path, const RunInfo& info, const std::vector<Row>& rows);

/// Writes the run as JSON; false when the file cannot be written.
bool writeJson(const std::string& path, const RunInfo& info, const std::vector<Row>& rows);

}  // namespace wb::bench
