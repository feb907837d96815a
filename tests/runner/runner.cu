// wb_run: launches one workbook kernel once, checks its output and exits, so
// that a profiler or a sanitizer can watch exactly that launch.
//
//   wb_run --list        every kernel as JSON: an array of objects with the
//                        fields section, id, exercise, name (qualified),
//                        sharedLoadWays, sharedStoreWays, globalStoreSectors,
//                        constantPasses, constantRequests,
//                        minActiveThreadsPerInstruction, minGlobalLoadEfficiency,
//                        minShufflesPerWarp, maxShufflesPerWarp (null where
//                        the kernel is not graded on it)
//   wb_run --gpu-check   exit 0 when a usable GPU is present, 77 (and why) if not
//   wb_run ID            run section/id (e.g. layout/square_setRowReadCol)
//   wb_run [--first-launches] --status FILE ID...
//                        run several kernels one after another in this one
//                        process, appending "ID ok|wrong|error|contention"
//                        to FILE as each ends, each kernel preceded by a
//                        marker launch (wb::launchMarker): a tool wrapped around the
//                        process (a section's sanitizer batch) pays its start
//                        once. Each kernel gets a CUDA context of its own
//                        (wb::startFreshContext between kernels), so none
//                        finds what another left in local memory or the
//                        device heap. A CUDA error ends the run (the context
//                        may be broken); the kernels after it get no line.
//                        --first-launches: of a kernel whose run makes
//                        several launches, only the first (its status is
//                        that launch's), for a tool that reads only it.
//
// The kernel comes from the module of its exercise in the folders that the
// environment variable WB_MODULES names (chapters/common/exercise_kernel.h).
//
// Exit status: 0 the output was right; 1 it was wrong (the reason is
// printed); 2 bad arguments; 3 a CUDA error; 75 a CUDA error of the harness's
// own that says another process holds the GPU (out of memory, devices
// unavailable: wb::isGpuContention); 124 the launch did not finish
// within WB_RUN_TIMEOUT seconds (default 60); 77 no usable GPU (CTest reads
// 77 as "skipped").
//
// The random inputs are drawn from a new seed in every run (inputSeed,
// WB_RUN_SEED=N to repeat one): the tools see a launch whose values the
// kernel cannot know in advance.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <string>
#include <thread>

#include "registry.h"
#include "wb/cuda_check.h"
#include "wb/device.h"
#include "wb/launch_marker.h"
#include "wb/modules.h"

namespace wb::runner {

namespace {

/// The kernel of a run of several whose inputs are being drawn (0: the first,
/// or the only one).
std::uint64_t kernelIndex = 0;

}  // namespace

void useSeedOfKernel(std::uint64_t index) { kernelIndex = index; }

std::uint64_t inputSeed() {
  static const std::uint64_t base = []() -> std::uint64_t {
    const char* fixed = std::getenv("WB_RUN_SEED");
    if (fixed != nullptr && *fixed != '\0') return std::strtoull(fixed, nullptr, 10);
    std::random_device device;
    return (std::uint64_t{device()} << 32) ^ std::uint64_t{device()};
  }();
  if (kernelIndex == 0) return base;
  // Each further kernel of a run of several draws from a seed of its own
  // (splitmix64 of the base and its index): two kernels of one run never see
  // the same inputs, so nothing one leaves in the context (local memory, the
  // device heap) is the answer of the next.
  std::uint64_t z = base + kernelIndex * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::vector<RunnableKernel> allKernels() {
  std::vector<RunnableKernel> all;
  for (const SectionKernels section : KernelRegistry::inCourseOrder()) {
    for (auto& k : section()) all.push_back(std::move(k));
  }
  return all;
}

}  // namespace wb::runner

namespace {

int usage(const char* why) {
  if (why) std::fprintf(stderr, "wb_run: %s\n", why);
  std::fprintf(stderr,
               "usage: wb_run --list | --gpu-check | SECTION/ID |\n"
               "       [--first-launches] --status FILE SECTION/ID...\n"
               "  --list       print every kernel as a JSON array of objects: section, id,\n"
               "               exercise, name, sharedLoadWays, sharedStoreWays,\n"
               "               globalStoreSectors, constantPasses, constantRequests,\n"
               "               minActiveThreadsPerInstruction, minGlobalLoadEfficiency,\n"
               "               minShufflesPerWarp, maxShufflesPerWarp (null when not graded on it)\n"
               "  --gpu-check  exit 0 with a usable GPU, 77 (and the reason) without\n"
               "  SECTION/ID   launch that kernel once at a small size and check its output\n"
               "  --status FILE SECTION/ID...  launch each in turn in this process, each in a\n"
               "               CUDA context of its own, appending 'SECTION/ID ok|wrong|error|\n"
               "               contention' to FILE; a CUDA error ends it\n"
               "  --first-launches  with --status: of a kernel whose run makes several\n"
               "               launches, only the first\n"
               "exit: 0 right, 1 wrong, 2 usage, 3 CUDA error, 75 GPU held by another process\n"
               "      (out of memory, unavailable), 124 timed out (WB_RUN_TIMEOUT, default 60 s),\n"
               "      77 no usable GPU\n");
  return 2;
}

/// A kernel that never returns would hang the profiler or the sanitizer
/// wrapped around this process until CTest's own limit. The watchdog ends the
/// process after WB_RUN_TIMEOUT seconds (default 60; every workbook launch
/// here takes milliseconds, even under a sanitizer) and says why; each
/// kernel of a run of several gets the whole limit (rearm).
class Watchdog {
 public:
  Watchdog() {
    const char* env = std::getenv("WB_RUN_TIMEOUT");
    seconds_ = env ? std::atoi(env) : 60;
    if (seconds_ <= 0) return;
    std::thread([this] {
      for (;;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        const std::lock_guard<std::mutex> lock(mutex_);
        if (what_.empty() || std::chrono::steady_clock::now() < deadline_) continue;
        std::printf("TIMEOUT %s did not finish within %d s: a kernel that never returns?\n",
                    what_.c_str(), seconds_);
        std::fflush(stdout);
        std::_Exit(124);
      }
    }).detach();
  }
  void rearm(const std::string& what) {
    const std::lock_guard<std::mutex> lock(mutex_);
    what_ = what;
    deadline_ = std::chrono::steady_clock::now() + std::chrono::seconds(seconds_);
  }

