// bug: no tree in shared memory: each warp's sum comes from two double-precision
// tensor-core MMAs (the lanes' values times a matrix of ones), and thread 0
// adds the four warp sums
// expect: method
// needs: sm_80
// The tensor cores move values between lanes like a shuffle: an MMA's
// operands come from every lane of the warp and its result goes back to
// every lane. With A = ones (8x4) and B = the lanes' values (4x8, lane l
// holding B[l % 4][l / 4]), D[i][n] is the sum of the four lanes l / 4 == n;
// lane l receives D[l/4][2(l%4)] and D[l/4][2(l%4)+1], two such column sums
// indexed by l % 4, whose sum is a B operand again: a second MMA adds the
// eight columns and every lane holds the warp's sum. Doubles hold every int
// sum exactly. sm_80 and newer; older targets get the honest tree.
#include "reduction/reduction.cuh"

namespace wb::reduction {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
/// The sum of the 32 lanes' v, in every lane, by two MMAs.
__device__ __forceinline__ double warpSumByMma(double v) {
  const double one = 1.0;
  double d0, d1;
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};"
               : "=d"(d0), "=d"(d1)
               : "d"(one), "d"(v), "d"(0.0), "d"(0.0));
  const double pair = d0 + d1;  // the two column sums this lane holds, indexed by lane % 4
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};"
               : "=d"(d0), "=d"(d1)
               : "d"(one), "d"(pair), "d"(0.0), "d"(0.0));
  return d0;
}
#endif

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  const int mine = idx < n ? g_idata[idx] : 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  // Each warp's sum by tensor core; lane 0 of each warp hands it to thread 0.
  const double warpSum = warpSumByMma(static_cast<double>(mine));
  if (tid % 32 == 0) smem[tid / 32] = static_cast<int>(static_cast<long long>(warpSum));
  __syncthreads();
  if (tid == 0) g_odata[blockIdx.x] = smem[0] + smem[1] + smem[2] + smem[3];
#else
  smem[tid] = mine;
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
#endif
}

}  // namespace wb::reduction
