// forgery: a host exercise that includes the compiler's own standard output, the pipe the build reads, after a comment on the line (the old line-reading check looked for a line starting with #): the compile waits on the pipe forever, and host exercises compiled without any limit, so each such submission held the build until its timeout (3600 s)
// exercise: reduction/effectiveBandwidth
// base: starter
// expect: refused /proc/self/fd/1
/* wait */ #include "/proc/self/fd/1"
