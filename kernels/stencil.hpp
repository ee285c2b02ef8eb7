// The four stencils of amp-ghost (2D5PT, 2D9PT, 3D7PT, 3D27PT): unweighted averages written to a
// second array (Jacobi), with the interior sum of the new values fused into the same sweep.
#pragma once

#include "grid.hpp"

#include <string>

namespace amp::kernels {

enum class Stencil { TwoD5Pt, TwoD9Pt, ThreeD7Pt, ThreeD27Pt };

constexpr int stencil_points(Stencil s) {
  return s == Stencil::TwoD5Pt ? 5 : s == Stencil::TwoD9Pt ? 9 : s == Stencil::ThreeD7Pt ? 7 : 27;
}
constexpr bool stencil_is_3d(Stencil s) { return s == Stencil::ThreeD7Pt || s == Stencil::ThreeD27Pt; }
// 9- and 27-point stencils read edges (and corners): their ghosts come in x, y (, z) phases.
constexpr bool stencil_reads_edges(Stencil s) { return s == Stencil::TwoD9Pt || s == Stencil::ThreeD27Pt; }
inline std::string stencil_name(Stencil s) {
  return s == Stencil::TwoD5Pt ? "2d5pt" : s == Stencil::TwoD9Pt ? "2d9pt" : s == Stencil::ThreeD7Pt ? "3d7pt" : "3d27pt";
}

namespace detail {

template <Stencil S, class MemorySpace>
struct StencilSweep {
  Kokkos::View<const double***, Kokkos::LayoutLeft, MemorySpace> in;
  Grid<MemorySpace> out;

  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, double& sum) const {
    double v;
    if constexpr (S == Stencil::TwoD5Pt) {
      v = (in(i, j - 1, k) + in(i - 1, j, k) + in(i, j, k) + in(i + 1, j, k) + in(i, j + 1, k)) / 5.0;
    } else if constexpr (S == Stencil::ThreeD7Pt) {
      v = (in(i, j, k - 1) + in(i, j - 1, k) + in(i - 1, j, k) + in(i, j, k) + in(i + 1, j, k) + in(i, j + 1, k) +
           in(i, j, k + 1)) / 7.0;
    } else if constexpr (S == Stencil::TwoD9Pt) {
      v = (in(i - 1, j - 1, k) + in(i, j - 1, k) + in(i + 1, j - 1, k) + in(i - 1, j, k) + in(i, j, k) +
           in(i + 1, j, k) + in(i - 1, j + 1, k) + in(i, j + 1, k) + in(i + 1, j + 1, k)) / 9.0;
    } else {
      double s = 0.0;
      for (int dk = -1; dk <= 1; ++dk)
        for (int dj = -1; dj <= 1; ++dj)
          s += in(i - 1, j + dj, k + dk) + in(i, j + dj, k + dk) + in(i + 1, j + dj, k + dk);
      v = s / 27.0;
    }
    out(i, j, k) = v;
    sum += v;
  }
};

}  // namespace detail

// out(interior) = stencil average of in; returns the sum of the new interior values. Ghosts of
// `in` must hold the neighbours' values (or zero on the global boundary).
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
double apply_stencil(Stencil stencil, const Grid<typename ExecutionSpace::memory_space>& in,
                     const Grid<typename ExecutionSpace::memory_space>& out, const BlockExtent& e) {
  using Policy = Kokkos::MDRangePolicy<ExecutionSpace, Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>>;
  const Policy policy({1, 1, 1}, {e.nx + 1, e.ny + 1, e.nz + 1}, {e.nx, 4, 4});
  using M = typename ExecutionSpace::memory_space;
  double sum = 0.0;
  switch (stencil) {
    case Stencil::TwoD5Pt:
      Kokkos::parallel_reduce("amp::stencil_2d5pt", policy, detail::StencilSweep<Stencil::TwoD5Pt, M>{in, out}, sum);
      break;
    case Stencil::TwoD9Pt:
      Kokkos::parallel_reduce("amp::stencil_2d9pt", policy, detail::StencilSweep<Stencil::TwoD9Pt, M>{in, out}, sum);
      break;
    case Stencil::ThreeD7Pt:
      Kokkos::parallel_reduce("amp::stencil_3d7pt", policy, detail::StencilSweep<Stencil::ThreeD7Pt, M>{in, out}, sum);
      break;
    case Stencil::ThreeD27Pt:
      Kokkos::parallel_reduce("amp::stencil_3d27pt", policy, detail::StencilSweep<Stencil::ThreeD27Pt, M>{in, out},
                              sum);
      break;
  }
  return sum;
}

}  // namespace amp::kernels
