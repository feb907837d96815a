// wb_run: launches one workbook kernel once, checks its output and exits, so
// that a profiler or a sanitizer can watch exactly that launch.
//
//   wb_run --list        one line per kernel: section id exercise
//                        qualified-name load-ways store-ways store-sectors
//                        ("-" where the kernel is not graded on it)
//   wb_run --gpu-check   exit 0 when a usable GPU is present, 77 (and why) if not
//   wb_run ID            run section/id (e.g. layout/square_setRowReadCol)
//
// The kernel comes from the module of its exercise in the folders that the
// environment variable WB_MODULES names (chapters/common/exercise_kernel.h).
//
// Exit status: 0 the output was right; 1 it was wrong (the reason is
// printed); 2 bad arguments; 3 a CUDA error; 124 the launch did not finish
// within WB_RUN_TIMEOUT seconds (default 60); 77 no usable GPU (CTest reads
// 77 as "skipped").
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "registry.h"
#include "wb/cuda_check.h"
#include "wb/device.h"
#include "wb/modules.h"

namespace wb::runner {

std::vector<RunnableKernel> allKernels() {
  std::vector<RunnableKernel> all = layoutKernels();
  for (auto* section : {reductionKernels, transposeKernels}) {
    for (auto& k : section()) all.push_back(std::move(k));
  }
  return all;
}

}  // namespace wb::runner

namespace {

int usage(const char* why) {
  if (why) std::fprintf(stderr, "wb_run: %s\n", why);
  std::fprintf(stderr,
               "usage: wb_run --list | --gpu-check | SECTION/ID\n"
               "  --list       print every kernel: section id exercise name load-ways store-ways\n"
               "               global-store-sectors-per-request (- when not graded)\n"
               "  --gpu-check  exit 0 with a usable GPU, 77 (and the reason) without\n"
               "  SECTION/ID   launch that kernel once at a small size and check its output\n"
               "exit: 0 right, 1 wrong, 2 usage, 3 CUDA error, 124 timed out (WB_RUN_TIMEOUT,\n"
               "      default 60 s), 77 no usable GPU\n");
  return 2;
}

/// A kernel that never returns would hang the profiler or the sanitizer
/// wrapped around this process until CTest's own limit. The watchdog ends the
/// process after WB_RUN_TIMEOUT seconds (default 60; every workbook launch
/// here takes milliseconds, even under a sanitizer) and says why.
void startWatchdog(const std::string& what) {
  const char* env = std::getenv("WB_RUN_TIMEOUT");
  const int seconds = env ? std::atoi(env) : 60;
  if (seconds <= 0) return;
  std::thread([what, seconds] {
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    std::printf("TIMEOUT %s did not finish within %d s: a kernel that never returns?\n",
                what.c_str(), seconds);
    std::fflush(stdout);
    std::_Exit(124);
  }).detach();
}

std::string ways(const std::optional<double>& w) {  // or sectors
  if (!w) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%g", *w);
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace wb::runner;
  if (argc != 2) return usage("expected exactly one argument");
  const std::string arg = argv[1];
  const auto kernels = allKernels();
  if (arg == "--list") {
    for (const auto& k : kernels) {
      std::printf("%s %s %s %s %s %s %s\n", k.section.c_str(), k.id.c_str(), k.exercise.c_str(),
                  k.qualifiedName.c_str(), ways(k.sharedLoadWays).c_str(),
                  ways(k.sharedStoreWays).c_str(), ways(k.globalStoreSectors).c_str());
    }
    return 0;
  }
  if (arg == "-h" || arg == "--help") return usage(nullptr), 0;
  if (arg == "--gpu-check") {
    if (const auto reason = wb::gpuUnavailableReason()) {
      std::printf("skipped: %s\n", reason->c_str());
      return 77;
    }
    std::printf("ok %s\n", wb::currentDevice().describe().c_str());
    return 0;
  }
  for (const auto& k : kernels) {
    if (k.section + "/" + k.id != arg) continue;
    if (const auto reason = wb::gpuUnavailableReason()) {
      std::printf("skipped: %s\n", reason->c_str());
      return 77;
    }
    startWatchdog(arg);
    try {
      // The run depends on this exercise's module alone (the grader's result
      // cache relies on it): loading any other one is an error.
      wb::loadOnlyModule(k.section + "/" + k.exercise);
      const std::string problem = k.runOnce();
      if (!problem.empty()) {
        std::printf("WRONG %s: %s\n", arg.c_str(), problem.c_str());
        return 1;
      }
    } catch (const std::exception& e) {
      std::printf("CUDA ERROR %s: %s\n", arg.c_str(), e.what());
      return 3;
    }
    std::printf("ok %s\n", arg.c_str());
    return 0;
  }
  return usage(("no kernel called '" + arg + "' (see --list)").c_str());
}
