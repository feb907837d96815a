// wb::exerciseKernel (chapters/common/exercise_kernel.h): finds an
// exercise's kernel in the exercise's compiled module, loading the module
// with the runtime's library API on first use.
#include <cxxabi.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/exercise_kernel.h"
#include "wb/cuda_check.h"
#include "wb/modules.h"

namespace wb {
namespace {

struct LoadedModule {
  std::string path;
  cudaLibrary_t library = nullptr;
  std::map<std::string, const void*> kernels;  ///< by demangled signature
};

struct ModuleRegistry {
  std::mutex mutex;
  std::map<std::string, LoadedModule> modules;  ///< by "section/exercise"
  std::string defaultFolders;
  std::string onlyModule;  ///< when set, the one module this process may load
};

/// The folders of the innermost ModuleFolderScope on this thread, or null.
thread_local const char* scopeFolders = nullptr;

ModuleRegistry& registry() {
  static ModuleRegistry r;
  return r;
}

std::vector<std::string> splitFolders(const std::string& list) {
  std::vector<std::string> folders;
  std::string::size_type start = 0;
  while (start <= list.size()) {
    const auto end = list.find(':', start);
    const std::string folder = list.substr(start, end == std::string::npos ? end : end - start);
    if (!folder.empty()) folders.push_back(folder);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return folders;
}

std::string findModuleIn(const std::string& key, const std::string& folders,
                         const std::string& where) {
  for (const std::string& folder : splitFolders(folders)) {
    const std::string path = folder + "/" + key + ".fatbin";
    if (std::ifstream(path).good()) return path;
  }
  throw std::runtime_error("no compiled module " + key + ".fatbin in " + where +
                           ": build the workbook first (cmake --build build)");
}

std::string findModule(const std::string& key, const std::string& defaults) {
  const char* env = std::getenv("WB_MODULES");
  const std::string list = env != nullptr && *env != '\0' ? env : defaults;
  if (list.empty()) {
    throw std::runtime_error(
        "cannot find the module of " + key +
        ": WB_MODULES is not set. It names the folders of compiled exercise modules, e.g. "
        "WB_MODULES=build/modules/starter for your kernels or build/modules/solutions for "
        "the reference; ctest sets it for every test.");
  }
  return findModuleIn(key, list, "WB_MODULES=" + list);
}

std::string demangled(const char* name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(name, nullptr, nullptr, &status),
                                              std::free);
  return status == 0 && text ? std::string(text.get()) : std::string(name);
}

/// Appends @p key to the file WB_MODULES_LOG names (when set): the record of
/// every module this process loaded, which wbcore/gtest_verdict.py hands to
/// the grader so a stored test outcome is reused only for the same modules.
void logLoaded(const std::string& key) {
  const char* log = std::getenv("WB_MODULES_LOG");
  if (log == nullptr || *log == '\0') return;
  std::ofstream out(log, std::ios::app);
  out << key << '\n';
  out.flush();
  if (!out) throw std::runtime_error(std::string("cannot append to WB_MODULES_LOG ") + log);
}

/// A kernel whose local frame outgrows the device fails its own launches
/// with cudaErrorMemoryAllocation: those are then not another process's
/// hold (disownGpuContention).
void disownContentionForHugeFrames(const LoadedModule& m) {
  int device = 0, threadsPerSm = 0, smCount = 0;
  std::size_t freeBytes = 0, totalBytes = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&threadsPerSm, cudaDevAttrMaxThreadsPerMultiProcessor, device) !=
          cudaSuccess ||
      cudaDeviceGetAttribute(&smCount, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
      cudaMemGetInfo(&freeBytes, &totalBytes) != cudaSuccess) {
    (void)cudaGetLastError();
    return;
  }
  for (const auto& [name, function] : m.kernels) {
    cudaFuncAttributes attributes{};
    if (cudaFuncGetAttributes(&attributes, function) != cudaSuccess) {
      (void)cudaGetLastError();
      continue;
    }
    if (localMemoryOutgrowsDevice(attributes.localSizeBytes, threadsPerSm, smCount, totalBytes)) {
      std::ostringstream why;
      why << "the kernel " << name << " of " << m.path << " needs " << attributes.localSizeBytes
          << " bytes of local memory per thread: the driver reserves that for all "
          << static_cast<long long>(threadsPerSm) * smCount << " threads this GPU holds, more than "
          << "half of its " << (totalBytes >> 20) << " MiB, so its launches may fail for want of "
          << "memory; such failures count as the kernel's own (keep large arrays in shared or "
          << "global memory)";
      disownGpuContention(why.str());
      return;
    }
  }
}

LoadedModule& load(ModuleRegistry& r, const std::string& key) {
  // A module loaded inside a ModuleFolderScope is kept under its folders
  // too: the same exercise may also be loaded from WB_MODULES.
  const bool scoped = scopeFolders != nullptr;
  const std::string entry = scoped ? std::string(scopeFolders) + "|" + key : key;
  const auto found = r.modules.find(entry);
  if (found != r.modules.end()) return found->second;
  if (!r.onlyModule.empty() && key != r.onlyModule) {
    throw std::runtime_error("this process may load only the module of " + r.onlyModule +
                             ", not that of " + key);
  }
  LoadedModule m;
  m.path = scoped ? findModuleIn(key, scopeFolders,
                                 std::string(scopeFolders) + " (the reference modules)")
                  : findModule(key, r.defaultFolders);
  const cudaError_t err =
      cudaLibraryLoadFromFile(&m.library, m.path.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();  // not the next launch's error
    noteCudaFailure(err, "loading the module " + m.path + ": " + cudaGetErrorName(err));
    throw std::runtime_error("the module " + m.path + " does not load on this GPU: " +
                             cudaGetErrorName(err) + " (" + cudaGetErrorString(err) +
                             "); was it built for another GPU? Set CMAKE_CUDA_ARCHITECTURES "
                             "and rebuild.");
  }
  unsigned int count = 0;
  if (cudaLibraryGetKernelCount(&count, m.library) != cudaSuccess) count = 0;
  std::vector<cudaKernel_t> handles(count);
  if (count > 0 && cudaLibraryEnumerateKernels(handles.data(), count, m.library) != cudaSuccess) {
    handles.clear();
  }
  for (cudaKernel_t handle : handles) {
    const char* name = nullptr;
    const void* function = reinterpret_cast<const void*>(handle);
    if (cudaFuncGetName(&name, function) == cudaSuccess && name != nullptr) {
      m.kernels[demangled(name)] = function;
    }
  }
  (void)cudaGetLastError();
  disownContentionForHugeFrames(m);
  if (!scoped) logLoaded(key);
  return r.modules.emplace(entry, std::move(m)).first->second;
}

}  // namespace

