// SPDX-License-Identifier: BSD-3-Clause
// The 3D27PT box sum (box_sum_sweep.hpp) written back into its own grid. Into a second grid, a sweep from
// memory moves 24 B a cell: the input read, the output's write-allocate read and its write. In place the
// output line was read a line earlier and is still in L1, so a cell moves 16 B, and one core swept a
// 128^3 block from memory 1.4x faster (docs/PERFORMANCE.md). The old values the sweep still needs after
// overwriting them, those of the plane below, are kept in a plane-sized buffer, copied while their rows
// are read anyway. Each thread sweeps a slab of consecutive planes; the old planes just outside its slab,
// which the neighbouring slabs overwrite, are copied before any slab writes. Same additions in the same
// order as the sweep into a second grid: the same bits, and on one thread the same interior sum and
// outflow (tests/kernels/in_place_sweep_test.cpp).
#pragma once

#include <amp/kernels/grid.hpp>
#include <amp/kernels/outflow.hpp>
#include <amp/kernels/prefetch.hpp>
#include <amp/kernels/simd_pragmas.hpp>
#include <amp/kernels/stencil_kind.hpp>
#include <amp/kernels/sweep_sums.hpp>
#include <amp/kernels/yz_face_copies.hpp>

namespace amp::kernels {

// The planes an in-place sweep keeps, four per slab: two that take turns holding the old plane below the
// one being swept, and the old planes just below and just above the slab.
template <class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
struct InPlaceWorkspace {
  static constexpr int kPlanesPerSlab = 4;
  Kokkos::View<double**, Kokkos::LayoutRight, MemorySpace> planes;  // [slab * 4 + which][x + (nx+2) * y]
  int slabs = 0;

  InPlaceWorkspace() = default;
  // One slab per thread of `concurrency`, at most one per plane.
  InPlaceWorkspace(const BlockExtent& e, int concurrency)
      : planes(Kokkos::view_alloc(std::string("amp::in_place_planes"), Kokkos::WithoutInitializing),
               static_cast<std::size_t>(kPlanesPerSlab) * slabs_for(e, concurrency),
               static_cast<std::size_t>(e.nx + 2) * (e.ny + 2)),
        slabs(slabs_for(e, concurrency)) {}

  static int slabs_for(const BlockExtent& e, int concurrency) { return concurrency < e.nz ? concurrency : e.nz; }
  // Planes [first, last] of slab s of a block of nz planes.
  KOKKOS_INLINE_FUNCTION void slab_planes(int s, int nz, int& first, int& last) const {
    first = 1 + static_cast<int>(static_cast<long>(s) * nz / slabs);
    last = static_cast<int>(static_cast<long>(s + 1) * nz / slabs);
  }
};

namespace detail {

// Copies, for every slab, the old planes just outside it that a neighbouring slab will overwrite.
template <class MemorySpace>
struct SlabEdgeCopy {
  Grid<MemorySpace> grid;
  BlockExtent extent;
  InPlaceWorkspace<MemorySpace> workspace;

  KOKKOS_INLINE_FUNCTION void operator()(int s, long cell) const {
    int first, last;
    workspace.slab_planes(s, extent.nz, first, last);
    const long row = extent.nx + 2;
    const int x = static_cast<int>(cell % row), y = static_cast<int>(cell / row);
    if (s > 0) workspace.planes(s * InPlaceWorkspace<MemorySpace>::kPlanesPerSlab + 2, cell) = grid(x, y, first - 1);
    if (s + 1 < workspace.slabs)
      workspace.planes(s * InPlaceWorkspace<MemorySpace>::kPlanesPerSlab + 3, cell) = grid(x, y, last + 1);
  }
};

// One call sweeps slab s, plane by plane, one x-line per pass (lines of at most kMaxLine cells, in one
// chunk: a second chunk would read values the first had overwritten).
template <class MemorySpace>
struct InPlaceBoxSumSweep {
  using value_type = SweepSums;
  static constexpr int kMaxLine = 256;

  Grid<MemorySpace> grid;
  BlockExtent extent;
  GlobalSides sides;
  bool outflow;                     // whether to add up the outflow through the global sides
  YzFaceCopies<MemorySpace> faces;  // where each line's first and last values also go
  InPlaceWorkspace<MemorySpace> workspace;
  bool prefetch;  // whether to ask for rows ahead (worth_prefetching)

  KOKKOS_INLINE_FUNCTION void operator()(int s, SweepSums& sums) const {
    constexpr double weight = 1.0 / 27;
    constexpr int kPlanes = InPlaceWorkspace<MemorySpace>::kPlanesPerSlab;
    const int nx = extent.nx, ny = extent.ny, columns = nx + 2;
    int first, last;
    workspace.slab_planes(s, extent.nz, first, last);
    double* turns[2] = {&workspace.planes(s * kPlanes, 0), &workspace.planes(s * kPlanes + 1, 0)};
    const double* old_below = s == 0 ? &grid(0, 0, 0) : &workspace.planes(s * kPlanes + 2, 0);
    const double* old_above_slab =
        s + 1 == workspace.slabs ? &grid(0, 0, extent.nz + 1) : &workspace.planes(s * kPlanes + 3, 0);
    double z[4][kMaxLine + 2];  // the z-sums of four consecutive rows, row r in z[r % 4]
    double column[kMaxLine + 2];
    for (int k = first; k <= last; ++k) {
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
