// SPDX-License-Identifier: BSD-3-Clause
// The four stencils of amp-ghost (2D5PT, 2D9PT, 3D7PT, 3D27PT): unweighted averages (sum times
// 1/points) written to a second array (Jacobi), with the interior sum of the new values and,
// optionally, the outflow through the global boundary fused into the same sweep.
#pragma once

#include <amp/kernels/box_sum_sweep.hpp>
#include <amp/kernels/grid.hpp>
#include <amp/kernels/in_place_box_sum.hpp>
#include <amp/kernels/in_place_seven_point.hpp>
#include <amp/kernels/in_place_workspace.hpp>
#include <amp/kernels/outflow.hpp>
#include <amp/kernels/prefetch.hpp>
#include <amp/kernels/simd_pragmas.hpp>
#include <amp/kernels/stencil_kind.hpp>
#include <amp/kernels/sweep_runs.hpp>
#include <amp/kernels/sweep_sums.hpp>
#include <amp/kernels/yz_face_copies.hpp>
#include <amp/kernels/yz_ghost_sides.hpp>

#include <stdexcept>
#include <type_traits>
#include <utility>

namespace amp::kernels {

namespace detail {

// One run of consecutive x-lines of a plane per call (sweep_runs.hpp): the inner loop runs over
// contiguous memory and vectorises; the run's sums stay in registers until its end.
template <Stencil S, class MemorySpace>
struct StencilSweep {
  using value_type = SweepSums;

  Kokkos::View<const double***, Kokkos::LayoutLeft, MemorySpace> in;
  Grid<MemorySpace> out;
  BlockExtent extent;
  GlobalSides sides;
  bool outflow;                     // whether to add up the outflow through the global sides
  YzFaceCopies<MemorySpace> faces;  // where each line's first and last values also go
  SweepRuns runs;
  bool prefetch;  // whether to ask for rows ahead (worth_prefetching)

