// SPDX-License-Identifier: BSD-3-Clause
// Where the comm layer's data lives: the memory space of Kokkos's default execution space (CUDA, HIP
// or SYCL device memory on a device build, host memory on an OpenMP or Serial one), one per build. A
// variable's values reach a strategy as a View of that space (VariableView), never as a bare pointer,
// so a host array given to a device build, or a device array to code that reads it on the host, is a
// compile error, not a race.
#pragma once

#include <Kokkos_Core.hpp>

#include <stdexcept>
#include <type_traits>

namespace amp::comm {

#ifdef AMP_COMM_EXECUTION_SPACE
// Only the test suite's per-back-end builds of the comm layer (tests/comm/CMakeLists.txt) set this: a
// program must see the same space as the amp_comm it links.
using ExecutionSpace = AMP_COMM_EXECUTION_SPACE;
#else
using ExecutionSpace = Kokkos::DefaultExecutionSpace;
#endif
using MemorySpace = ExecutionSpace::memory_space;

// One variable's storage (or one slot of an exchange area): contiguous doubles in MemorySpace, not
// owned. Whoever hands it to a strategy keeps it alive until that variable's ghosts are in.
using VariableView = Kokkos::View<double*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// Any contiguous View of doubles in MemorySpace (a proxy's 3-D grid, a 1-D field), seen as one
// variable's storage. Another memory space does not compile; a strided View throws.
template <class View>
VariableView variable_view(const View& values) {
  static_assert(std::is_same<typename View::memory_space, MemorySpace>::value,
                "a variable's storage must be in amp::comm::MemorySpace (the default execution space's)");
  static_assert(std::is_same<typename View::value_type, double>::value,
                "a variable's storage holds doubles, writable (its ghosts are received into it)");
  if (!values.span_is_contiguous()) throw std::invalid_argument("a variable's storage must be one contiguous span");
  return VariableView(values.data(), values.span());
}

}  // namespace amp::comm
