// Book 5.3.3: reduceSmem with the shared array in dynamic shared memory.
// `extern __shared__` declares an array without a size; the launch's third
// parameter gives it one, in bytes (kReduceBlock * sizeof(int), see
// wb::reduction::launch). The kernel body is unchanged: it is the same
// memory, allocated when the kernel starts instead of when it is compiled.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmemDyn(int* g_idata, int* g_odata, unsigned int n) {
  extern __shared__ int smem[];  // kReduceBlock ints, sized by the launch
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;

  smem[tid] = idx < n ? g_idata[idx] : 0;  // pad the last block with zeros
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
