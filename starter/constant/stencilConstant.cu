// Exercise stencilConstant (book section 5.5.1). stencilGmemCoef with the
// coefficients in constant memory, where a warp reading one coefficient is
// served by a single broadcast. The contract is in
// chapters/constant/constant.cuh; stencilGmemCoef.cu beside this file is the
// worked example to start from.
#include "constant/constant.cuh"

namespace wb::constant {

__global__ void stencilConstant(const float* in, float* out, unsigned int n, const float* coef) {
  // TODO(book 5.5.1): the stencil of stencilGmemCoef, reading a1..a4 from
  // the `__constant__` array wbStencilCoef instead of from coef.
  // Contract: stencilConstant in chapters/constant/constant.cuh.
  // Roughly 18 lines; `./workbook hint stencilConstant` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)in;
  (void)out;
  (void)n;
  (void)coef;
}

}  // namespace wb::constant
