// The four stencils of amp-ghost (2D5PT, 2D9PT, 3D7PT, 3D27PT): unweighted averages (sum times
// 1/points) written to a second array (Jacobi), with the interior sum of the new values and,
// optionally, the outflow through the global boundary fused into the same sweep.
#pragma once

#include "box_sum_sweep.hpp"
#include "grid.hpp"
#include "outflow.hpp"
#include "prefetch.hpp"
#include "simd_pragmas.hpp"
#include "stencil_kind.hpp"
#include "yz_face_copies.hpp"

namespace amp::kernels {

namespace detail {

// One x-line (all i of a (j, k) pair) per call: the inner loop runs over contiguous memory and
// vectorises; the MDRange tiles the (j, k) plane (sweep() below).
template <Stencil S, class MemorySpace>
struct StencilSweep {
  Kokkos::View<const double***, Kokkos::LayoutLeft, MemorySpace> in;
  Grid<MemorySpace> out;
  int nx;
  BlockExtent extent;
  GlobalSides sides;
  LineOutflow<MemorySpace> line_outflow;  // (j-1, k-1): this line's outflow; empty: not wanted
  YzFaceCopies faces;                     // where the line's first and last values also go

  KOKKOS_INLINE_FUNCTION void operator()(int j, int k, double& sum) const {
    constexpr double weight = 1.0 / stencil_points(S);
    const double* c = &in(0, j, k);
    const double* s = &in(0, j - 1, k);
    const double* n = &in(0, j + 1, k);
    const double* b = &in(0, j, k - 1);
    const double* t = &in(0, j, k + 1);
    double* o = &out(0, j, k);
    // Cell i's new value; the faces take theirs from here too, not from o[], which the vector loop has
    // only just stored (a load from it would wait for the stores to drain).
    const auto value = [&](int i) {
      if constexpr (S == Stencil::TwoD5Pt) {
        return (s[i] + c[i - 1] + c[i] + c[i + 1] + n[i]) * weight;
      } else if constexpr (S == Stencil::ThreeD7Pt) {
        return (b[i] + s[i] + c[i - 1] + c[i] + c[i + 1] + n[i] + t[i]) * weight;
      } else {
        static_assert(S == Stencil::TwoD9Pt, "3D27PT sweeps by BoxSumSweep (box_sum_sweep.hpp)");
        return (s[i - 1] + s[i] + s[i + 1] + c[i - 1] + c[i] + c[i + 1] + n[i - 1] + n[i] + n[i + 1]) * weight;
      }
    };
    if constexpr (S == Stencil::ThreeD7Pt) {
      if (j + kPrefetchLinesAhead <= extent.ny + 1) prefetch_row(t + kPrefetchLinesAhead * (nx + 2), nx + 2);
    }
    double line = 0.0;
    AMP_SIMD_SUM(line)
    for (int i = 1; i <= nx; ++i) {
      const double v = value(i);
      o[i] = v;
      line += v;
    }
    sum += line;
    if (faces.low != nullptr) faces.write_first(j, k, extent.ny, value(1));
    if (faces.high != nullptr) faces.write_last(j, k, extent.ny, value(nx));
    if (line_outflow.data() != nullptr) line_outflow(j - 1, k - 1) = outflow_of_line<S>(in, j, k, extent, sides);
  }
};

}  // namespace detail

namespace detail {

template <class ExecutionSpace>
double sweep(Stencil stencil, const Grid<typename ExecutionSpace::memory_space>& in,
             const Grid<typename ExecutionSpace::memory_space>& out, const BlockExtent& e, const GlobalSides& sides,
             const LineOutflow<typename ExecutionSpace::memory_space>& line_outflow, const YzFaceCopies& faces) {
  using Policy = Kokkos::MDRangePolicy<ExecutionSpace, Kokkos::Rank<2, Kokkos::Iterate::Left, Kokkos::Iterate::Left>>;
  // 3D: tiles of whole xy planes, two at a time, so the planes the sweep reads and writes go by as
  // long runs of consecutive addresses, which the hardware prefetchers follow (tiles of 16x4 lines
  // jumped every 16 lines: docs/PERFORMANCE.md, issue 13). At most 512 lines per tile: a tile is one
  // thread block on a GPU. 2D (one plane): 16 consecutive lines per tile, so threads still share it.
  const int tile_lines = e.nz > 1 ? (e.ny < 512 ? e.ny : 512) : 16;
  const Policy policy({1, 1}, {e.ny + 1, e.nz + 1}, {tile_lines, e.nz > 1 ? 2 : 1});
  using M = typename ExecutionSpace::memory_space;
  double sum = 0.0;
  switch (stencil) {
    case Stencil::TwoD5Pt:
      Kokkos::parallel_reduce("amp::stencil_2d5pt", policy,
                              StencilSweep<Stencil::TwoD5Pt, M>{in, out, e.nx, e, sides, line_outflow, faces}, sum);
      break;
    case Stencil::TwoD9Pt:
      Kokkos::parallel_reduce("amp::stencil_2d9pt", policy,
                              StencilSweep<Stencil::TwoD9Pt, M>{in, out, e.nx, e, sides, line_outflow, faces}, sum);
      break;
    case Stencil::ThreeD7Pt:
      Kokkos::parallel_reduce("amp::stencil_3d7pt", policy,
                              StencilSweep<Stencil::ThreeD7Pt, M>{in, out, e.nx, e, sides, line_outflow, faces}, sum);
      break;
    case Stencil::ThreeD27Pt: {
      // Runs of consecutive lines, so that the rolled z-sums are reused along j.
      const BoxSumSweep<M> box{in, out, e, sides, line_outflow, faces};
      const Policy runs({0, 1}, {box.runs(), e.nz + 1}, {box.runs(), 2});
      Kokkos::parallel_reduce("amp::stencil_3d27pt", runs, box, sum);
      break;
    }
  }
  return sum;
}

}  // namespace detail

// out(interior) = stencil average of in; returns the sum of the new interior values. Ghosts of
// `in` must hold the neighbours' values (or zero on the global boundary).
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
double apply_stencil(Stencil stencil, const Grid<typename ExecutionSpace::memory_space>& in,
                     const Grid<typename ExecutionSpace::memory_space>& out, const BlockExtent& e) {
  return detail::sweep<ExecutionSpace>(stencil, in, out, e, GlobalSides{}, {}, {});
}

struct SweepSums {
  double interior = 0.0;  // sum of the new interior values
  double outflow = 0.0;   // what this application pushed through the global boundary (as stencil_outflow)
};

// apply_stencil plus the outflow, computed in the same sweep while each line is in cache (a separate
// pass over the boundary costs a cache miss per x-face cell). `scratch` is ny x nz, reused across calls.
// `faces`: where the new yz faces are also written (yz_face_copies.hpp), for a neighbour's send slot.
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
SweepSums apply_stencil_with_outflow(Stencil stencil, const Grid<typename ExecutionSpace::memory_space>& in,
                                     const Grid<typename ExecutionSpace::memory_space>& out, const BlockExtent& e,
                                     const GlobalSides& sides,
                                     const LineOutflow<typename ExecutionSpace::memory_space>& scratch,
                                     const YzFaceCopies& faces = {}) {
  SweepSums sums;
  if (!sides.any()) {
    sums.interior = detail::sweep<ExecutionSpace>(stencil, in, out, e, sides, {}, faces);
    return sums;
  }
  sums.interior = detail::sweep<ExecutionSpace>(stencil, in, out, e, sides, scratch, faces);
  using Policy = Kokkos::MDRangePolicy<ExecutionSpace, Kokkos::Rank<2, Kokkos::Iterate::Left, Kokkos::Iterate::Left>>;
  Kokkos::parallel_reduce(
      "amp::sum_line_outflow", Policy({0, 0}, {e.ny, e.nz}),
      KOKKOS_LAMBDA(int j, int k, double& s) { s += scratch(j, k); }, sums.outflow);
  return sums;
}

}  // namespace amp::kernels
