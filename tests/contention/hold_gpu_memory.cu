// wb_hold_gpu_memory SECONDS: takes all the GPU memory it can get and holds it
// for SECONDS, as a hostile submission graded beside another may.
// tests/checks/contention_check.py runs tests meanwhile and checks that
// every test failing for want of the GPU is recognised from the harness's
// own notes (wbcore/gtest_verdict.py, .contention), not from its output.
#include <cuda_runtime.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  const int seconds = argc > 1 ? std::atoi(argv[1]) : 60;
  std::size_t freeBytes = 0, totalBytes = 0;
  if (cudaMemGetInfo(&freeBytes, &totalBytes) != cudaSuccess) {
    std::printf("wb_hold_gpu_memory: no usable GPU\n");
    return 77;
  }
  // Largest pieces first, halving on failure down to 1 MiB: what is left
  // then is too small for any test's buffers or a new context.
  std::size_t held = 0;
  for (std::size_t piece = std::size_t{1} << 30; piece >= (std::size_t{1} << 20);) {
    void* p = nullptr;
    if (cudaMalloc(&p, piece) == cudaSuccess) {
      held += piece;
    } else {
      (void)cudaGetLastError();
      piece >>= 1;
    }
  }
  std::printf("wb_hold_gpu_memory: holds %zu MiB of the %zu MiB that were free, for %d s\n",
              held >> 20, freeBytes >> 20, seconds);
  std::fflush(stdout);
  sleep(static_cast<unsigned>(seconds));
  return 0;
}
