// Exercise constantScattered (book section 5.5). The lanes of a warp read
// `distinct` different words of constant memory at once, and the constant
// cache serves them one after another. The contract is in
// chapters/constant/constant.cuh.
#include "constant/constant.cuh"

namespace wb::constant {

__global__ void constantScattered(int* out, unsigned int n, unsigned int start,
                                  unsigned int distinct) {
  // TODO(book 5.5): constantBroadcast, but lane l reads the word
  // l mod distinct further on (lookupWord(start, r, lane, distinct)).
  // Contract: constantScattered in chapters/constant/constant.cuh.
  // Roughly 7 lines; `./workbook hint constantScattered` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)out;
  (void)n;
  (void)start;
  (void)distinct;
}

}  // namespace wb::constant
