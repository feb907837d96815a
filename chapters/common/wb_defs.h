/**
 * @file wb_defs.h
 * @brief Small definitions shared by every contract header of the workbook.
 *
 * The contract headers are read by nvcc (kernels, tests) and by a plain C++
 * compiler (host tests, the documentation generators), so functions that both
 * sides evaluate are marked with WB_HD instead of `__host__ __device__`.
 */
#pragma once

#if defined(__CUDACC__)
/// Marks a function that kernels and host code both call.
#define WB_HD __host__ __device__
#else
#define WB_HD
#endif
