// bug: computes the value another thread would have stored instead of
// reading it from the dynamic tile: the right output, without the technique
// expect: method
// Every value in the tile is a thread's global index g, so the row load of
// what the column store put there can be replaced by arithmetic; no shared
// memory, no bank conflict and no barrier are left to study.
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setColReadRowDyn(int* out) {
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  // Element (ty, tx) was stored by the thread (tx', ty') = (ty, tx).
  out[g] = blockIdx.x * kShape.elements() + threadIdx.x * blockDim.x + threadIdx.y;
}
}  // namespace square

namespace rect {
__global__ void setColReadRowDyn(int* out) {
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  // Element (ty, tx) was stored by the thread t' with t' % 16 == ty and
  // t' / 16 == tx.
  out[g] = blockIdx.x * kShape.elements() + threadIdx.x * kShape.dimY + threadIdx.y;
}
}  // namespace rect

}  // namespace wb::layout