  KOKKOS_INLINE_FUNCTION void operator()(int run, SweepSums& sums) const {
    constexpr double weight = 1.0 / stencil_points(S);
    const int nx = extent.nx;
    int k, j_first, j_last;
    runs.lines(run, extent.ny, k, j_first, j_last);
    double interior = 0.0, outflow_sum = 0.0;
    for (int j = j_first; j <= j_last; ++j) {
      const double* c = &in(0, j, k);
      const double* s = &in(0, j - 1, k);
      const double* n = &in(0, j + 1, k);
      const double* b = &in(0, j, k - 1);
      const double* t = &in(0, j, k + 1);
      double* o = &out(0, j, k);
      // Cell i's new value. The faces take theirs from o[] (the same bits): computing them again cost 5-8%
      // on lines of 16-24 cells (docs/PERFORMANCE.md).
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
        if (prefetch && j + kPrefetchLinesAhead <= extent.ny + 1)
          prefetch_row(t + kPrefetchLinesAhead * (nx + 2), nx + 2);
      }
      double line = 0.0;
      AMP_SIMD_SUM(line)
      for (int i = 1; i <= nx; ++i) {
        const double v = value(i);
        o[i] = v;
        line += v;
      }
      interior += line;
      if (faces.wants_low()) faces.write_first(j, k, extent.ny, o[1]);
      if (faces.wants_high()) faces.write_last(j, k, extent.ny, o[nx]);
      if (outflow) outflow_sum += outflow_of_line<S>(in, j, k, extent, sides);
    }
    sums.interior += interior;
    sums.outflow += outflow_sum;
  }
};

template <class ExecutionSpace>
SweepSums sweep(Stencil stencil, const Grid<typename ExecutionSpace::memory_space>& in,
                const Grid<typename ExecutionSpace::memory_space>& out, const BlockExtent& e, const GlobalSides& sides,
                const YzFaceCopies<typename ExecutionSpace::memory_space>& faces) {
  using M = typename ExecutionSpace::memory_space;
  const SweepRuns runs(e, ExecutionSpace().concurrency());
  const Kokkos::RangePolicy<ExecutionSpace> policy(0, runs.count());
  const bool outflow = sides.any();
  const bool prefetch = worth_prefetching(e);
  SweepSums sums;
  switch (stencil) {
    case Stencil::TwoD5Pt:
      Kokkos::parallel_reduce("amp::stencil_2d5pt", policy,
                              StencilSweep<Stencil::TwoD5Pt, M>{in, out, e, sides, outflow, faces, runs, prefetch},
                              sums);
      break;
    case Stencil::TwoD9Pt:
      Kokkos::parallel_reduce("amp::stencil_2d9pt", policy,
                              StencilSweep<Stencil::TwoD9Pt, M>{in, out, e, sides, outflow, faces, runs, prefetch},
                              sums);
      break;
    case Stencil::ThreeD7Pt:
      Kokkos::parallel_reduce("amp::stencil_3d7pt", policy,
                              StencilSweep<Stencil::ThreeD7Pt, M>{in, out, e, sides, outflow, faces, runs, prefetch},
                              sums);
      break;
    case Stencil::ThreeD27Pt:
      Kokkos::parallel_reduce(
          "amp::stencil_3d27pt", policy,
          BoxSumSweep<M>{in, out, e, sides, outflow, faces, runs, prefetch, box_sum_lines_per_pass(e)}, sums);
      break;
  }
  return sums;
}

// The 3D7PT or 3D27PT sweep written over `grid` (in_place_seven_point.hpp, in_place_box_sum.hpp), its
// workspace sized for this block; the yz ghosts that wait in `ghosts` go into the grid as it goes.
template <class ExecutionSpace>
SweepSums sweep_in_place(Stencil stencil, const Grid<typename ExecutionSpace::memory_space>& grid, const BlockExtent& e,
                         const GlobalSides& sides, const YzFaceCopies<typename ExecutionSpace::memory_space>& faces,
                         const YzGhostSides<typename ExecutionSpace::memory_space>& ghosts,
                         const InPlaceWorkspace<typename ExecutionSpace::memory_space>& workspace) {
  using M = typename ExecutionSpace::memory_space;
  if (workspace.slabs > 1) {
    using Policy = Kokkos::MDRangePolicy<ExecutionSpace, Kokkos::Rank<2>, Kokkos::IndexType<long>>;
    Kokkos::parallel_for("amp::in_place_slab_edges",
                         Policy({0, 0}, {workspace.slabs, static_cast<long>(e.nx + 2) * (e.ny + 2)}),
                         SlabEdgeCopy<M>{grid, e, workspace, ghosts});
  }
  const Kokkos::RangePolicy<ExecutionSpace> slabs(0, workspace.slabs);
  SweepSums sums;
  if (stencil == Stencil::ThreeD7Pt)
    Kokkos::parallel_reduce(
        "amp::stencil_3d7pt_in_place", slabs,
        InPlaceSevenPointSweep<M>{{grid, e, sides, sides.any(), faces, ghosts, workspace, worth_prefetching(e)}}, sums);
  else
    Kokkos::parallel_reduce(
        "amp::stencil_3d27pt_in_place", slabs,
        InPlaceBoxSumSweep<M>{{grid, e, sides, sides.any(), faces, ghosts, workspace, worth_prefetching(e)}}, sums);
  return sums;
}

}  // namespace detail

