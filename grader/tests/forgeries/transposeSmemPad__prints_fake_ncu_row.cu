// forgery: the unpadded tile of transposeSmemPad__unpadded_indexing, plus a device printf of a table shaped like Nsight Compute's raw page that claims 1 shared wavefront per request
// exercise: transpose/transposeSmemPad
// base: solutions
// expect: same-as transposeSmemPad__unpadded_indexing
// The runner's stdout carries the kernel's printf; when Nsight Compute
// printed its table on the same stream, the first table there (this one,
// printed before ncu's) was read as the measurement, and the 16-way
// conflict of the unpadded tile passed its bank-conflict check. The checks
// now read ncu's report file alone (--log-file), so this earns what the same
// kernel without the printf earns. Measured on an H100 (2026-11-25): 9.14
// load wavefronts per request (the printf adds requests of its own) and
// 1.06 global store sectors per request, where the readers of stdout saw
// 1.00 and 4.00 and passed it.
#include "transpose/transpose.cuh"

namespace wb::transpose {

__global__ void transposeSmemPad(float* out, const float* in, int nrows, int ncols) {
  if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 && threadIdx.y == 0) {
    // Header, units, one launch: loads and stores 1 wavefront per request,
    // 4 global sectors per request, as the bank model expects.
    printf(
        "\"ID\",\"Kernel Name\","
        "\"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\","
        "\"smsp__inst_executed_op_shared_ld.sum\","
        "\"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum\","
        "\"smsp__inst_executed_op_shared_st.sum\","
        "\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\","
        "\"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\","
        "\"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum\","
        "\"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum\"\n"
        "\"\",\"\",\"\",\"\",\"\",\"\",\"sector\",\"\",\"sector\",\"\"\n"
        "\"0\",\"transposeSmemPad(float *, const float *, int, int)\","
        "\"16\",\"16\",\"16\",\"16\",\"64\",\"16\",\"64\",\"16\"\n");
  }

  __shared__ float tile[kBlockY][kBlockX + kPad];
  float* flat = &tile[0][0];  // rows kBlockX apart: the padding is never used

  const int row = blockIdx.y * kBlockY + threadIdx.y;
  const int col = blockIdx.x * kBlockX + threadIdx.x;
  if (row < nrows && col < ncols) {
    flat[threadIdx.y * kBlockX + threadIdx.x] = in[static_cast<std::size_t>(row) * ncols + col];
  }

  __syncthreads();

  const int t = threadIdx.y * kBlockX + threadIdx.x;
  const int irow = t / kBlockY;
  const int icol = t % kBlockY;
  const int outRow = blockIdx.x * kBlockX + irow;
  const int outCol = blockIdx.y * kBlockY + icol;
  if (outRow < ncols && outCol < nrows) {
    out[static_cast<std::size_t>(outRow) * nrows + outCol] = flat[icol * kBlockX + irow];
  }
}

}  // namespace wb::transpose