const void* exerciseKernel(const char* section, const char* exercise, const char* signature) {
  ModuleRegistry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  const std::string key = std::string(section) + "/" + exercise;
  const LoadedModule& m = load(r, key);
  const auto found = m.kernels.find(signature);
  if (found != m.kernels.end()) return found->second;
  std::ostringstream msg;
  msg << "the module " << m.path << " (compiled from " << key << ".cu) defines no kernel "
      << signature << "; it defines ";
  if (m.kernels.empty()) msg << "no kernel at all";
  bool first = true;
  for (const auto& [name, function] : m.kernels) {
    (void)function;
    msg << (first ? "" : ", ") << name;
    first = false;
  }
  throw std::runtime_error(msg.str());
}

void* exerciseGlobal(const char* section, const char* exercise, const char* symbol,
                     std::size_t* bytes) {
  ModuleRegistry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  const std::string key = std::string(section) + "/" + exercise;
  const LoadedModule& m = load(r, key);
  void* address = nullptr;
  std::size_t size = 0;
  const cudaError_t err = cudaLibraryGetGlobal(&address, &size, m.library, symbol);
  if (isGpuContention(err)) {
    // The variable's memory could not be had (measured on an H100 while
    // another process held all of it): not the student's doing.
    (void)cudaGetLastError();
    const std::string what = std::string("cudaLibraryGetGlobal(") + symbol + ") in the module " +
                             m.path + ": " + cudaGetErrorName(err) + " (" +
                             cudaGetErrorString(err) + ")";
    noteGpuContention(what);
    throw std::runtime_error(what + ": another process holds the GPU's memory");
  }
  if (err != cudaSuccess || address == nullptr) {
    (void)cudaGetLastError();  // not the next launch's error
    throw std::runtime_error("the module " + m.path + " (compiled from " + key +
                             ".cu) holds no module-scope variable " + symbol + " (" +
                             cudaGetErrorName(err) +
                             "); the compiler drops one that no kernel of the file reads");
  }
  if (bytes != nullptr) *bytes = size;
  return address;
}

void setDefaultModuleFolders(const std::string& folders) {
  ModuleRegistry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  r.defaultFolders = folders;
}

void unloadModules() {
  ModuleRegistry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  const bool anyLoaded = !r.modules.empty();
  for (auto& [entry, m] : r.modules) {
    (void)entry;
    // A context broken by a fault refuses; the process ends soon after, and
    // the note keeps the batch's later failures from standing (cuda_check.h).
    noteCudaFailure(cudaLibraryUnload(m.library), "unloading the module " + m.path);
  }
  r.modules.clear();
  if (anyLoaded) {
    // Not the next launch's error, but noted: a fault no check of the test saw.
    noteCudaFailure(cudaGetLastError(), "an error left after the test's launches");
  }
}

void startFreshContext() {
  unloadModules();
  WB_CUDA(cudaDeviceReset());
}

void loadOnlyModule(const std::string& key) {
  ModuleRegistry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  r.onlyModule = key;
}

ModuleFolderScope::ModuleFolderScope(const char* folders) : previous_(scopeFolders) {
  if (folders != nullptr && *folders != '\0') scopeFolders = folders;
}

ModuleFolderScope::~ModuleFolderScope() { scopeFolders = previous_; }

}  // namespace wb
