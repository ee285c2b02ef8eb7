// SPDX-License-Identifier: BSD-3-Clause
// What a sweep written back into its own grid keeps of the values it overwrites (in_place_box_sum.hpp,
// in_place_seven_point.hpp). Each thread sweeps a slab of consecutive planes and keeps, in a plane-sized
// buffer, the old values of the plane below the one it sweeps; the old planes just outside each slab,
// which the neighbouring slabs overwrite, are copied before any slab writes (SlabEdgeCopy).
#pragma once

#include <amp/kernels/grid.hpp>
#include <amp/kernels/yz_face_copies.hpp>
#include <amp/kernels/yz_ghost_sides.hpp>

#include <string>

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
  // Slab s's planes: two that take turns keeping the old plane being swept, and the old planes just below
  // its first plane and just above its last (the grid's own ghost planes at the block's ends).
  KOKKOS_INLINE_FUNCTION void slab_buffers(int s, const Grid<MemorySpace>& grid, int nz, double* turns[2],
                                           const double*& below_first, const double*& above_last) const {
    turns[0] = &planes(s * kPlanesPerSlab, 0);
    turns[1] = &planes(s * kPlanesPerSlab + 1, 0);
    below_first = s == 0 ? &grid(0, 0, 0) : &planes(s * kPlanesPerSlab + 2, 0);
    above_last = s + 1 == slabs ? &grid(0, 0, nz + 1) : &planes(s * kPlanesPerSlab + 3, 0);
  }
};

namespace detail {

// What a sweep in place is given (in_place_box_sum.hpp, in_place_seven_point.hpp): the grid it overwrites,
// what it adds up and copies on the way, and where it keeps the old values.
template <class MemorySpace>
struct InPlaceSweepArgs {
  Grid<MemorySpace> grid;
  BlockExtent extent;
  GlobalSides sides;
  bool outflow;                      // whether to add up the outflow through the global sides
  YzFaceCopies<MemorySpace> faces;   // where each line's first and last values also go
  YzGhostSides<MemorySpace> ghosts;  // received yz ghosts not yet in the grid: each plane's go in before it is read
  InPlaceWorkspace<MemorySpace> workspace;
  bool prefetch;  // whether to ask for rows ahead (worth_prefetching)
};

// Copies, for every slab, the old planes just outside it that a neighbouring slab will overwrite (their yz
// ghosts from the side arrays where they wait there).
template <class MemorySpace>
struct SlabEdgeCopy {
  Grid<MemorySpace> grid;
  BlockExtent extent;
  InPlaceWorkspace<MemorySpace> workspace;
  YzGhostSides<MemorySpace> ghosts;

  KOKKOS_INLINE_FUNCTION void operator()(int s, long cell) const {
    int first, last;
    workspace.slab_planes(s, extent.nz, first, last);
    const long row = extent.nx + 2;
    const int x = static_cast<int>(cell % row), y = static_cast<int>(cell / row);
    const auto old = [&](int k) {
      return x == 0 || x == extent.nx + 1 ? ghosts.value(grid, extent, x, y, k) : grid(x, y, k);
    };
    if (s > 0) workspace.planes(s * InPlaceWorkspace<MemorySpace>::kPlanesPerSlab + 2, cell) = old(first - 1);
    if (s + 1 < workspace.slabs)
      workspace.planes(s * InPlaceWorkspace<MemorySpace>::kPlanesPerSlab + 3, cell) = old(last + 1);
  }
};

}  // namespace detail

}  // namespace amp::kernels
