// What amp-nobel's blocks take per rank (two fields per variable, ghost layer included) before any
// refinement, for the memory check made before the mesh is built. A lower bound: refinement adds blocks.
#pragma once

#include "nobel_config.hpp"

namespace amp::nobel {

inline double block_bytes_per_rank(const NobelConfig& c, int ranks) {
  const double root_blocks = double(c.root_blocks[0]) * c.root_blocks[1] * c.root_blocks[2];
  const double blocks = root_blocks / ranks > 1 ? root_blocks / ranks : 1;
  const double storage = double(c.block + 2) * (c.block + 2) * (c.block + 2);
  return 2.0 * c.num_vars * blocks * storage * sizeof(double);
}

}  // namespace amp::nobel
