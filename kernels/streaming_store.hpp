// Writing a finished run of doubles to memory with non-temporal (streaming) stores where the host CPU
// has them (AVX): whole cache lines then go to memory without being read first (no write-allocate),
// which saves a third of a Jacobi sweep's memory traffic. The ends of the run that do not fill a
// whole 64-byte line are stored normally. Elsewhere (other CPUs, GPUs) it is a plain copy.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#if defined(__AVX__) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__) && !defined(__SYCL_DEVICE_ONLY__)
#include <immintrin.h>
#define AMP_STREAMING_STORES 1
#endif

namespace amp::kernels {

// dst[0, n) = src[0, n); src is in cache (a line just computed), dst is the output grid.
KOKKOS_INLINE_FUNCTION void store_streaming(double* dst, const double* src, int n) {
#if defined(AMP_STREAMING_STORES)
  int i = 0;
  // Plain stores up to the first whole cache line, streaming stores over whole lines, plain after.
  const int head = static_cast<int>(((64 - (reinterpret_cast<std::uintptr_t>(dst) & 63)) & 63) / sizeof(double));
  if (reinterpret_cast<std::uintptr_t>(dst) % sizeof(double) != 0 || n < head + 8) {
    for (; i < n; ++i) dst[i] = src[i];
    return;
  }
  for (; i < head; ++i) dst[i] = src[i];
  for (; i + 8 <= n; i += 8) {
    _mm256_stream_pd(dst + i, _mm256_loadu_pd(src + i));
    _mm256_stream_pd(dst + i + 4, _mm256_loadu_pd(src + i + 4));
  }
  for (; i < n; ++i) dst[i] = src[i];
#else
  for (int i = 0; i < n; ++i) dst[i] = src[i];
#endif
}

// Orders this thread's streaming stores before what follows (call once a thread's share is written).
KOKKOS_INLINE_FUNCTION void streaming_stores_done() {
#if defined(AMP_STREAMING_STORES)
  _mm_sfence();
#endif
}

}  // namespace amp::kernels
