// Book 5.6.2.7: exchanging array elements chosen by index between two given
// lanes. Only two lanes of each segment trade, but a shuffle must be called
// by every lane its mask names, so all lanes call it once: each offers one
// element and reads from a partner, and only the two lanes of the pair keep
// what they read. The other lanes read their own offer back and ignore it.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflSwap(const int* in, int* out, int width, int firstLane, int secondLane,
                         int firstIdx, int secondIdx) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  int value[kArrayLength];
  for (int i = 0; i < kArrayLength; ++i) value[i] = in[g * kArrayLength + i];

  // Position in the segment: the lane numbers of the pair are counted there.
  const int position = static_cast<int>(threadIdx.x % warpSize) % width;
  const bool isFirst = position == firstLane;
  const bool isSecond = position == secondLane;

  // The element this lane offers, and the position it reads from (its own
  // for the lanes outside the pair).
  const int offered = isSecond ? value[secondIdx] : value[firstIdx];
  const int source = isFirst ? secondLane : (isSecond ? firstLane : position);
  const int received = __shfl_sync(0xffffffffu, offered, source, width);

  if (isFirst) value[firstIdx] = received;
  if (isSecond) value[secondIdx] = received;

  for (int i = 0; i < kArrayLength; ++i) out[g * kArrayLength + i] = value[i];
}

}  // namespace wb::shuffle
