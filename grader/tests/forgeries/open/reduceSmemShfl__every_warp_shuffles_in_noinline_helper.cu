// forgery: reduceShfl's technique under reduceSmemShfl's name: every warp adds its own 32 values by shuffle before anything meets in shared memory, which "at most 5 SHFL" and the counter's maximum of 1.25 per warp are there to reject. The per-warp shuffles sit alone in a __noinline__ function (SHFL; RET), the shape wbcore/sass.py compiler_copies() skips as the compiler's own shuffle helper, so the listing counts only warp 0's inline (rolled) shuffle. On the GPU, wbcore/ncu_source.py executed_by_opcode() reads the first SASS table only ("a second function's table: the first is the kernel's"): if Nsight Compute lists the callee as its own function, its 80 executions are not counted and the launch shows warp 0's 20 (1.25 per warp).
// exercise: shuffle/reduceSmemShfl
// base: solutions
// expect: zero method
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {
namespace {

__device__ __noinline__ int xorPartner(int value, int laneMask) {
  return __shfl_xor_sync(0xffffffffu, value, laneMask);
}

}  // namespace

__global__ void reduceSmemShfl(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[reduction::kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int lane = tid % kWarpSize;
  const unsigned int idx = blockIdx.x * reduction::kReduceBlock + tid;
  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();
  int sum = smem[tid];
  for (int m = 16; m > 0; m >>= 1) sum += xorPartner(sum, m);   // every warp
  if (lane == 0) smem[tid] = sum;           // the warp sums at 0, 32, 64, 96
  __syncthreads();
  if (tid < kWarpSize) {
    sum = lane < kWarpSums ? smem[lane * kWarpSize] : 0;
#pragma unroll 1
    for (int m = 16; m > 0; m >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, m);
    if (tid == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