 private:
  int seconds_ = 60;
  std::mutex mutex_;
  std::string what_;
  std::chrono::steady_clock::time_point deadline_;
};

/// Launches kernel @p k once and says how it went: 0 right, 1 wrong, 3 a
/// CUDA error, 75 a CUDA error that says another process holds the GPU.
/// With @p marker >= 0 (a run of several), the marker launch with that
/// index comes first (wb::launchMarker).
int runKernel(const wb::runner::RunnableKernel& k, int marker, bool firstLaunch) {
  using wb::runner::inputSeed;
  const std::string name = k.section + "/" + k.id;
  try {
    if (marker >= 0) wb::launchMarker(marker);
    // The run depends on this exercise's module alone (the grader's result
    // cache relies on it): loading any other one is an error. In a run of
    // several kernels each loads its own (those loaded before stay loaded).
    wb::loadOnlyModule(k.section + "/" + k.exercise);
    const std::string problem = firstLaunch && k.runFirst ? k.runFirst() : k.runOnce();
    if (!problem.empty()) {
      std::printf("WRONG %s: %s (inputs of seed %llu: WB_RUN_SEED=%llu repeats them)\n",
                  name.c_str(), problem.c_str(), static_cast<unsigned long long>(inputSeed()),
                  static_cast<unsigned long long>(inputSeed()));
      return 1;
    }
  } catch (const std::exception& e) {
    std::printf("CUDA ERROR %s: %s\n", name.c_str(), e.what());
    // 75: the harness's own CUDA call found the GPU held by another
    // process (wb::noteGpuContention); the grader may run the check again
    // alone on this status, which the kernel cannot choose.
    return wb::gpuContentionSeen() ? 75 : 3;
  }
  std::printf("ok %s\n", name.c_str());
  return 0;
}

const char* statusWord(int status) {
  switch (status) {
    case 0: return "ok";
    case 1: return "wrong";
    case 75: return "contention";
    default: return "error";
  }
}

/// A JSON number, or null for a quantity the kernel is not graded on.
std::string jsonNumber(const std::optional<double>& value) {
  if (!value) return "null";
  char text[32];
  std::snprintf(text, sizeof text, "%g", *value);
  return text;
}

/// A JSON string. Names are C++ identifiers and signatures today, but the
/// readers parse JSON, so whatever a name holds must come out as valid JSON.
std::string jsonString(const std::string& text) {
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
      quoted += escaped;
    } else {
      quoted += c;
    }
  }
  return quoted + "\"";
}

