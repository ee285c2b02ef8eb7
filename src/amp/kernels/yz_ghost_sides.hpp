// SPDX-License-Identifier: BSD-3-Clause
// Where received yz ghosts (x = 0 and x = nx+1) can wait for a sweep in place: two arrays of ny x nz
// values after the grid in the variable's storage, line (j, k) at element (k-1)*ny + (j-1), the order of
// a yz face. Unpacked into the grid, each ghost is a cache line of its own (8-12 % of a STREAM copy's
// rate at 128^3); into these arrays the unpack is a contiguous copy, and the sweep writes each plane's
// ghosts into the grid just before it reads that plane, while the lines come into cache anyway.
// Where the stencil reads edges (3D27PT), the later phases send the ghosts next to a y or z neighbour on
// as their edges: those are unpacked into the grid (YzLinesAside says which wait).
#pragma once

#include <amp/kernels/grid.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace amp::kernels {

// Element (j, k) of a yz face (a send slot's order, yz_face_copies.hpp; a ghost side's order).
KOKKOS_INLINE_FUNCTION std::int64_t yz_face_element(int j, int k, int ny) {
  return static_cast<std::int64_t>(k - 1) * ny + (j - 1);
}

// The lines (j, k) whose yz ghosts wait in the side arrays: a rectangle of the face. Outside it, a
// ghost is unpacked into the grid, because a later phase sends it on (the rows and planes next to a y or z
// neighbour, where the stencil reads edges). Empty by default.
struct YzLinesAside {
  int j_first = 1, j_last = 0, k_first = 1, k_last = 0;
  bool empty() const { return j_first > j_last || k_first > k_last; }
  KOKKOS_INLINE_FUNCTION bool holds(int j, int k) const {
    return j >= j_first && j <= j_last && k >= k_first && k <= k_last;
  }
};

// Where, in a variable's storage of e.storage() + yz_ghost_side_elements(e) doubles, a side array begins.
inline std::int64_t yz_ghost_side_offset(const BlockExtent& e, int side) {
  return e.storage() + static_cast<std::int64_t>(side) * e.ny * e.nz;
}
inline std::int64_t yz_ghost_side_elements(const BlockExtent& e) { return 2 * std::int64_t{e.ny} * e.nz; }

// The two side arrays of one variable, as a sweep in place reads them; an empty one: that side's ghosts
// are in the grid (no neighbour there, or unpacked as usual).
template <class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
struct YzGhostSides {
  using Side = Kokkos::View<const double*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Side low, high;
  YzLinesAside lines;

  bool any() const { return low.data() != nullptr || high.data() != nullptr; }

  // The ghost at x (0 or nx+1) of line (j, k): from a side array where it waits there, else from the grid.
  KOKKOS_INLINE_FUNCTION double value(const Grid<MemorySpace>& grid, const BlockExtent& e, int x, int j, int k) const {
    const Side& side = x == 0 ? low : high;
    if (side.data() != nullptr && lines.holds(j, k)) return side(yz_face_element(j, k, e.ny));
    return grid(x, j, k);
  }
  // Plane k's waiting ghosts into the grid.
  KOKKOS_INLINE_FUNCTION void fill_plane(const Grid<MemorySpace>& grid, const BlockExtent& e, int k) const {
    if (k < lines.k_first || k > lines.k_last) return;
    if (low.data() != nullptr)
      for (int j = lines.j_first; j <= lines.j_last; ++j) grid(0, j, k) = low(yz_face_element(j, k, e.ny));
    if (high.data() != nullptr)
      for (int j = lines.j_first; j <= lines.j_last; ++j) grid(e.nx + 1, j, k) = high(yz_face_element(j, k, e.ny));
  }
};

}  // namespace amp::kernels
