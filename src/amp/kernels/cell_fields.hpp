// SPDX-License-Identifier: BSD-3-Clause
// Whole-array operations on one variable of a cell list (owned cells first): reproducible random
// initial values, the owned sum, and the order-independent digest, all keyed by global cell id.
#pragma once

#include <amp/kernels/hash.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace amp::kernels {

template <class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
using CellIds = Kokkos::View<const std::int64_t*, MemorySpace>;

// Owned values uniform in [0,1), a function of (seed, variable, global cell id) only; ghosts zero.
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
void fill_random_cells(const Kokkos::View<double*, typename ExecutionSpace::memory_space>& q,
                       const CellIds<typename ExecutionSpace::memory_space>& global_id, std::int64_t owned,
                       std::uint64_t seed, int variable) {
  Kokkos::deep_copy(q, 0.0);
  const std::uint64_t stream = random_stream(seed, variable);
  Kokkos::parallel_for(
      "amp::fill_random_cells", Kokkos::RangePolicy<ExecutionSpace>(0, owned),
      KOKKOS_LAMBDA(std::int64_t c) { q(c) = unit_double(stream + static_cast<std::uint64_t>(global_id(c))); });
}

template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
double owned_sum(const Kokkos::View<const double*, typename ExecutionSpace::memory_space>& q, std::int64_t owned) {
  double sum = 0.0;
  Kokkos::parallel_reduce(
      "amp::owned_sum", Kokkos::RangePolicy<ExecutionSpace>(0, owned),
      KOKKOS_LAMBDA(std::int64_t c, double& s) { s += q(c); }, sum);
  return sum;
}

// Sum over owned cells (mod 2^64) of value_digest: equal for the same global field however it is
// partitioned, and sensitive to any bit of any value.
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
std::uint64_t owned_digest(const Kokkos::View<const double*, typename ExecutionSpace::memory_space>& q,
                           const CellIds<typename ExecutionSpace::memory_space>& global_id, std::int64_t owned,
                           int variable) {
  std::uint64_t digest = 0;
  const std::uint64_t salt = digest_salt(variable);
  Kokkos::parallel_reduce(
      "amp::owned_digest", Kokkos::RangePolicy<ExecutionSpace>(0, owned),
      KOKKOS_LAMBDA(std::int64_t c, std::uint64_t & d) {
        d += value_digest(salt, static_cast<std::uint64_t>(global_id(c)), q(c));
      },
      digest);
  return digest;
}

}  // namespace amp::kernels