/// The kernels as a JSON array, one object per line: the readers (the CTest
/// discovery of the profile and sanitize tests, the mutant check, the
/// metrics report) look fields up by name, so a field can be added without
/// breaking any of them.
void printKernelList(const std::vector<wb::runner::RunnableKernel>& kernels) {
  std::printf("[\n");
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const auto& k = kernels[i];
    std::printf("  {\"section\": %s, \"id\": %s, \"exercise\": %s, \"name\": %s, "
                "\"sharedLoadWays\": %s, \"sharedStoreWays\": %s, \"globalStoreSectors\": %s, "
                "\"constantPasses\": %s, \"constantRequests\": %s, "
                "\"minActiveThreadsPerInstruction\": %s, \"minGlobalLoadEfficiency\": %s, "
                "\"minShufflesPerWarp\": %s, \"maxShufflesPerWarp\": %s}%s\n",
                jsonString(k.section).c_str(), jsonString(k.id).c_str(),
                jsonString(k.exercise).c_str(), jsonString(k.qualifiedName).c_str(),
                jsonNumber(k.sharedLoadWays).c_str(), jsonNumber(k.sharedStoreWays).c_str(),
                jsonNumber(k.globalStoreSectors).c_str(), jsonNumber(k.constantPasses).c_str(),
                jsonNumber(k.constantRequests).c_str(), jsonNumber(k.minActiveThreadsPerInstruction).c_str(),
                jsonNumber(k.minGlobalLoadEfficiency).c_str(), jsonNumber(k.minShufflesPerWarp).c_str(),
                jsonNumber(k.maxShufflesPerWarp).c_str(),
                i + 1 < kernels.size() ? "," : "");
  }
  std::printf("]\n");
}

}  // namespace

int main(int argc, char** argv) {
  using namespace wb::runner;
  if (argc < 2) return usage("expected an argument");
  const std::string arg = argv[1];
  const auto kernels = allKernels();
  if (argc == 2 && arg == "--list") {
    printKernelList(kernels);
    return 0;
  }
  if (argc == 2 && (arg == "-h" || arg == "--help")) return usage(nullptr), 0;
  if (argc == 2 && arg == "--gpu-check") {
    if (const auto reason = wb::gpuUnavailableReason()) {
      std::printf("skipped: %s\n", reason->c_str());
      return 77;
    }
    std::printf("ok %s\n", wb::currentDevice().describe().c_str());
    return 0;
  }
  // The kernels to run, each named once, and where their outcomes go.
  std::string statusPath;
  int first = 1;
  const bool firstLaunches = arg == "--first-launches";
  if (firstLaunches && (argc < 3 || std::strcmp(argv[2], "--status") != 0)) {
    return usage("--first-launches goes with --status");
  }
  if (arg == "--status" || firstLaunches) {
    const int at = firstLaunches ? 2 : 1;
    if (argc < at + 3) return usage("--status takes a file and at least one kernel");
    statusPath = argv[at + 1];
    first = at + 2;
  } else if (argc != 2) {
    return usage("several kernels need --status FILE");
  }
  std::vector<const RunnableKernel*> chosen;
  for (int i = first; i < argc; ++i) {
    const std::string wanted = argv[i];
    const RunnableKernel* found = nullptr;
    for (const auto& k : kernels) {
      if (k.section + "/" + k.id == wanted) found = &k;
    }
    if (found == nullptr) return usage(("no kernel called '" + wanted + "' (see --list)").c_str());
    for (const auto* k : chosen) {
      if (k == found) return usage(("kernel '" + wanted + "' named twice").c_str());
    }
    chosen.push_back(found);
  }
  std::FILE* status = nullptr;
  if (!statusPath.empty()) {
    status = std::fopen(statusPath.c_str(), "a");
    if (status == nullptr) return usage(("cannot append to " + statusPath).c_str());
  }
  if (const auto reason = wb::gpuUnavailableReason()) {
    std::printf("skipped: %s\n", reason->c_str());
    return 77;
  }
  // Never destroyed: its thread outlives main until the process ends.
  auto& watchdog = *new Watchdog;
  int worst = 0;
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    const RunnableKernel* k = chosen[i];
    const std::string name = k->section + "/" + k->id;
    watchdog.rearm(name);
    useSeedOfKernel(i);
    const int outcome =
        runKernel(*k, status != nullptr ? static_cast<int>(i) : -1, firstLaunches);
    if (status != nullptr) {
      std::fprintf(status, "%s %s\n", name.c_str(), statusWord(outcome));
      std::fflush(status);
    }
    if (worst == 0) worst = outcome;
    if (outcome == 3 || outcome == 75) break;  // the context may be broken
    if (status != nullptr && i + 1 < chosen.size()) {
      // The next kernel meets the GPU as it would alone, even one of the
      // same exercise: its module afresh, and a new context, so nothing an
      // earlier kernel left in local memory, the device heap or a
      // `__device__` variable reaches it.
      try {
        wb::startFreshContext();
      } catch (const std::exception& e) {
        std::printf("CUDA ERROR after %s: %s\n", name.c_str(), e.what());
        if (worst == 0) worst = 3;
        break;
      }
    }
  }
  if (status != nullptr) std::fclose(status);
  return worst;
}