// Whether StencilSweeper sweeps this stencil on this block in place: the 3D7PT and 3D27PT sweeps, on a
// host, on lines of 64 cells or more (the box sum: up to 256, one line a pass in one chunk), in blocks that
// do not fit in the caches (worth_prefetching): in cache, keeping the old rows cost the box sum about 10%
// and saves nothing (32^3, one core: 0.96 against 1.07 Gcell/s; docs/history/performance-log.md). The rule
// sees one block, not how many a run sweeps in turn: a 64^3 variable swept alone, from the caches, runs
// at 0.85x in place; 4 or 40 of them, from memory, at 1.3-1.6x.
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
bool sweeps_in_place(Stencil stencil, const BlockExtent& e) {
  if (!std::is_same_v<typename ExecutionSpace::memory_space, Kokkos::HostSpace> || !worth_prefetching(e) ||
      e.nx < detail::kOneLinePassesFrom)
    return false;
  return stencil == Stencil::ThreeD7Pt ||
         (stencil == Stencil::ThreeD27Pt && e.nx <= detail::InPlaceBoxSumSweep<Kokkos::HostSpace>::kMaxLine);
}

// out(interior) = stencil average of in; returns the sum of the new interior values. Ghosts of
// `in` must hold the neighbours' values (or zero on the global boundary).
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
double apply_stencil(Stencil stencil, const Grid<typename ExecutionSpace::memory_space>& in,
                     const Grid<typename ExecutionSpace::memory_space>& out, const BlockExtent& e) {
  return detail::sweep<ExecutionSpace>(stencil, in, out, e, GlobalSides{}, {}).interior;
}

// apply_stencil plus the outflow, computed in the same sweep while each line is in cache (a separate
// pass over the boundary costs a cache miss per x-face cell), and reduced with the sum in one launch.
// `faces`: where the new yz faces are also written (yz_face_copies.hpp), for a neighbour's send slot.
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
SweepSums apply_stencil_with_outflow(Stencil stencil, const Grid<typename ExecutionSpace::memory_space>& in,
                                     const Grid<typename ExecutionSpace::memory_space>& out, const BlockExtent& e,
                                     const GlobalSides& sides,
                                     const YzFaceCopies<typename ExecutionSpace::memory_space>& faces = {}) {
  return detail::sweep<ExecutionSpace>(stencil, in, out, e, sides, faces);
}

// One stencil swept again and again over one block's grids, as amp-ghost does: in place where
// sweeps_in_place (the old values it keeps in a workspace allocated once), otherwise into a second grid.
// sweep(current, next, ...) returns what apply_stencil_with_outflow(current -> next) returns; the new
// values are then in `current` if in_place(), else in `next`, and make_current(current, next) puts them
// in `current` either way. Only a sweep in place takes yz ghosts waiting in side arrays (yz_ghost_sides.hpp).
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
class StencilSweeper {
 public:
  using MemorySpace = typename ExecutionSpace::memory_space;

  StencilSweeper(Stencil stencil, const BlockExtent& e)
      : stencil_(stencil), extent_(e), in_place_(sweeps_in_place<ExecutionSpace>(stencil, e)) {
    if (in_place_) workspace_ = InPlaceWorkspace<MemorySpace>(e, ExecutionSpace().concurrency());
  }
  bool in_place() const { return in_place_; }

  SweepSums sweep(const Grid<MemorySpace>& current, const Grid<MemorySpace>& next, const GlobalSides& sides,
                  const YzFaceCopies<MemorySpace>& faces = {}, const YzGhostSides<MemorySpace>& ghosts = {}) const {
    if (in_place_)
      return detail::sweep_in_place<ExecutionSpace>(stencil_, current, extent_, sides, faces, ghosts, workspace_);
    if (ghosts.any()) throw std::invalid_argument("yz ghosts in side arrays need a sweep in place");
    return detail::sweep<ExecutionSpace>(stencil_, current, next, extent_, sides, faces);
  }
  // After sweep(): the new values into `current` (the two grids swapped, unless the sweep was in place).
  void make_current(Grid<MemorySpace>& current, Grid<MemorySpace>& next) const {
    if (!in_place_) std::swap(current, next);
  }

 private:
  Stencil stencil_;
  BlockExtent extent_;
  bool in_place_;
  InPlaceWorkspace<MemorySpace> workspace_;
};

}  // namespace amp::kernels
