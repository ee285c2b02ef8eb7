// SPDX-License-Identifier: BSD-3-Clause
// Per-cell quantities of AMR blocks that must not depend on the rank count: reproducible initial values
// from a hash of (variable, level, global cell), the conserved total (value x cell volume) and the digest.
#pragma once

#include <amp/kernels/amr_block.hpp>
#include <amp/kernels/eulerian_update.hpp>
#include <amp/kernels/hash.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>

namespace amp::kernels {

// Identity of a global cell: variable, level and cell coordinates at that level.
KOKKOS_INLINE_FUNCTION std::uint64_t amr_cell_hash(std::uint64_t seed, int v, const AmrBlock& block, int n, int i,
                                                   int j, int k) {
  std::uint64_t h = mix64(seed * 0x100000001B3ull + static_cast<std::uint64_t>(v) + 1);
  h = mix64(h ^ static_cast<std::uint64_t>(block.level));
  h = mix64(h ^ static_cast<std::uint64_t>(block.position[0] * n + i));
  h = mix64(h ^ static_cast<std::uint64_t>(block.position[1] * n + j));
  return mix64(h ^ static_cast<std::uint64_t>(block.position[2] * n + k));
}

namespace detail {
template <class ExecutionSpace, class F>
void for_each_amr_cell(const char* label, std::int64_t blocks, AmrBlockShape shape, F&& f) {
  Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecutionSpace, std::int64_t>(0, blocks * shape.cells()), f);
}
}  // namespace detail

// Values in [1, 2) on every interior cell of every block.
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
void fill_amr_initial_values(const AmrValuesIn<typename ExecutionSpace::memory_space>& storage,
                             const Kokkos::View<const AmrBlock*, typename ExecutionSpace::memory_space>& blocks,
                             AmrBlockShape shape, std::uint64_t seed, int v) {
  const int n = shape.n;
  const std::int64_t cells = shape.cells(), size = shape.storage(), sy = shape.stride(1), sz = shape.stride(2);
  detail::for_each_amr_cell<ExecutionSpace>(
      "amp::fill_amr_initial_values", blocks.extent(0), shape, KOKKOS_LAMBDA(const std::int64_t c) {
        const std::int64_t b = c / cells, r = c % cells;
        const int i = static_cast<int>(r % n), j = static_cast<int>((r / n) % n),
                  k = static_cast<int>(r / (std::int64_t{n} * n));
        storage(b * size + (i + 1) + (j + 1) * sy + (k + 1) * sz) =
            1.0 + unit_double(amr_cell_hash(seed, v, blocks(b), n, i, j, k));
      });
  Kokkos::fence();
}

// Sum of value x cell volume (level-0 cells have volume 1).
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
double amr_total(const ConstAmrValuesIn<typename ExecutionSpace::memory_space>& storage,
                 const Kokkos::View<const AmrBlock*, typename ExecutionSpace::memory_space>& blocks,
                 AmrBlockShape shape) {
  const int n = shape.n;
  const std::int64_t cells = shape.cells(), size = shape.storage(), sy = shape.stride(1), sz = shape.stride(2);
  double total = 0.0;
  Kokkos::parallel_reduce(
      "amp::amr_total",
      Kokkos::RangePolicy<ExecutionSpace, std::int64_t>(0, static_cast<std::int64_t>(blocks.extent(0)) * cells),
      KOKKOS_LAMBDA(const std::int64_t c, double& sum) {
        const std::int64_t b = c / cells, r = c % cells;
        const int i = static_cast<int>(r % n), j = static_cast<int>((r / n) % n),
                  k = static_cast<int>(r / (std::int64_t{n} * n));
        const double h = level_width(blocks(b).level);
        sum += storage(b * size + (i + 1) + (j + 1) * sy + (k + 1) * sz) * (h * h * h);
      },
      total);
  return total;
}

// Order-independent digest: sum mod 2^64 of mix64(cell hash ^ value bits).
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
std::uint64_t amr_digest(const ConstAmrValuesIn<typename ExecutionSpace::memory_space>& storage,
                         const Kokkos::View<const AmrBlock*, typename ExecutionSpace::memory_space>& blocks,
                         AmrBlockShape shape, int v) {
  const int n = shape.n;
  const std::int64_t cells = shape.cells(), size = shape.storage(), sy = shape.stride(1), sz = shape.stride(2);
  std::uint64_t digest = 0;
  Kokkos::parallel_reduce(
      "amp::amr_digest",
      Kokkos::RangePolicy<ExecutionSpace, std::int64_t>(0, static_cast<std::int64_t>(blocks.extent(0)) * cells),
      KOKKOS_LAMBDA(const std::int64_t c, std::uint64_t& sum) {
        const std::int64_t b = c / cells, r = c % cells;
        const int i = static_cast<int>(r % n), j = static_cast<int>((r / n) % n),
                  k = static_cast<int>(r / (std::int64_t{n} * n));
        const double value = storage(b * size + (i + 1) + (j + 1) * sy + (k + 1) * sz);
        std::uint64_t bits;
        memcpy(&bits, &value, sizeof bits);
        sum += mix64(amr_cell_hash(0, v, blocks(b), n, i, j, k) ^ bits);
      },
      digest);
  return digest;
}

}  // namespace amp::kernels
