// bug: only the lanes that have a source lane (position >= delta) call the
// shuffle, whose mask still names all 32 lanes: undefined since Volta. The
// lanes left out would keep their own value either way, but on an H100 the
// lanes reading from them get wrong values (7 exchange tests fail)
// expect: tests
// The machine code cannot tell this branch from a warp-uniform one (nvcc
// brackets both alike). Nsight Compute's SASS page can: on an H100 the SHFL
// of this kernel runs with 30 lanes on average (240 thread executions by 8
// warps) where the reference's runs with 32, which the shuffle section's
// method counter rejects should the outputs ever come out right
// (tests/checks/data/ncu_source/h100_shflUp_partial_lanes_sass_view.txt).
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflUp(const int* in, int* out, int width, unsigned int delta) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int position = (threadIdx.x % warpSize) % static_cast<unsigned int>(width);
  int value = in[g];
  if (position >= delta) value = __shfl_up_sync(0xffffffffu, value, delta, width);
  out[g] = value;
}

}  // namespace wb::shuffle
