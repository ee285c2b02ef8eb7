// SPDX-License-Identifier: BSD-3-Clause
// The process grid of amp-ghost: where this rank's block sits, its size, and its face neighbours.
// Neighbours are computed here (no MPI_Cart_create: SST-macro cannot replay it).
#pragma once

#include <amp/miniapps/ghost/ghost_config.hpp>

#include <amp/kernels/block_fields.hpp>
#include <amp/kernels/grid.hpp>

#include <array>

namespace amp::ghost {

struct Decomposition {
  std::array<int, 3> grid{1, 1, 1};    // npx, npy, npz
  std::array<int, 3> coords{0, 0, 0};  // this rank's position
  kernels::BlockExtent block;          // this rank's interior size
  kernels::GlobalPlacement placement;  // global offsets and sizes
  kernels::GlobalSides sides;          // which faces are on the global boundary
  // neighbour[axis][0] = rank on the low side, [1] = high side, -1 = global boundary
  std::array<std::array<int, 2>, 3> neighbour{{{-1, -1}, {-1, -1}, {-1, -1}}};

  static int rank_of(const std::array<int, 3>& grid, const std::array<int, 3>& coords) {
    return coords[0] + grid[0] * (coords[1] + grid[1] * coords[2]);
  }
};

// Throws InputError when a strong-scaling grid does not divide by the process grid.
Decomposition decompose(const GhostConfig& config, int rank, int ranks);

}  // namespace amp::ghost
