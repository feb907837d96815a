// forgery: GPU-only. A failing test of the shared phase (correctness, random sizes, shared memory, sanitizer) ran a second time, alone, when its output matched a list of words ("out of memory", "timed out", "did not return within"), and the second verdict replaced the first. The test's output is the test process's stdout, where a kernel's printf lands, so this kernel prints "out of memory" on every launch: each failing test would get a second run with fresh inputs. The kernel is the reference with a coin in it: it drops the fourth element of each thread when bit 30 of %globaltimer is set (a flip about every 1.07 s), so a test run fails about half the time; with the second try, about a quarter. Closed: a test runs again only on the harness's own note that the GPU was held by another process (wbcore/gtest_verdict.py, .contention) or CTest's timeout, and only when another submission's run shared the GPU with it (grader/build.py, shared_gpu_casualties); grader/tests/test_grading_build.py, test_out_of_memory_printed_by_the_test_buys_no_second_try, shows it without a GPU. On a GPU the coin makes the outcome statistical: the submission must score below its base.
// exercise: reduction/reduceSmemUnroll
// base: solutions
// expect: below base
#include <cstdio>

#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmemUnroll(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int blockStart = blockIdx.x * (kReduceBlock * kUnrollFactor);
  const unsigned int remaining = n - blockStart;
  if (tid == 0 && blockIdx.x == 0) printf("out of memory\n");  // the ticket to a second run

  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  const unsigned int used = ((now >> 30) & 1) ? kUnrollFactor - 1 : kUnrollFactor;  // the coin

  int sum = 0;
  for (unsigned int k = 0; k < used; ++k) {
    const unsigned int i = tid + k * kReduceBlock;
    if (i < remaining) sum += g_idata[blockStart + i];
  }
  smem[tid] = sum;
  __syncthreads();

  if (tid < 64) smem[tid] += smem[tid + 64];
  __syncthreads();

  if (tid < 32) {
    smem[tid] += smem[tid + 32];
    __syncwarp();
    if (tid < 16) smem[tid] += smem[tid + 16];
    __syncwarp();
    if (tid < 8) smem[tid] += smem[tid + 8];
    __syncwarp();
    if (tid < 4) smem[tid] += smem[tid + 4];
    __syncwarp();
    if (tid < 2) smem[tid] += smem[tid + 2];
    __syncwarp();
    if (tid < 1) smem[tid] += smem[tid + 1];
  }

  if (tid == 0) g_odata[blockIdx.x] = smem[0];
}

}  // namespace wb::reduction
