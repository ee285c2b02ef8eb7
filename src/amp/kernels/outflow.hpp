// SPDX-License-Identifier: BSD-3-Clause
// Outflow accounting for verification: the part of each boundary cell's value that a Jacobi stencil
// pushes into the zero ghosts of the global domain edge, so sum(interior) + outflow is conserved.
#pragma once

#include <amp/kernels/grid.hpp>
#include <amp/kernels/stencil_kind.hpp>

namespace amp::kernels {

namespace detail {

// Number of stencil points of cell (i,j,k) that fall outside the global domain.
template <Stencil S>
KOKKOS_INLINE_FUNCTION int points_outside(int i, int j, int k, const BlockExtent& e, const GlobalSides& g) {
  const int out_x = (i == 1 && g.low[0]) + (i == e.nx && g.high[0]);
  const int out_y = (j == 1 && g.low[1]) + (j == e.ny && g.high[1]);
  const int out_z = (k == 1 && g.low[2]) + (k == e.nz && g.high[2]);
  if constexpr (S == Stencil::TwoD5Pt) return out_x + out_y;
  if constexpr (S == Stencil::ThreeD7Pt) return out_x + out_y + out_z;
  if constexpr (S == Stencil::TwoD9Pt) return 9 - (3 - out_x) * (3 - out_y);
  return 27 - (3 - out_x) * (3 - out_y) * (3 - out_z);
}

// The outflow of x-line (j, k): a line on a global y or z side loses heat all along; any other line
// only at its ends, and only where the x side is global. No integer division.
template <Stencil S, class InView>
KOKKOS_INLINE_FUNCTION double outflow_of_line(const InView& in, int j, int k, const BlockExtent& e,
                                              const GlobalSides& sides) {
  constexpr double weight = 1.0 / stencil_points(S);
  auto cell = [&](int i) { return in(i, j, k) * (points_outside<S>(i, j, k, e, sides) * weight); };
  const bool whole_line = (j == 1 && sides.low[1]) || (j == e.ny && sides.high[1]) ||
                          (stencil_is_3d(S) && ((k == 1 && sides.low[2]) || (k == e.nz && sides.high[2])));
  double sum = 0.0;
  if (whole_line) {
    for (int i = 1; i <= e.nx; ++i) sum += cell(i);
    return sum;
  }
  if (sides.low[0]) sum += cell(1);
  if (sides.high[0] && (e.nx > 1 || !sides.low[0])) sum += cell(e.nx);
  return sum;
}

template <Stencil S, class MemorySpace>
struct OutflowSum {
  Kokkos::View<const double***, Kokkos::LayoutLeft, MemorySpace> in;
  BlockExtent extent;
  GlobalSides sides;
  KOKKOS_INLINE_FUNCTION void operator()(int j, int k, double& sum) const {
    sum += outflow_of_line<S>(in, j, k, extent, sides);
  }
};

}  // namespace detail

// What one application of the stencil to `in` loses through the global boundary (a pass of its own;
// apply_stencil_with_outflow fuses it into the sweep).
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
double stencil_outflow(Stencil stencil, const Grid<typename ExecutionSpace::memory_space>& in, const BlockExtent& e,
                       const GlobalSides& sides) {
  if (!sides.any()) return 0.0;
  using M = typename ExecutionSpace::memory_space;
  using Policy = Kokkos::MDRangePolicy<ExecutionSpace, Kokkos::Rank<2, Kokkos::Iterate::Left, Kokkos::Iterate::Left>>;
  const Policy policy({1, 1}, {e.ny + 1, e.nz + 1});
  double sum = 0.0;
  switch (stencil) {
    case Stencil::TwoD5Pt:
      Kokkos::parallel_reduce("amp::outflow", policy, detail::OutflowSum<Stencil::TwoD5Pt, M>{in, e, sides}, sum);
      break;
    case Stencil::TwoD9Pt:
      Kokkos::parallel_reduce("amp::outflow", policy, detail::OutflowSum<Stencil::TwoD9Pt, M>{in, e, sides}, sum);
      break;
    case Stencil::ThreeD7Pt:
      Kokkos::parallel_reduce("amp::outflow", policy, detail::OutflowSum<Stencil::ThreeD7Pt, M>{in, e, sides}, sum);
      break;
    case Stencil::ThreeD27Pt:
      Kokkos::parallel_reduce("amp::outflow", policy, detail::OutflowSum<Stencil::ThreeD27Pt, M>{in, e, sides}, sum);
      break;
  }
  return sum;
}

}  // namespace amp::kernels
