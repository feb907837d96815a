// Host tests of wb_bench's output files: the CSV and JSON schema that the
// documentation build (docs/generators/docs_pages.py) and docs/generators/plot_bench.py read,
// and that plot_bench.py draws a chart from a CSV written here.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "report.h"

namespace wb::bench {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

RunInfo sampleInfo() {
  RunInfo info;
  info.device = "NVIDIA Example, \"rev 2\"";  // a comma and quotes: must be quoted in CSV
  info.description = "NVIDIA Example (sm_90, 132 SMs, 50 MB L2)";
  info.computeCapability = "9.0";
  info.peakGBs = 3352.3;
  info.driverVersion = cudaVersionText(13000);
  info.runtimeVersion = cudaVersionText(12080);
  info.date = "2026-11-22T10:00:00Z";
  info.repetitions = 31;
  return info;
}

/// A reduction section as wb_bench would measure it: a baseline, a
/// reference, a peer, the copy ceiling, and one kernel that was wrong.
std::vector<Row> sampleRows() {
  const auto row = [](const char* kernel, Kind kind, double ms, double gbs) {
    Row r;
    r.section = "reduction";
    r.kernel = kernel;
    r.kind = kind;
    r.size = 67108864;
    r.bytes = 268435460;
    r.timeMs = ms;
    r.gbPerS = gbs;
    r.shareOfCopy = gbs / 3000.0;
    r.shareOfPeak = gbs / 3352.3;
    r.speedup = 0.25 / ms;
    r.baseline = "reduceGmem";
    return r;
  };
  std::vector<Row> rows = {row("reduceGmem", Kind::Baseline, 0.25, 1073.7),
                           row("reduceInt4Shuffle", Kind::Reference, 0.085, 3158.1),
                           row("cub::DeviceReduce::Sum", Kind::Peer, 0.087, 3085.5),
                           row("copyInt4", Kind::Ceiling, 0.179, 3000.0)};
  Row wrong = row("reduceSmem", Kind::Exercise, kNotMeasured, kNotMeasured);
  wrong.shareOfCopy = wrong.shareOfPeak = wrong.speedup = kNotMeasured;
  wrong.status = "wrong";
  wrong.problem = "reduceSmem partial sums: 1 of 131072 element(s) differ\n  at g_odata[3]";
  rows.push_back(wrong);
  return rows;
}

TEST(HostBenchReport, CudaVersionsReadAsMajorDotMinor) {
  EXPECT_EQ(cudaVersionText(13000), "13.0");
  EXPECT_EQ(cudaVersionText(12080), "12.8");
  EXPECT_EQ(cudaVersionText(11040), "11.4");
}

TEST(HostBenchReport, CsvHasTheDocumentedColumnsAndQuotes) {
  const std::string path = ::testing::TempDir() + "wb_bench_report_test.csv";
  ASSERT_TRUE(writeCsv(path, sampleInfo(), sampleRows()));
  std::istringstream lines(slurp(path));
  std::string header, first, line;
  std::getline(lines, header);
  EXPECT_EQ(header,
            "section,kernel,kind,size,bytes,time_ms,gb_per_s,share_of_copy,share_of_peak,"
            "speedup_vs_baseline,baseline,status,device,driver_version,runtime_version,date");
  std::getline(lines, first);
  EXPECT_EQ(first,
            "reduction,reduceGmem,baseline,67108864,268435460,0.250000,1073.70,0.3579,0.3203,"
            "1.0000,reduceGmem,ok,\"NVIDIA Example, \"\"rev 2\"\"\",13.0,12.8,"
            "2026-11-22T10:00:00Z");
  std::string last;
  while (std::getline(lines, line)) last = line;
  // What was not measured is empty, and the status says why.
  EXPECT_EQ(last.rfind("reduction,reduceSmem,exercise,67108864,268435460,,,,,,reduceGmem,wrong,", 0),
            0u)
      << last;
}

TEST(HostBenchReport, JsonCarriesTheRunAndNullsForWhatWasNotMeasured) {
  const std::string path = ::testing::TempDir() + "wb_bench_report_test.json";
  ASSERT_TRUE(writeJson(path, sampleInfo(), sampleRows()));
  const std::string json = slurp(path);
  for (const char* expected :
       {"\"device\": \"NVIDIA Example, \\\"rev 2\\\"\"", "\"driver_version\": \"13.0\"",
        "\"runtime_version\": \"12.8\"", "\"date\": \"2026-11-22T10:00:00Z\"",
        "\"peak_gb_per_s\": 3352.30", "\"repetitions\": 31",
        "\"kernel\": \"cub::DeviceReduce::Sum\", \"kind\": \"peer\"",
        "\"time_ms\": null, \"gb_per_s\": null", "\"status\": \"wrong\"",
        "differ\\n  at g_odata[3]\""}) {
    EXPECT_NE(json.find(expected), std::string::npos) << "missing " << expected << " in\n" << json;
  }
}

// The chart script reads what the benchmark writes (the documentation
// build calls it on committed CSVs).
TEST(HostBenchReport, PlotBenchDrawsTheWrittenCsv) {
  const std::string csv = ::testing::TempDir() + "wb_bench_plot_test.csv";
  const std::string outdir = ::testing::TempDir() + "wb_bench_plot_test";
  ASSERT_TRUE(writeCsv(csv, sampleInfo(), sampleRows()));
  const std::string command = std::string("\"") + WB_PYTHON + "\" \"" + WB_SOURCE_DIR +
                              "/docs/generators/plot_bench.py\" \"" + csv + "\" \"" + outdir + "\"";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  const std::string svg = slurp(outdir + "/bench_reduction.svg");
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("reduceInt4Shuffle"), std::string::npos);
  EXPECT_NE(svg.find("wrong result, not timed"), std::string::npos);
  EXPECT_NE(svg.find("copy kernel 3000 GB/s"), std::string::npos);
}

}  // namespace
}  // namespace wb::bench
