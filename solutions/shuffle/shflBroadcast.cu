// Book 5.6.2.1, the worked example: broadcast one lane's value to its
// segment. Every lane passes its own value to __shfl_sync and gets back the
// value of position srcLane of its segment of `width` lanes. The value goes
// from register to register: no shared memory, no barrier.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflBroadcast(const int* in, int* out, int width, int srcLane) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  int value = in[g];

  // 0xffffffff: all 32 lanes of the warp take part, and every one of them
  // reaches this line. The source is counted inside the caller's segment:
  // with width 8, lanes 8-15 get lane 8 + srcLane.
  value = __shfl_sync(0xffffffffu, value, srcLane, width);

  out[g] = value;
}

}  // namespace wb::shuffle
