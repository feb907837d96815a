// Exercise transposeSmemPadDyn (book section 5.4.3): the padded tile in
// dynamic shared memory, any block shape. The contract is in
// chapters/transpose/transpose.cuh; solve transposeSmemDyn.cu and
// transposeSmemPad.cu first. The launch provides
// (blockDim.x + kPad) * blockDim.y floats of dynamic shared memory.
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void transposeSmemPadDyn(float* out, const float* in, int nrows, int ncols) {
  // TODO(book 5.4.3): transposeSmemDyn with padded tile rows.
  // Contract: transposeSmemPadDyn in chapters/transpose/transpose.cuh.
  // Roughly 14 lines; `./workbook hint transposeSmemPadDyn` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)out, (void)in, (void)nrows, (void)ncols;
}

}  // namespace wb::transpose
