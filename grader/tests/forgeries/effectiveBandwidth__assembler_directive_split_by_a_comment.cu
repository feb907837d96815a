// forgery: a section name carries assembler text past the compile launcher's assembly check: `.inc/**/bin "FILE"` does not read as `.incbin` to the check's pattern, but the assembler's own preprocessor drops the C comment and joins the two halves into .incbin, which copies a file outside the exercise into the object's read-only data behind a local label (no asm statement, so no #APP; the object check sees only a local data symbol); the function throws it as std::invalid_argument's message, which every host test's failure quotes into summary.txt and results.json: in the sandbox any file of the system folders it shows, and any file at all when unconfined
// exercise: reduction/effectiveBandwidth
// base: starter
// expect: refused holds assembly
// must-not-show: /etc/ld.so.conf
#include <stdexcept>

#include "reduction/reduction.cuh"

// GCC writes a section name into its assembly as it is, newlines too: the
// lines after the first are the assembler's. The trailing # comments out the
// flags GCC appends.
__attribute__((used, section(".rodata.wb\n"
                             "\t.section .rodata.wb\n"
                             "copied_file_:\n"
                             "\t.inc/**/bin \"/etc/ld.so.conf\"\n"
                             "\t.byte 0\n"
                             "#"))) static const char placeholder_ = 1;
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
