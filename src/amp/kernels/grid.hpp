// SPDX-License-Identifier: BSD-3-Clause
// The storage of one variable of a structured block: (nx+2) x (ny+2) x (nz+2) doubles with one ghost
// layer, x fastest (LayoutLeft), so element (i,j,k) is at i + (nx+2)*(j + (ny+2)*k).
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace amp::kernels {

template <class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
using Grid = Kokkos::View<double***, Kokkos::LayoutLeft, MemorySpace>;

// Interior size of a block; interior indices run 1..n, ghosts are 0 and n+1.
struct BlockExtent {
  int nx = 1, ny = 1, nz = 1;
  std::int64_t cells() const { return std::int64_t{nx} * ny * nz; }
  std::int64_t storage() const { return std::int64_t{nx + 2} * (ny + 2) * (nz + 2); }
  std::int64_t index(std::int64_t i, std::int64_t j, std::int64_t k) const {
    return i + (nx + 2) * (j + std::int64_t{ny + 2} * k);
  }
};

// Which sides of the block lie on the global domain boundary (Dirichlet zero ghosts there).
struct GlobalSides {
  bool low[3] = {false, false, false};
  bool high[3] = {false, false, false};
  bool any() const { return low[0] || low[1] || low[2] || high[0] || high[1] || high[2]; }
};

}  // namespace amp::kernels
