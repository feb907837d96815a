// bug: each lane loads its butterfly partner's value from global memory
// instead of receiving it by shuffle: the right sums, without the technique
// expect: method
// The partner's index is `g ^ laneMask` (laneMask < width keeps it in the
// lane's own segment): every output is right, and no value moves between
// lanes (no SHFL, two global loads).
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXorPlus(const int* in, int* out, int width, int laneMask) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g] + in[g ^ static_cast<unsigned int>(laneMask)];
  (void)width;
}

}  // namespace wb::shuffle
