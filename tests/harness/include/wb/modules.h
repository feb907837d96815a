/**
 * @file modules.h
 * @brief Settings of the exercise-module loader (wb::exerciseKernel in
 *        chapters/common/exercise_kernel.h) for the programs that use it.
 */
#pragma once

#include <string>

namespace wb {

/// Module folders (':'-separated) to search when WB_MODULES is not set. The
/// benchmark and the sweep point it at the reference solutions' modules;
/// the tests set none, so a test run without WB_MODULES says so instead of
/// silently testing someone else's kernels.
void setDefaultModuleFolders(const std::string& folders);

/// Unloads every module loaded so far; the next exerciseKernel or
/// exerciseGlobal loads its module afresh, with its `__device__` variables
/// as the file initialises them. The GPU tests call it after each test and
/// the kernel runner after each kernel of a run of several, so a test or a
/// kernel run in a process with others meets the module as it would alone
/// (a kernel cannot carry what it remembers from one launch to the next).
void unloadModules();

/// Unloads every module (unloadModules), then destroys this process's CUDA
/// context (cudaDeviceReset): the next CUDA call makes a new one. The kernel
/// runner calls it between the kernels of a run of several, so a kernel
/// meets the GPU as it would in a process of its own: unloading a module
/// resets its `__device__` variables, but the local memory and the device
/// heap belong to the context, and a kernel could find there what an
/// earlier kernel left (a flag that switches it to another path). Throws
/// wb::CudaError if the reset fails.
void startFreshContext();

/// From now on this process may load only the module @p key
/// ("section/exercise"); loading any other throws. The kernel runner calls
/// it with the exercise of the one kernel it launches, so a profile or
/// sanitizer run of an exercise depends on that exercise's file alone.
void loadOnlyModule(const std::string& key);

/**
 * @brief While it lives, exerciseKernel and exerciseGlobal on this thread
 *        load every module from @p folders (':'-separated), whatever
 *        WB_MODULES says, kept apart from the modules loaded outside it.
 *
 * The performance tests time a student's kernel against the reference
 * build of kernels of the same section, some of them exercises too
 * (transposeSmemPad against the reference transposeSmem): the student's
 * transposeSmem and the reference one are then both loaded in one process,
 * each launched through the same contract (TransposeKernel), the reference
 * one inside such a scope. A null or empty @p folders changes nothing. The
 * modules loaded inside a scope are not written to WB_MODULES_LOG: no
 * student file ran.
 */
class ModuleFolderScope {
 public:
  explicit ModuleFolderScope(const char* folders);
  ~ModuleFolderScope();
  ModuleFolderScope(const ModuleFolderScope&) = delete;
  ModuleFolderScope& operator=(const ModuleFolderScope&) = delete;

 private:
  const char* previous_;
};

}  // namespace wb
