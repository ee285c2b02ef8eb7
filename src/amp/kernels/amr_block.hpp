// SPDX-License-Identifier: BSD-3-Clause
// What the AMR kernels know about one block: its refinement level, its integer position at that level
// (for reproducible values and checksums) and what lies across each of its six faces.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace amp::kernels {

// Across a block face (face f = 2*axis + side, side 0 low, 1 high).
enum class FaceNeighbour : int { SameLevel = 0, Coarser = 1, Finer = 2, DomainBoundary = 3 };

struct AmrBlock {
  int level = 0;
  int face[6] = {0, 0, 0, 0, 0, 0};      // FaceNeighbour
  std::int64_t position[3] = {0, 0, 0};  // block coordinates at its level
};

// One variable's values on all of a rank's blocks (storage slot after slot, each AmrBlockShape), in the
// default execution space's memory, or in MemorySpace's for the kernels run on another execution space.
template <class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
using AmrValuesIn = Kokkos::View<double*, MemorySpace>;
template <class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
using ConstAmrValuesIn = Kokkos::View<const double*, MemorySpace>;
using AmrValues = AmrValuesIn<>;
using ConstAmrValues = ConstAmrValuesIn<>;

// Layout of one variable of one block: (n+2)^3 doubles, x fastest, one ghost layer.
struct AmrBlockShape {
  int n = 8;  // cells per side
  std::int64_t stride(int axis) const { return axis == 0 ? 1 : axis == 1 ? n + 2 : std::int64_t{n + 2} * (n + 2); }
  std::int64_t storage() const { return std::int64_t{n + 2} * (n + 2) * (n + 2); }
  std::int64_t cells() const { return std::int64_t{n} * n * n; }
};

}  // namespace amp::kernels
