// Exercise reduceSmemUnrollDyn (book section 5.3.3). reduceSmemUnroll with
// the shared array in dynamic shared memory.
// The contract is in chapters/reduction/reduction.cuh; reduceGmem.cu beside
// this file is the worked example to start from.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmemUnrollDyn(int* g_idata, int* g_odata, unsigned int n) {
  // TODO(book 5.3.3): reduceSmemUnroll with the shared array in dynamic
  // shared memory, sized by the launch.
  // Contract: reduceSmemUnrollDyn in chapters/reduction/reduction.cuh.
  // Roughly 26 lines; `./workbook hint reduceSmemUnrollDyn` gives it step by step.
  // Until then the kernel writes nothing and its tests fail.
  (void)g_idata;
  (void)g_odata;
  (void)n;
}

}  // namespace wb::reduction
