// Exercise naiveGmemUnroll (book section 5.4.4): naiveGmem with two elements
// per thread. The contract is in chapters/transpose/transpose.cuh;
// naiveGmem.cu beside this file is the worked example to start from. The
// launch gives each block 2 * blockDim.x input columns (grid.x is
// ceil(ncols / (2 * blockDim.x))), and the kernel must work for any block shape.
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void naiveGmemUnroll(float* out, const float* in, int nrows, int ncols) {
  // TODO(book 5.4.4): naiveGmem with two elements per thread, blockDim.x
  // columns apart, still without shared memory.
  // Contract: naiveGmemUnroll in chapters/transpose/transpose.cuh.
  // Roughly 7 lines; `./workbook hint naiveGmemUnroll` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)out, (void)in, (void)nrows, (void)ncols;
}

}  // namespace wb::transpose
