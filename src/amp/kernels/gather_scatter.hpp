// SPDX-License-Identifier: BSD-3-Clause
// Gather and scatter through flat element-index lists: values of one variable into a contiguous
// buffer, and a buffer back into a variable (the indirect-addressing baseline of bench/sage; the comm
// layer's pack and unpack copy strided pieces row by row instead: comm/impl/piece_copy.hpp).
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace amp::kernels {

using ElementIndex = std::int64_t;

template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
using IndexList = Kokkos::View<const ElementIndex*, typename ExecutionSpace::memory_space>;

// buffer[i - begin] = source[index[i]] for i in [begin, end).
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
void gather(const Kokkos::View<const double*, typename ExecutionSpace::memory_space>& source,
            const IndexList<ExecutionSpace>& index, std::int64_t begin, std::int64_t end,
            const Kokkos::View<double*, typename ExecutionSpace::memory_space>& buffer) {
  Kokkos::parallel_for(
      "amp::gather", Kokkos::RangePolicy<ExecutionSpace>(begin, end),
      KOKKOS_LAMBDA(std::int64_t i) { buffer(i - begin) = source(index(i)); });
}

// target[index[i]] = buffer[i - begin] for i in [begin, end).
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
void scatter(const Kokkos::View<const double*, typename ExecutionSpace::memory_space>& buffer,
             const IndexList<ExecutionSpace>& index, std::int64_t begin, std::int64_t end,
             const Kokkos::View<double*, typename ExecutionSpace::memory_space>& target) {
  Kokkos::parallel_for(
      "amp::scatter", Kokkos::RangePolicy<ExecutionSpace>(begin, end),
      KOKKOS_LAMBDA(std::int64_t i) { target(index(i)) = buffer(i - begin); });
}

}  // namespace amp::kernels
