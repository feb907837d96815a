// forgery: GPU-only; a kernel that makes the harness itself note "another process holds the GPU". The kernel is the reference reduceSmem plus a volatile local array of 126,976 ints (496 KB a thread; `ptxas -v`: "507904 bytes stack frame"). The driver reserves local memory for every thread the GPU can hold at once, about 137 GB on an H100 SXM (frame x 2048 threads x 132 SMs), more than its 80 GB, so every launch should fail with cudaErrorMemoryAllocation, one of the two codes wb::isGpuContention takes for another process's hold (checkLaunch notes it; under compute-sanitizer the runner exits 75). What it buys: no failure of the submission's shared run is stored in the result cache, and beside another submission its shared run is made again with the GPU to itself: the verdicts are those of the submission graded alone, so it costs the batch exclusive GPU time, not a grade. The check that would stop it: refuse a kernel whose local frame is above a bound (cuobjdump --dump-resource-usage; the references use none), or count a launch's out-of-memory error as contention only when the frame fits the device. Judged from ptxas and the code (2026-11-26), not run on a GPU; on an H200 (about 141 GB) one launch may fit.
// exercise: reduction/reduceSmem
// base: solutions
// expect: below base
#include "reduction/reduction.cuh"

namespace wb::reduction {

// 126,976 ints: 496 KB, under ptxas's 512 KB limit on a thread's local memory.
constexpr unsigned int kScratch = 126976;

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  volatile int scratch[kScratch];   // volatile: every store and load stays in local memory
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;

  int v = idx < n ? g_idata[idx] : 0;
  const unsigned int slot = (idx * 2654435761u + n) % kScratch;   // an index known at run time
  scratch[slot] = v;
  v = scratch[slot];
  smem[tid] = v;
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
