/**
 * @file exercise_kernel.h
 * @brief How the tests, the kernel runner and the benchmark reach an
 *        exercise's kernel: by name, in the exercise's own compiled module.
 *
 * Each kernel exercise file (`starter/<section>/<exercise>.cu`) is compiled
 * as device code only, into a module of its own
 * (`<build>/modules/<impl>/<section>/<exercise>.fatbin`). No host code of an
 * exercise file is ever compiled, so none of it runs in a test process: a
 * static constructor, an exit handler or a definition of a harness function
 * in an exercise file has no effect at all. The test process loads the
 * module of the exercise it tests when it first launches one of its kernels
 * (wb::exerciseKernel, implemented by the test harness), so the tests of one
 * exercise run only that exercise's code.
 *
 * The kernels are still declared in the section's contract header, so an
 * exercise file that defines a kernel with another signature does not
 * compile, with the compiler pointing at the student's line.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace wb {

/**
 * @brief The kernel @p signature (its qualified name and parameter types as
 *        the C++ demangler writes them, e.g.
 *        "wb::reduction::reduceSmem(int*, int*, unsigned int)") from the
 *        compiled module of exercise @p section / @p exercise.
 *
 * Modules are searched in the folders of the environment variable
 * WB_MODULES (separated by ':'), the first holding
 * `<section>/<exercise>.fatbin` wins; CTest sets it for every test. The
 * module is loaded on first use and kept for the life of the process.
 * @return a handle that cudaLaunchKernel and cudaFuncGetAttributes accept.
 * @throws std::runtime_error naming the module and what is wrong: WB_MODULES
 *         not set, no such module, a module that does not load on this GPU,
 *         or one that defines no kernel with this signature (the message
 *         lists the kernels it does define).
 */
const void* exerciseKernel(const char* section, const char* exercise, const char* signature);

/**
 * @brief The device address of the module-scope variable @p symbol (a
 *        `__constant__` or `__device__` variable, by its name in the module:
 *        unmangled for a variable at global scope) in the compiled module of
 *        exercise @p section / @p exercise, loading the module as
 *        exerciseKernel does.
 *
 * A `__constant__` array lives in the module that defines it, so a test
 * cannot set it with cudaMemcpyToSymbol on a variable of its own: it copies
 * to this address instead (cudaMemcpy), which is what cudaMemcpyToSymbol
 * does for a program linked in one piece.
 * @param section  the section's folder name, e.g. "constant"
 * @param exercise the exercise whose module holds the variable
 * @param symbol   the variable's name in the module, e.g. "wbStencilCoef"
 * @param[out] bytes the variable's size in bytes, when not null.
 * @throws std::runtime_error naming the module when it holds no such
 *         variable (or cannot be loaded).
 */
void* exerciseGlobal(const char* section, const char* exercise, const char* symbol,
                     std::size_t* bytes = nullptr);

/// Launches @p kernel (from exerciseKernel) with arguments @p args, which
/// must have exactly the kernel's parameter types. Launch errors are left
/// for the caller to check, as with `<<<...>>>` (cudaGetLastError).
template <class... Args>
void launchKernel(const void* kernel, dim3 grid, dim3 block, std::size_t dynamicSmemBytes,
                  cudaStream_t stream, Args... args) {
  void* params[] = {static_cast<void*>(&args)...};
  // The error is also recorded as the runtime's last error, where the
  // caller's launch check finds it.
  (void)cudaLaunchKernel(kernel, grid, block, params, dynamicSmemBytes, stream);
}

}  // namespace wb
