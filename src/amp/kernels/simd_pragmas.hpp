// SPDX-License-Identifier: BSD-3-Clause
// Loop pragmas that let an x-line loop vectorise, with a running sum split over lanes, where OpenMP
// simd is available (and nothing elsewhere). Four doubles a vector: on AVX-512 CPUs GCC otherwise takes
// eight, and on this machine's Zen 4 the sweeps of 16^3-24^3 blocks then ran 9-15% slower (a 16-cell
// line is two 8-wide iterations, its head, tail and the sum's reduction weigh as much); from memory
// the width made no measurable difference (docs/PERFORMANCE.md).
#pragma once

#if defined(_OPENMP)
#define AMP_PRAGMA(text) _Pragma(#text)
#define AMP_SIMD_SUM(var) AMP_PRAGMA(omp simd simdlen(4) reduction(+ : var))
#define AMP_SIMD AMP_PRAGMA(omp simd simdlen(4))
#else
#define AMP_SIMD_SUM(var)
#define AMP_SIMD
#endif
