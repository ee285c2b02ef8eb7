// SPDX-License-Identifier: BSD-3-Clause
// What amp-ghost's fields take per rank (a grid with ghost layers per variable, and a second one unless the
// sweep is in place: kernels::sweeps_in_place), for the memory check made before anything is allocated.
// A lower bound: the yz ghosts' side arrays of a sweep in place (2 / (nx+2) of a grid), plans and buffers come
// on top.
#pragma once

#include <amp/miniapps/ghost/ghost_config.hpp>

#include <amp/kernels/stencil.hpp>

namespace amp::ghost {

inline double field_bytes_per_rank(const GhostConfig& c, int ranks) {
  const double cells = c.scaling == Scaling::Strong ? double(c.nx) * c.ny * c.nz / ranks
                                                    : (double(c.nx) + 2) * (double(c.ny) + 2) * (double(c.nz) + 2);
  // A weak-scaled block is the deck's; a strong-scaled rank's depends on the process grid, so a lower
  // bound counts one grid wherever the stencil may be swept in place.
  const bool in_place = c.scaling == Scaling::Strong
                            ? kernels::sweeps_in_place(c.stencil, kernels::BlockExtent{256, 256, 256})
                            : kernels::sweeps_in_place(c.stencil, kernels::BlockExtent{c.nx, c.ny, c.nz});
  return (in_place ? 1.0 : 2.0) * c.num_vars * cells * sizeof(double);
}

}  // namespace amp::ghost
