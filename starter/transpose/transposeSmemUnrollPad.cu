// Exercise transposeSmemUnrollPad (book section 5.4.4): two padded tiles per
// block, side by side, two elements per thread. The contract is in
// chapters/transpose/transpose.cuh; solve transposeSmemPad.cu first.
// Launched with blocks of 32 x 16 threads, each block covering 16 input rows
// and kUnroll * kBlockX = 64 input columns.
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void transposeSmemUnrollPad(float* out, const float* in, int nrows, int ncols) {
  // TODO(book 5.4.4): two padded tiles side by side per block; each thread
  // moves two elements, kBlockX columns apart.
  // Contract: transposeSmemUnrollPad in chapters/transpose/transpose.cuh.
  // Roughly 19 lines; `./workbook hint transposeSmemUnrollPad` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)out, (void)in, (void)nrows, (void)ncols;
}

}  // namespace wb::transpose
