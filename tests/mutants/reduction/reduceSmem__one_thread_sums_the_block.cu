// bug: thread 0 adds the block's elements one by one from global memory,
// with no shared memory: the right answer, without the technique
// expect: method
// Book 5.3.1 keeps the block's partial sums in shared memory and reads each
// input element from global memory once. A single thread looping over its
// block's 128 elements gives every partial sum right, and uses neither
// shared memory nor a barrier.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  if (threadIdx.x != 0) return;
  const unsigned int first = blockIdx.x * kReduceBlock;
  int sum = 0;
  for (unsigned int k = 0; k < kReduceBlock && first + k < n; ++k) sum += g_idata[first + k];
  g_odata[blockIdx.x] = sum;
}

}  // namespace wb::reduction
