// forgery: the dead-shuffle forgery (mutant shflUp__shuffle_that_never_runs) (each lane loads the element delta lanes below it, or its own, straight from global memory: one LDG) with the dead shuffle made live: every lane calls __shfl_sync with its own position as the source lane, so the SHFL runs once per warp with all 32 lanes and its result even flows to the store, yet it moves nothing (each lane reads itself). The shuffle counter (wbcore/nsight.py shuffle_counter) counts SHFL executions and lanes, never what a shuffle's source lane is or whether the exchange came from it; the static facts count SHFL (1) and LDG (1) instructions, never the LDG's address.
// exercise: shuffle/shflUp
// base: solutions
// expect: zero method
// Should earn at 840951c on a GPU: correctness 4, method 1, shared_memory 1, sanitizer 1 (every point
// of the exercise) with no value moved between lanes. Evidence: method_check.py passes on the CPU;
// method_counters prints "shuffles executed per warp 1.00 (8 by 8 warps)" and "lanes 32.00",
// exactly the reference's line. The same works for shflDown, shflWrap, shflXor, shflXorArray
// (4 gathered loads, "at most 4 LDG") and shflSwap (see the shflSwap file).
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflUp(const int* in, int* out, int width, unsigned int delta) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int position = (threadIdx.x % warpSize) % static_cast<unsigned int>(width);
  // The exchange, done by indexing global memory.
  int v = in[position >= delta ? g - static_cast<int>(delta) : g];
  // A full-warp shuffle in which every lane reads its own value.
  v = __shfl_sync(0xffffffffu, v, static_cast<int>(position), width);
  out[g] = v;
}

}  // namespace wb::shuffle
