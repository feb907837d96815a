// forgery: the partner's value loaded straight from global memory (lane ^ laneMask stays inside the warp, so the partner's index is g ^ laneMask: one LDG), and one SHFL that every lane issues under a predicate that is false for every lane (laneMask >= 32, which the contract never allows). A predicated-off instruction is still executed by the warp: Nsight Compute counts it in "Instructions Executed" (once per warp) and in "Thread Instructions Executed" (32 per warp: that column counts the active lanes, not the predicated-on ones, which are the separate "Predicated-On Thread Instructions Executed" column, 0 here). wbcore/ncu_source.py reads THREADS_EXECUTED = "Thread Instructions Executed", so the counter sees one full-warp shuffle per warp. The SHFL's destination is the register that is stored, so even a def-use check "the STG's value comes from a SHFL" would be satisfied; the predicate is what makes it move nothing.
// exercise: shuffle/shflXor
// base: solutions
// expect: zero method
// Should earn at 840951c on a GPU: every point of shflXor (correctness 4, method 1, shared_memory 1,
// sanitizer 1). To confirm: (CPU) nvdisasm shows "@P0 SHFL.BFLY" (if ptxas turned the guard into
// a branch, the SHFL would not execute and the forgery fails: look first); (GPU) the SASS row of
// the SHFL on ncu's source page: Instructions Executed 8, Thread Instructions Executed 256,
// Predicated-On Thread Instructions Executed 0; method_counters passes with "1.00", "32.00".
// The same predicated-off SHFL also hides the bug the lanes check is for: a full-mask shuffle
// under a lane test that ptxas if-converts into a predicate (instead of a branch) counts 32 lanes.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXor(const int* in, int* out, int width, int laneMask) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  int value = in[g ^ static_cast<unsigned int>(laneMask)];
  asm volatile(
      "{\n\t"
      ".reg .pred p;\n\t"
      "setp.ge.s32 p, %1, 32;\n\t"
      "@p shfl.sync.bfly.b32 %0, %0, %1, 0x1f, 0xffffffff;\n\t"
      "}"
      : "+r"(value)
      : "r"(laneMask));
  out[g] = value;
}

}  // namespace wb::shuffle
