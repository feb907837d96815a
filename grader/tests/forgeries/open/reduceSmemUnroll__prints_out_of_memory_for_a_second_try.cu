// forgery: GPU-only (the rule it uses was shown on the CPU, grader/build.py shared_gpu_casualties). A failing test of the shared phase (correctness, random sizes, shared memory, sanitizer) runs a second time, alone, when its output matches SHARED_GPU_SYMPTOMS_RE ("out of memory", "timed out", "Timeout", "did not return within"), and the second verdict replaces the first. The test's output is the test process's stdout, where a kernel's printf lands, so this kernel prints "out of memory" on every launch: each of its failing tests gets a second run with freshly drawn inputs (no --seed: each test draws its own). The kernel is the reference with a coin in it: it drops the fourth element of each thread when bit 30 of %globaltimer is set (a flip about every 1.07 s), so a test run fails about half the time; with the retry, about a quarter. Any kernel that is wrong on some inputs, or racy, gets the same second chance, in a batch and graded alone alike.
// exercise: reduction/reduceSmemUnroll
// base: solutions
// expect: below base
// Should earn today on a GPU, on average: correctness, random_sizes and sanitizer at about 3/4
// of their points instead of about 1/2 (statistical: compare with the same file without the
// printf over several gradings). Closing check: decide a rerun from what the harness itself
// reports (the record gtest_verdict.py writes could carry the CUDA error the harness caught,
// cudaErrorMemoryAllocation, or CTest's Timeout), never from text in the test's output.
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
