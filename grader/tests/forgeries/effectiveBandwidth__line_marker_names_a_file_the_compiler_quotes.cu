// forgery: a #line directive names a file outside the exercise, and each error on that line makes the host compiler read and quote that line of the file into the compile error the student's summary.txt shows; the preprocessor's include list and the dependency file never name it (no #include), and in the sandbox every file of the system folders it shows, or any file when unconfined (the reference solution), can be read this way line by line
// exercise: reduction/effectiveBandwidth
// base: starter
// expect: refused /etc/ld.so.conf
// must-not-show: /etc/ld.so.conf
#include <stdexcept>

#include "reduction/reduction.cuh"

#line 1 "/etc/ld.so.conf"
int quoted_line_1 = not_declared_1;
#line 2 "/etc/ld.so.conf"
int quoted_line_2 = not_declared_2;
#line 3 "/etc/ld.so.conf"
int quoted_line_3 = not_declared_3;
