// SPDX-License-Identifier: BSD-3-Clause
// The 3D7PT sweep (stencil.hpp's StencilSweep) written back into its own grid, for the reason the box sum
// is (in_place_box_sum.hpp): no write-allocate read of a second grid, 16 B moved a cell instead of 24.
// Before line j is overwritten its old values are copied into the plane kept for the next plane
// (in_place_workspace.hpp), and the line's cells are computed from that copy: the line south of it and the
// plane below are already overwritten in the grid and come from the kept planes too. Same additions in
// the same order as the sweep into a second grid: the same bits, and on one thread the same sums.
#pragma once

#include <amp/kernels/grid.hpp>
#include <amp/kernels/in_place_workspace.hpp>
#include <amp/kernels/outflow.hpp>
#include <amp/kernels/prefetch.hpp>
#include <amp/kernels/simd_pragmas.hpp>
#include <amp/kernels/stencil_kind.hpp>
#include <amp/kernels/sweep_sums.hpp>
#include <amp/kernels/yz_face_copies.hpp>

namespace amp::kernels::detail {

template <class MemorySpace>
struct InPlaceSevenPointSweep {
  using value_type = SweepSums;

  InPlaceSweepArgs<MemorySpace> args;

  KOKKOS_INLINE_FUNCTION void operator()(int s, SweepSums& sums) const {
    const auto& [grid, extent, sides, outflow, faces, ghosts, workspace, prefetch] = args;
    constexpr double weight = 1.0 / 7;
    const int nx = extent.nx, ny = extent.ny;
    const long columns = nx + 2;
    int first, last;
    workspace.slab_planes(s, extent.nz, first, last);
    double* turns[2];
    const double *old_below, *old_above_slab;
    workspace.slab_buffers(s, grid, extent.nz, turns, old_below, old_above_slab);
    ghosts.fill_plane(grid, extent, first);
    for (int k = first; k <= last; ++k) {
      if (k < last) ghosts.fill_plane(grid, extent, k + 1);  // read first in this pass (3D27PT), or the next
      const double* here_plane = &grid(0, 0, k);
      const double* above_plane = k == last ? old_above_slab : &grid(0, 0, k + 1);
      double* kept = turns[k & 1];                                // plane k's old values, the next plane's old_below
      for (int x = 0; x < columns; ++x) kept[x] = here_plane[x];  // the ghost row south of line 1
      double interior = 0.0, outflow_sum = 0.0;
      for (int j = 1; j <= ny; ++j) {
        const long offset = j * columns;
        double* c = kept + offset;
        const double* line = here_plane + offset;
        AMP_SIMD
        for (int x = 0; x < columns; ++x) c[x] = line[x];
        const double* s_row = c - columns;
        const double* n = line + columns;
        const double* b = old_below + offset;
        const double* t = above_plane + offset;
        if (prefetch && j + kPrefetchLinesAhead <= ny + 1) prefetch_row(t + kPrefetchLinesAhead * columns, nx + 2);
        // Line j's old values are read for the last time: its outflow, then its new values over them.
        if (outflow) outflow_sum += outflow_of_line<Stencil::ThreeD7Pt>(grid, j, k, extent, sides);
        double* o = &grid(0, j, k);
        double sum = 0.0;
        AMP_SIMD_SUM(sum)
        for (int i = 1; i <= nx; ++i) {
          const double v = (b[i] + s_row[i] + c[i - 1] + c[i] + c[i + 1] + n[i] + t[i]) * weight;
          o[i] = v;
          sum += v;
        }
        interior += sum;
        if (faces.wants_low()) faces.write_first(j, k, ny, o[1]);
        if (faces.wants_high()) faces.write_last(j, k, ny, o[nx]);
      }
      sums.interior += interior;
      sums.outflow += outflow_sum;
      old_below = kept;
    }
  }
};

}  // namespace amp::kernels::detail
