// SPDX-License-Identifier: BSD-3-Clause
// The 3D27PT box sum (box_sum_sweep.hpp) written back into its own grid. Into a second grid, a sweep from
// memory moves 24 B a cell: the input read, the output's write-allocate read and its write. In place the
// output line was read a line earlier and is still in L1, so a cell moves 16 B, and one core swept a
// 128^3 block from memory 1.4x faster (docs/PERFORMANCE.md). The old values the sweep still needs after
// overwriting them, those of the plane below, are kept in a plane-sized buffer, copied while their rows
// are read anyway; each thread sweeps a slab of planes (in_place_workspace.hpp). Same additions in the same
// order as the sweep into a second grid: the same bits, and on one thread the same interior sum and
// outflow (tests/kernels/in_place_sweep_test.cpp).
#pragma once

#include <amp/kernels/grid.hpp>
#include <amp/kernels/in_place_workspace.hpp>
#include <amp/kernels/outflow.hpp>
#include <amp/kernels/prefetch.hpp>
#include <amp/kernels/simd_pragmas.hpp>
#include <amp/kernels/stencil_kind.hpp>
#include <amp/kernels/sweep_sums.hpp>
#include <amp/kernels/yz_face_copies.hpp>

namespace amp::kernels {

namespace detail {

// One call sweeps slab s, plane by plane, one x-line per pass (lines of at most kMaxLine cells, in one
// chunk: a second chunk would read values the first had overwritten).
template <class MemorySpace>
struct InPlaceBoxSumSweep {
  using value_type = SweepSums;
  static constexpr int kMaxLine = 256;

  InPlaceSweepArgs<MemorySpace> args;

  KOKKOS_INLINE_FUNCTION void operator()(int s, SweepSums& sums) const {
    const auto& [grid, extent, sides, outflow, faces, ghosts, workspace, prefetch] = args;
    constexpr double weight = 1.0 / 27;
    const int nx = extent.nx, ny = extent.ny, columns = nx + 2;
    int first, last;
    workspace.slab_planes(s, extent.nz, first, last);
    double* turns[2];
    const double *old_below, *old_above_slab;
    workspace.slab_buffers(s, grid, extent.nz, turns, old_below, old_above_slab);
    ghosts.fill_plane(grid, extent, first);
    double z[4][kMaxLine + 2];  // the z-sums of four consecutive rows, row r in z[r % 4]
    double column[kMaxLine + 2];
    for (int k = first; k <= last; ++k) {
      if (k < last) ghosts.fill_plane(grid, extent, k + 1);  // read first in this pass (3D27PT), or the next
      const double* here_plane = &grid(0, 0, k);
      const double* above_plane = k == last ? old_above_slab : &grid(0, 0, k + 1);
      double* kept = turns[k & 1];  // plane k's old values, the next plane's old_below
      // z[r % 4] = the old rows r of planes k-1, k, k+1, summed; plane k's row r kept.
      const auto z_sum = [&](int r) {
        const long offset = static_cast<long>(r) * columns;
        const double* below = old_below + offset;
        const double* here = here_plane + offset;
        const double* above = above_plane + offset;
        double* keep = kept + offset;
        double* zr = z[r & 3];
        AMP_SIMD
        for (int x = 0; x < columns; ++x) {
          const double h = here[x];
          keep[x] = h;
          zr[x] = below[x] + h + above[x];
        }
      };
      z_sum(0);
      z_sum(1);
      double interior = 0.0, outflow_sum = 0.0;
      for (int j = 1; j <= ny; ++j) {
        if (prefetch && j + 1 + kPrefetchLinesAhead <= ny + 1)
          prefetch_row(above_plane + static_cast<long>(j + 1 + kPrefetchLinesAhead) * columns, columns);
        const long offset = static_cast<long>(j + 1) * columns;
        const double* south = z[(j - 1) & 3];
        const double* centre = z[j & 3];
        double* north = z[(j + 1) & 3];
        const double* below = old_below + offset;
        const double* here = here_plane + offset;
        const double* above = above_plane + offset;
        double* keep = kept + offset;
        AMP_SIMD
        for (int x = 0; x < columns; ++x) {
          const double h = here[x];
          keep[x] = h;
          const double z_north = below[x] + h + above[x];
          north[x] = z_north;
          column[x] = south[x] + centre[x] + z_north;
        }
        // Line j's old values are read for the last time: its outflow, then its new values over them.
        if (outflow) outflow_sum += outflow_of_line<Stencil::ThreeD27Pt>(grid, j, k, extent, sides);
        double* o = &grid(1, j, k);
        double line = 0.0;
        AMP_SIMD_SUM(line)
        for (int x = 0; x < nx; ++x) {
          const double v = (column[x] + column[x + 1] + column[x + 2]) * weight;
          o[x] = v;
          line += v;
        }
        interior += line;
        if (faces.wants_low()) faces.write_first(j, k, ny, o[0]);
        if (faces.wants_high()) faces.write_last(j, k, ny, o[nx - 1]);
      }
      sums.interior += interior;
      sums.outflow += outflow_sum;
      old_below = kept;
    }
  }
};

}  // namespace detail

}  // namespace amp::kernels
