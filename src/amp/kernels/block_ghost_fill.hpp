// SPDX-License-Identifier: BSD-3-Clause
// Fills the ghost faces of many AMR blocks in one kernel launch: same-level copies, prolongation from a
// coarser face (each coarse cell to 2x2 ghosts) and restriction of a finer face (2x2 average).
#pragma once

#include <amp/kernels/amr_block.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace amp::kernels {

enum class FaceFill : int { Copy = 0, Prolong = 1, Restrict = 2 };

// One ghost-face fill: destination cells dst_base + a*dst_a + b*dst_b for a, b in [0, extent);
// source cells addressed the same way from src_base (a neighbour's face cells or a received copy).
struct GhostFillTask {
  int kind = 0;  // FaceFill
  int extent = 0;
  std::int64_t src_base = 0, src_a = 1, src_b = 1;
  std::int64_t dst_base = 0, dst_a = 1, dst_b = 1;
};

// Copy: ghost(a,b) = src(a,b). Prolong: ghost(a,b) = src(a/2, b/2). Restrict: ghost(a,b) = average of
// src(2a+i, 2b+j), summed in a fixed order so every rank count gives the same bits.
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
void fill_ghost_faces(const AmrValuesIn<typename ExecutionSpace::memory_space>& storage,
                      const Kokkos::View<const GhostFillTask*, typename ExecutionSpace::memory_space>& tasks,
                      int block) {
  const std::int64_t per_task = std::int64_t{block} * block;
  const std::int64_t total = static_cast<std::int64_t>(tasks.extent(0)) * per_task;
  Kokkos::parallel_for(
      "amp::fill_ghost_faces", Kokkos::RangePolicy<ExecutionSpace, std::int64_t>(0, total),
      KOKKOS_LAMBDA(const std::int64_t n) {
        const GhostFillTask& t = tasks(n / per_task);
        const std::int64_t r = n % per_task;
        const std::int64_t a = r % block, b = r / block;
        if (a >= t.extent || b >= t.extent) return;
        double value;
        if (t.kind == static_cast<int>(FaceFill::Copy)) {
          value = storage(t.src_base + a * t.src_a + b * t.src_b);
        } else if (t.kind == static_cast<int>(FaceFill::Prolong)) {
          value = storage(t.src_base + (a / 2) * t.src_a + (b / 2) * t.src_b);
        } else {
          const std::int64_t s = t.src_base + 2 * a * t.src_a + 2 * b * t.src_b;
          value =
              0.25 * (((storage(s) + storage(s + t.src_a)) + storage(s + t.src_b)) + storage(s + t.src_a + t.src_b));
        }
        storage(t.dst_base + a * t.dst_a + b * t.dst_b) = value;
      });
  Kokkos::fence();
}

}  // namespace amp::kernels
