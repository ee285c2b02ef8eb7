// SPDX-License-Identifier: BSD-3-Clause
// Where a sweep also writes the new values of its first and last interior x columns: the two yz faces
// a neighbour in x receives. Line (j, k) goes to element (k-1)*ny + (j-1) of each, the order in which
// amp-ghost packs a yz face (miniapps/ghost/face_pieces.cpp), so a proxy can point them at its send
// slots. Written while the line is in cache, they spare the pack a strided read of one cache line per
// element (docs/PERFORMANCE.md).
#pragma once

#include <amp/kernels/yz_ghost_sides.hpp>

#include <Kokkos_Core.hpp>

namespace amp::kernels {

// The faces are Views of the sweep's memory space (a send slot of the comm layer, in practice).
template <class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
struct YzFaceCopies {
  using Face = Kokkos::View<double*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Face low;   // x = 1; empty: not wanted
  Face high;  // x = nx; empty: not wanted

  // Callers ask first, so that a value nobody wants is not computed.
  KOKKOS_INLINE_FUNCTION bool wants_low() const { return low.data() != nullptr; }
  KOKKOS_INLINE_FUNCTION bool wants_high() const { return high.data() != nullptr; }
  // Line (j, k) of a block with ny lines per plane: its first and last new interior values.
  KOKKOS_INLINE_FUNCTION void write_first(int j, int k, int ny, double first) const {
    low(yz_face_element(j, k, ny)) = first;
  }
  KOKKOS_INLINE_FUNCTION void write_last(int j, int k, int ny, double last) const {
    high(yz_face_element(j, k, ny)) = last;
  }
};

}  // namespace amp::kernels
