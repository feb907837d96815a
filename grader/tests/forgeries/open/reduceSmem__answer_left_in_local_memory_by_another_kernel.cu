// forgery: a serial block sum by thread 0 (about 14 active threads per warp instruction alone, below reduceSmem's 24) that first reads the first 16 bytes of its local frame; when reduceNeighboredSmem ran just before it in the same runner process (a section's profile batch, wb_run --status) and left {tag, block, sum, ~sum} there, it writes that sum instead of adding: correct on the same inputs, with full-warp counters, so the batch would keep passing values. Unloading the modules does not touch local memory or the device heap. Closed for the answer itself: each kernel of a runner batch now draws inputs from a seed of its own (tests/runner/runner.cu useSeedOfKernel), so the sum left behind is another input's and the kernel is wrong there (not kept, measured alone). A flag left the same way could switch a kernel to another path of its own file in the batch only: closed by a CUDA context per kernel of a run (wb::startFreshContext, GPU tests harness.GpuFreshContext.*).
// exercise: reduction/reduceSmem
// base: solutions
// also: reduceNeighboredSmem__leaves_its_sums_in_local_memory
// expect: zero method
// Not run on a GPU: whether local memory keeps the other kernel's bytes between launches, and
// whether block b lands on the same SM and warp slot, are still to be measured. Both files compile
// for sm_75 and sm_90, the local store and load survive ptxas, and method_check.py passes both.
#include "reduction/reduction.cuh"
namespace wb::reduction {
__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();
  if (tid == 0) {
    unsigned tag, block; int sum, check;
    // The frame's first 16 bytes, at an address ptxas cannot trace (plus
    // %dynamic_smem_size, 0 at run time for a static shared array).
    asm volatile("{ .local .align 16 .b32 stash[256];\n\t"
                 ".reg .u32 a, z;\n\t"
                 "mov.u32 a, stash;\n\t"
                 "mov.u32 z, %%dynamic_smem_size;\n\t"
                 "add.u32 a, a, z;\n\t"
                 "ld.local.v4.b32 {%0, %1, %2, %3}, [a]; }"
                 : "=r"(tag), "=r"(block), "=r"(sum), "=r"(check) :: "memory");
    if (!(tag == 0x5eedf00du && block == blockIdx.x && check == ~sum)) {
      sum = 0;
      for (unsigned int i = 0; i < kReduceBlock; ++i) sum += smem[i];
    }
    g_odata[blockIdx.x] = sum;
  }
}
}
