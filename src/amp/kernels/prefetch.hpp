// SPDX-License-Identifier: BSD-3-Clause
// A hint to the host CPU to start loading a row a few lines before the sweep reaches it: one core
// streaming a new xy plane from memory keeps too few misses in flight for the hardware prefetchers
// alone (docs/PERFORMANCE.md). Nothing on devices or compilers without the builtin.
#pragma once

#include <amp/kernels/grid.hpp>

namespace amp::kernels {

// How many x-lines ahead of the sweep the next plane's rows are asked for.
constexpr int kPrefetchLinesAhead = 4;

// Blocks of fewer elements (256 KiB: up to about 30^3 cells) are swept without prefetching: their rows
// come from the caches, and on lines of 16-30 cells the hints cost 3-10% (docs/PERFORMANCE.md).
constexpr std::int64_t kPrefetchFromElements = 32768;
inline bool worth_prefetching(const BlockExtent& e) { return e.storage() >= kPrefetchFromElements; }

KOKKOS_INLINE_FUNCTION void prefetch_row(const double* row, int count) {
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  for (int i = 0; i < count; i += 8) __builtin_prefetch(row + i, 0, 3);  // one per 64-byte line
#else
  (void)row;
  (void)count;
#endif
}

}  // namespace amp::kernels
