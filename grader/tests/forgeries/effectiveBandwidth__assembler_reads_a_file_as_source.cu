// forgery: a top-level asm statement's .include makes the assembler read a file outside the exercise as assembly source, and its "no such instruction" errors quote the file's lines into the compile error the student's summary.txt shows; the preprocessor's include list and the dependency file never name it
// exercise: reduction/effectiveBandwidth
// base: starter
// expect: refused .include
// must-not-show: /etc/ld.so.conf
#include <stdexcept>

#include "reduction/reduction.cuh"

asm(".include \"/etc/ld.so.conf\"");
