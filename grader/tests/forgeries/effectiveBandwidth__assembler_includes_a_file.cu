// forgery: a top-level asm statement's .incbin makes the assembler copy a file outside the exercise into the object's read-only data (the preprocessor's include list and the dependency file never name it, and the object check sees only a local data symbol); the function throws it as std::invalid_argument's message, which every host test's failure message quotes into summary.txt: in the sandbox any file of the system folders it shows, or any file when unconfined
// exercise: reduction/effectiveBandwidth
// base: starter
// expect: refused .incbin
// must-not-show: /etc/ld.so.conf
#include <stdexcept>

#include "reduction/reduction.cuh"

asm(".section .rodata\n"
    "copied_file_:\n"
    ".incbin \"/etc/ld.so.conf\"\n"
    ".byte 0\n"
    ".text\n");
extern "C" const char copied_file_[];

namespace wb::reduction {

double effectiveBandwidthGBs(std::size_t bytesRead, std::size_t bytesWritten,
                             double milliseconds) {
  (void)bytesRead;
  (void)bytesWritten;
  (void)milliseconds;
  throw std::invalid_argument(copied_file_);
}

}  // namespace wb::reduction
