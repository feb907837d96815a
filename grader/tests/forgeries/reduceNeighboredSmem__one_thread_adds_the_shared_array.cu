// forgery: the serial-sum mutant that the method counter was built to kill (tests/mutants/reduction/reduceSmem__one_thread_adds_the_shared_array.cu: thread 0 adds the block's 128 values one by one, no rounds, no tree), renamed reduceNeighboredSmem. tests/runner/reduction_kernels.cu gives reduceNeighboredSmem no active-thread bound (`rfind("reduceNeighbored", 0) != 0` skips it), so its method_counters test checks only the global-load efficiency (the staging load is coalesced: ~100%) and the work bounds (the neighbored reference runs 7 barrier rounds over 4 warps, more instructions and shared loads than this kernel: 32 LDS.128 per block against ~46 LDS)
// exercise: reduction/reduceNeighboredSmem
// base: solutions
// expect: zero method
// Since reduceNeighboredSmem is held to the same bound as the trees (24 active threads per
// warp instruction; the reference measures 31.4 on an H100, this kernel 14.4), its
// method_counters test fails and the method point is lost; its correctness stands.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceNeighboredSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();
  if (tid == 0) {
    int sum = 0;
    for (unsigned int k = 0; k < kReduceBlock; ++k) sum += smem[k];
    g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::reduction
