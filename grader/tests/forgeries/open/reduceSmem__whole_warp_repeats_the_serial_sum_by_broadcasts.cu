// forgery: no tree: each of warp 0's 32 lanes adds all of the block's 128 values in the same order (every LDS.128 a broadcast: all lanes read the same 16 bytes) and stores its sum, so that nvcc cannot leave the loop to lane 0 (which it does when only lane 0's sum is used: that version ran with 14.6 active threads on an H100 and failed the bound of 24). Measured on an H100 on 2026-11-27 (mutant check, profile stage): every check passed. Its lanes stay busy (few idle lanes), its warp-level shared loads are 132 against the reference's 80 (bound 4 x + 32), and the bytes the raw counter smsp__sass_data_bytes_mem_shared_op_ld reports are the bytes a load requires, a broadcast's once, so they stay under 4 times the reference's 4,080. Counted per thread on Nsight Compute's source page (SASS view: predicated-on thread instructions times the access size, summed over the LDS rows), the threads loaded 65,552 bytes against the reference's 4,080: the check it needs is that count, one more ncu run per kernel (and the reference's), where the raw page's counter stops at broadcasts. The same lanes reading in a rotated order (no broadcast) are the mutant reduceSmem__whole_warp_repeats_the_serial_sum, which the raw counter rejects.
// exercise: reduction/reduceSmem
// base: solutions
// expect: zero method
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ __align__(16) int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();
  if (tid < 32) {
    const int4* words = reinterpret_cast<const int4*>(smem);
    int sum = 0;
#pragma unroll
    for (unsigned int k = 0; k < kReduceBlock / 4; ++k) {
      const int4 w = words[k];
      sum += w.x + w.y + w.z + w.w;
    }
    // Every lane's sum is stored, so that the compiler cannot leave the
    // loop to lane 0 alone (as it does when only lane 0's sum is used).
    __syncwarp();
    smem[tid] = sum;
    __syncwarp();
    if (tid == 0) g_odata[blockIdx.x] = smem[0];
  }
}

}  // namespace wb::reduction
