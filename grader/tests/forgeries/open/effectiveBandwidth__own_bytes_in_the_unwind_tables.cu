// forgery: a gap, not a whole forgery: wbcore/object_check.py does not look at the unwind data. A host exercise may put bytes of its choice into the sections .eh_frame and .gcc_except_table (a section attribute on a const array; no asm, so the assembly check passes; the sections are neither executable, nor constructors, nor writable), and the linker merges them into the test program's own unwind tables, which drive every exception unwound in that process: a forged FDE (call frame description) over a harness function's addresses, whose CIE names a personality routine, or whose LSDA names a landing pad, in the exercise's own code, makes that code run where the unwinder is sent, in the test process, or in the child before its filter is loaded (wb::prepare throws IsolatedSkip there when a GPU check finds no usable GPU), with every capability the sandbox leaves root (sandbox__root_keeps_every_capability.sh). Shown on the CPU: this file, compiled as the grader compiles a host exercise, passes object_check.py; the 8 + 4 bytes below are placeholders (a usable FDE needs the harness's addresses, which a student reads from their own build of the same repository; unmeasured, and no exception unwound by the harness in a normal run was found).
// exercise: reduction/effectiveBandwidth
// base: starter
// expect: refused .eh_frame
#include <stdexcept>

#include "reduction/reduction.cuh"

namespace wb::reduction {
namespace {

// Student-chosen unwind data (placeholders: a zero-length terminator and an empty call-site table).
__attribute__((section(".eh_frame"), used)) const unsigned char kFrames[8] = {4, 0, 0, 0, 0, 0, 0, 0};
__attribute__((section(".gcc_except_table"), used)) const unsigned char kLsda[4] = {0xff, 0xff, 0x01, 0};

}  // namespace

double effectiveBandwidthGBs(std::size_t bytesRead, std::size_t bytesWritten,
                             double milliseconds) {
  if (!(milliseconds > 0.0)) throw std::invalid_argument("the time must be positive");
  return (static_cast<double>(bytesRead) + static_cast<double>(bytesWritten)) / 1e9 /
         (milliseconds / 1e3);
}

}  // namespace wb::reduction
