// forgery: bytes of the student's choice in the unwind tables (.eh_frame, .gcc_except_table) through a section attribute on a const array: no asm, nothing executable, no constructor, so the assembly check and the executable-section check pass; the linker merges them into the test program's own tables, which decide where an exception is sent (a frame's personality routine, a landing pad). A usable entry needs the harness's addresses, which a student reads from their own build; the bytes below are placeholders. The object check refuses any symbol of the exercise's in those sections (the compiler writes them with none)
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
