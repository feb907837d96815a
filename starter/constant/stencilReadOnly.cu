// Exercise stencilReadOnly (book section 5.5.2). stencilGmemCoef with the
// coefficients read through the read-only cache, the alternative to
// constant memory that the book compares it with. The contract is in
// chapters/constant/constant.cuh.
#include "constant/constant.cuh"

namespace wb::constant {

__global__ void stencilReadOnly(const float* __restrict__ in, float* __restrict__ out,
                                unsigned int n, const float* __restrict__ coef) {
  // TODO(book 5.5.2): the stencil of stencilGmemCoef, each coefficient
  // loaded from coef on the read-only path (the const __restrict__
  // pointer alone gives it; __ldg says so in the code).
  // Contract: stencilReadOnly in chapters/constant/constant.cuh.
  // Roughly 17 lines; `./workbook hint stencilReadOnly` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)in;
  (void)out;
  (void)n;
  (void)coef;
}

}  // namespace wb::constant
