// forgery: macros that expand to 2^40 tokens, to hold the grading machine's compiler (and memory) for an hour
// exercise: reduction/reduceSmem
// base: starter
// expect: limit
#include "reduction/reduction.cuh"

#define T0 x = x + 1;
#define T1 T0 T0
#define T2 T1 T1
#define T3 T2 T2
#define T4 T3 T3
#define T5 T4 T4
#define T6 T5 T5
#define T7 T6 T6
#define T8 T7 T7
#define T9 T8 T8
#define T10 T9 T9
#define T11 T10 T10
#define T12 T11 T11
#define T13 T12 T12
#define T14 T13 T13
#define T15 T14 T14
#define T16 T15 T15
#define T17 T16 T16
#define T18 T17 T17
#define T19 T18 T18
#define T20 T19 T19
#define T21 T20 T20
#define T22 T21 T21
#define T23 T22 T22
#define T24 T23 T23
#define T25 T24 T24
#define T26 T25 T25
#define T27 T26 T26
#define T28 T27 T27
#define T29 T28 T28
#define T30 T29 T29
#define T31 T30 T30
#define T32 T31 T31
#define T33 T32 T32
#define T34 T33 T33
#define T35 T34 T34
#define T36 T35 T35
#define T37 T36 T36
#define T38 T37 T37
#define T39 T38 T38
#define T40 T39 T39

namespace wb::reduction {

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  int x = 0;
  T40
  if (n == 0) g_odata[0] = x + g_idata[0];
}

}  // namespace wb::reduction
