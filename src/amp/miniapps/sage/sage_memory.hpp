// SPDX-License-Identifier: BSD-3-Clause
// What amp-sage's cells take per rank (two fields per variable, six face indices per cell), for the
// memory check made before the mesh is built. A lower bound: ghosts, faces and lists come on top.
#pragma once

#include <amp/miniapps/sage/sage_config.hpp>

#include <cstdint>

namespace amp::sage {

// The mesh alone (what the set-up builds: six face indices per owned cell; --plan-only, a synthesis).
inline double mesh_bytes_per_rank(const SageConfig& c, int ranks) {
  return double(c.total_cells()) / ranks * 6 * sizeof(std::int64_t);
}

inline double cell_bytes_per_rank(const SageConfig& c, int ranks) {
  const double owned = double(c.total_cells()) / ranks;
  return owned * 2.0 * c.num_vars * sizeof(double) + mesh_bytes_per_rank(c, ranks);
}

}  // namespace amp::sage
