// forgery: includes the reference answer from solutions/ by a directive split by a backslash, a space and a newline, which GCC joins (with a warning) but the old line-reading check did not see: before the preprocessor decided includes, it compiled the reference and its host tests earned full points
// exercise: reduction/effectiveBandwidth
// base: starter
// expect: refused solutions/reduction/effectiveBandwidth.cu
// The path is found from chapters/ on the include path, wherever the grader builds.
#inc\ 
lude "reduction/../../solutions/reduction/effectiveBandwidth.cu"
