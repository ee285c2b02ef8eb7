// SPDX-License-Identifier: BSD-3-Clause
// What one stencil sweep reduces, both in one pass: the sum of the new interior values and the outflow
// through the global boundary. Adds as Kokkos's default join does, in Kokkos 3.4 (volatile) and 4.x.
#pragma once

#include <Kokkos_Core.hpp>

namespace amp::kernels {

struct SweepSums {
  double interior = 0.0;  // sum of the new interior values
  double outflow = 0.0;   // what this application pushed through the global boundary (as stencil_outflow)

  KOKKOS_INLINE_FUNCTION SweepSums& operator+=(const SweepSums& other) {
    interior += other.interior;
    outflow += other.outflow;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION void operator+=(const volatile SweepSums& other) volatile {
    interior += other.interior;
    outflow += other.outflow;
  }
};

}  // namespace amp::kernels
