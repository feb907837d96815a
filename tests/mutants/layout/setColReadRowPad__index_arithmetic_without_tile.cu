// bug: computes the value another thread would have stored instead of
// storing it by columns into the padded tile and reading it back by rows:
// the right output, without the technique
// expect: method
// Without shared memory there is no padding, no bank and no barrier: the
// method check finds no STS, LDS or BAR.
#include "layout/layout.cuh"

namespace wb::layout {

namespace square {
__global__ void setColReadRowPad(int* out) {
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  out[g] = blockIdx.x * kShape.elements() + threadIdx.x * blockDim.x + threadIdx.y;
}
}  // namespace square

namespace rect {
__global__ void setColReadRowPad(int* out) {
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int g = blockIdx.x * kShape.elements() + t;
  out[g] = blockIdx.x * kShape.elements() + threadIdx.x * kShape.dimY + threadIdx.y;
}
}  // namespace rect

}  // namespace wb::layout
