// bug: each lane loads its butterfly partner's first element from global
// memory instead of receiving it by shuffle: the right output, without the
// technique
// expect: method
// The partner's array starts at `(g ^ laneMask) * kArrayLength` (laneMask <
// width keeps it in the lane's own segment): every output is right, and no
// value moves between lanes (no SHFL, five global loads).
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXorFirstToLast(const int* in, int* out, int width, int laneMask) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int partner = g ^ static_cast<unsigned int>(laneMask);
  int value[kArrayLength];
#pragma unroll
  for (int i = 0; i < kArrayLength; ++i) value[i] = in[g * kArrayLength + i];
  value[kArrayLength - 1] = in[partner * kArrayLength];
#pragma unroll
  for (int i = 0; i < kArrayLength; ++i) out[g * kArrayLength + i] = value[i];
  (void)width;
}

}  // namespace wb::shuffle
