// A hint to the host CPU to start loading a row a few lines before the sweep reaches it: one core
// streaming a new xy plane from memory keeps too few misses in flight for the hardware prefetchers
// alone (docs/PERFORMANCE.md, issue 13). Nothing on devices or compilers without the builtin.
#pragma once

namespace amp::kernels {

// How many x-lines ahead of the sweep the next plane's rows are asked for.
constexpr int kPrefetchLinesAhead = 4;

KOKKOS_INLINE_FUNCTION void prefetch_row(const double* row, int count) {
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  for (int i = 0; i < count; i += 8) __builtin_prefetch(row + i, 0, 3);  // one per 64-byte line
#else
  (void)row;
  (void)count;
#endif
}

}  // namespace amp::kernels
