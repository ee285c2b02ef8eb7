// SPDX-License-Identifier: BSD-3-Clause
// What amp-ghost's fields take per rank (two grids with ghost layers per variable), for the memory
// check made before anything is allocated. A lower bound: plans and buffers come on top.
#pragma once

#include <amp/miniapps/ghost/ghost_config.hpp>

namespace amp::ghost {

inline double field_bytes_per_rank(const GhostConfig& c, int ranks) {
  const double cells = c.scaling == Scaling::Strong ? double(c.nx) * c.ny * c.nz / ranks
                                                    : (double(c.nx) + 2) * (double(c.ny) + 2) * (double(c.nz) + 2);
  return 2.0 * c.num_vars * cells * sizeof(double);
}

}  // namespace amp::ghost
