// forgery: includes the reference answer from solutions/ by a path relative to chapters/ on the include path, the directive after a comment on its line, which the old line-reading check (a line starting with #) did not see: before the preprocessor decided includes, the reference compiled as the student's kernel
// exercise: reduction/reduceSmemUnroll
// base: starter
// expect: refused solutions/reduction/reduceSmemUnroll.cu
/* the answer */ #include "reduction/../../solutions/reduction/reduceSmemUnroll.cu"
