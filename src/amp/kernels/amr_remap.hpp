// SPDX-License-Identifier: BSD-3-Clause
// Builds the blocks of a new AMR mesh from the old one in one launch: kept blocks are copied, refined
// blocks take their parent's octant (each coarse cell to 2x2x2 cells), coarsened blocks average 8 children.
#pragma once

#include <amp/kernels/amr_block.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace amp::kernels {

enum class BlockRemap : int { Keep = 0, Refine = 1, Coarsen = 2 };

// Source cell (i,j,k) of source s is at source_base[s] + i + j*source_j[s] + k*source_k[s] (old blocks
// in place, or received copies of their interiors). Coarsen: source s = child (x + 2y + 4z).
struct RemapTask {
  int kind = 0;               // BlockRemap
  int octant[3] = {0, 0, 0};  // Refine: which eighth of the parent
  std::int64_t source_base[8] = {};
  std::int64_t source_j[8] = {};
  std::int64_t source_k[8] = {};
};

// Writes the interior of new block b (storage slot b of `next`) from `old` for every task b.
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
void remap_amr_blocks(const ConstAmrValuesIn<typename ExecutionSpace::memory_space>& old,
                      const AmrValuesIn<typename ExecutionSpace::memory_space>& next,
                      const Kokkos::View<const RemapTask*, typename ExecutionSpace::memory_space>& tasks,
                      AmrBlockShape shape) {
  const int n = shape.n, half = shape.n / 2;
  const std::int64_t cells = shape.cells(), size = shape.storage(), sy = shape.stride(1), sz = shape.stride(2);
  Kokkos::parallel_for(
      "amp::remap_amr_blocks",
      Kokkos::RangePolicy<ExecutionSpace, std::int64_t>(0, static_cast<std::int64_t>(tasks.extent(0)) * cells),
      KOKKOS_LAMBDA(const std::int64_t c) {
        const std::int64_t b = c / cells, r = c % cells;
        const int i = static_cast<int>(r % n), j = static_cast<int>((r / n) % n),
                  k = static_cast<int>(r / (std::int64_t{n} * n));
        const RemapTask& t = tasks(b);
        double value;
        if (t.kind == static_cast<int>(BlockRemap::Keep)) {
          value = old(t.source_base[0] + i + j * t.source_j[0] + k * t.source_k[0]);
        } else if (t.kind == static_cast<int>(BlockRemap::Refine)) {
          const int pi = t.octant[0] * half + i / 2, pj = t.octant[1] * half + j / 2, pk = t.octant[2] * half + k / 2;
          value = old(t.source_base[0] + pi + pj * t.source_j[0] + pk * t.source_k[0]);
        } else {
          const int s = (2 * i) / n + 2 * ((2 * j) / n) + 4 * ((2 * k) / n);
          const int ci = (2 * i) % n, cj = (2 * j) % n, ck = (2 * k) % n;
          const std::int64_t at = t.source_base[s] + ci + cj * t.source_j[s] + ck * t.source_k[s];
          const std::int64_t dj = t.source_j[s], dk = t.source_k[s];
          value = 0.125 * ((((old(at) + old(at + 1)) + (old(at + dj) + old(at + dj + 1))) +
                            ((old(at + dk) + old(at + dk + 1)) + (old(at + dk + dj) + old(at + dk + dj + 1)))));
        }
        next(b * size + (i + 1) + (j + 1) * sy + (k + 1) * sz) = value;
      });
  Kokkos::fence();
}

}  // namespace amp::kernels
