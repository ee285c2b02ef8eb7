// SPDX-License-Identifier: BSD-3-Clause
// Whole-block operations on one variable used by the proxies' set-up and verification: reproducible
// random initial values, a point source, the interior sum, and an order-independent digest.
#pragma once

#include <amp/kernels/grid.hpp>
#include <amp/kernels/hash.hpp>

namespace amp::kernels {

// Where a block sits in the global grid: global index of interior cell (1,1,1), global sizes.
struct GlobalPlacement {
  std::int64_t offset[3] = {0, 0, 0};
  std::int64_t size[3] = {1, 1, 1};
  KOKKOS_INLINE_FUNCTION std::int64_t global_index(int i, int j, int k) const {
    return (offset[0] + i - 1) + size[0] * ((offset[1] + j - 1) + size[1] * (offset[2] + k - 1));
  }
};

template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
using InteriorPolicy =
    Kokkos::MDRangePolicy<ExecutionSpace, Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>>;

// Interior values uniform in [0,1), a function of (seed, variable, global cell) only; ghosts zero.
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
void fill_random(const Grid<typename ExecutionSpace::memory_space>& grid, const BlockExtent& e,
                 const GlobalPlacement& place, std::uint64_t seed, int variable) {
  Kokkos::deep_copy(grid, 0.0);
  const std::uint64_t stream = random_stream(seed, variable);
  Kokkos::parallel_for(
      "amp::fill_random", InteriorPolicy<ExecutionSpace>({1, 1, 1}, {e.nx + 1, e.ny + 1, e.nz + 1}),
      KOKKOS_LAMBDA(int i, int j, int k) {
        grid(i, j, k) = unit_double(stream + static_cast<std::uint64_t>(place.global_index(i, j, k)));
      });
}

// grid(i,j,k) += amount at one interior cell.
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
void add_point_source(const Grid<typename ExecutionSpace::memory_space>& grid, int i, int j, int k, double amount) {
  Kokkos::parallel_for(
      "amp::add_point_source", Kokkos::RangePolicy<ExecutionSpace>(0, 1),
      KOKKOS_LAMBDA(int) { grid(i, j, k) += amount; });
}

template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
double interior_sum(const Grid<typename ExecutionSpace::memory_space>& grid, const BlockExtent& e) {
  double sum = 0.0;
  Kokkos::parallel_reduce(
      "amp::interior_sum", InteriorPolicy<ExecutionSpace>({1, 1, 1}, {e.nx + 1, e.ny + 1, e.nz + 1}),
      KOKKOS_LAMBDA(int i, int j, int k, double& s) { s += grid(i, j, k); }, sum);
  return sum;
}

// Sum over interior cells (mod 2^64) of a hash of (variable, global index, value bits): equal for the
// same global field however it is decomposed, and sensitive to any bit of any value.
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
std::uint64_t interior_digest(const Grid<typename ExecutionSpace::memory_space>& grid, const BlockExtent& e,
                              const GlobalPlacement& place, int variable) {
  std::uint64_t digest = 0;
  const std::uint64_t salt = digest_salt(variable);
  Kokkos::parallel_reduce(
      "amp::interior_digest", InteriorPolicy<ExecutionSpace>({1, 1, 1}, {e.nx + 1, e.ny + 1, e.nz + 1}),
      KOKKOS_LAMBDA(int i, int j, int k, std::uint64_t& d) {
        d += value_digest(salt, static_cast<std::uint64_t>(place.global_index(i, j, k)), grid(i, j, k));
      },
      digest);
  return digest;
}

}  // namespace amp::kernels
