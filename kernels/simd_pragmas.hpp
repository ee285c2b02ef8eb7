// SPDX-License-Identifier: BSD-3-Clause
// Loop pragmas that let an x-line loop vectorise, with a running sum split over lanes, where OpenMP
// simd is available (and nothing elsewhere).
#pragma once

#if defined(_OPENMP)
#define AMP_PRAGMA(text) _Pragma(#text)
#define AMP_SIMD_SUM(var) AMP_PRAGMA(omp simd reduction(+ : var))
#define AMP_SIMD AMP_PRAGMA(omp simd)
#else
#define AMP_SIMD_SUM(var)
#define AMP_SIMD
#endif
