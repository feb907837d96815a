// forgery: ends the process with status 0 by a raw exit_group system call, importing nothing
// exercise: reduction/effectiveBandwidth
// base: starter
// expect: refused syscall
#include <stdexcept>

#include "reduction/reduction.cuh"

namespace wb::reduction {

double effectiveBandwidthGBs(std::size_t, std::size_t, double) {
  // exit_group(0) on x86-64 Linux.
  asm volatile("mov $231, %%eax\n\txor %%edi, %%edi\n\tsyscall" ::: "eax", "edi", "memory");
  return 0.0;
}

}  // namespace wb::reduction
