// forgery: includes the reference answer from solutions/ by a directive whose # and include a block comment spanning two lines keeps apart, which the old line-reading check did not see: before the preprocessor decided includes, the reference compiled as the student's kernel
// exercise: reduction/reduceSmem
// base: starter
// expect: refused solutions/reduction/reduceSmem.cu
# /* the answer
   */ include "reduction/../../solutions/reduction/reduceSmem.cu"
