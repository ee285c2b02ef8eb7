// SPDX-License-Identifier: BSD-3-Clause
// Process grid (MPI_Dims_create for the unset factors, x fastest), block sizes and offsets,
// neighbour ranks and global-boundary sides.
#include <amp/miniapps/ghost/decomposition.hpp>

#include <amp/miniapps/common/errors.hpp>

#include <fmt/format.h>
#include <mpi.h>

namespace amp::ghost {

Decomposition decompose(const GhostConfig& config, int rank, int ranks) {
  Decomposition d;
  int dims[3] = {config.process_grid[0], config.process_grid[1], config.process_grid[2]};
  // MPI orders dims non-increasing with dims[0] largest; x is fastest here, so fill in reverse.
  int reversed[3] = {dims[2], dims[1], dims[0]};
  MPI_Dims_create(ranks, 3, reversed);
  d.grid = {reversed[2], reversed[1], reversed[0]};
  d.coords = {rank % d.grid[0], (rank / d.grid[0]) % d.grid[1], rank / (d.grid[0] * d.grid[1])};

  const int sizes[3] = {config.nx, config.ny, config.nz};
  const char* names[3] = {"nx", "ny", "nz"};
  const char* grid_names[3] = {"npx", "npy", "npz"};
  int local[3];
  for (int a = 0; a < 3; ++a) {
    if (config.scaling == Scaling::Strong) {
      if (sizes[a] % d.grid[a] != 0) {
        throw InputError(fmt::format("global {}={} does not divide by {}={} (strong scaling)", names[a], sizes[a],
                                     grid_names[a], d.grid[a]));
      }
      local[a] = sizes[a] / d.grid[a];
    } else {
      local[a] = sizes[a];
    }
    d.placement.size[a] = static_cast<std::int64_t>(local[a]) * d.grid[a];
    d.placement.offset[a] = static_cast<std::int64_t>(local[a]) * d.coords[a];
    d.sides.low[a] = d.coords[a] == 0;
    d.sides.high[a] = d.coords[a] == d.grid[a] - 1;
    for (int side = 0; side < 2; ++side) {
      std::array<int, 3> c = d.coords;
      c[a] += side == 0 ? -1 : 1;
      if (c[a] >= 0 && c[a] < d.grid[a]) d.neighbour[a][side] = Decomposition::rank_of(d.grid, c);
    }
  }
  d.block = {local[0], local[1], local[2]};
  return d;
}

}  // namespace amp::ghost
