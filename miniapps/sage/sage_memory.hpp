// What amp-sage's cells take per rank (two fields per variable, six face indices per cell), for the
// memory check made before the mesh is built. A lower bound: ghosts, faces and lists come on top.
#pragma once

#include "sage_config.hpp"

#include <cstdint>

namespace amp::sage {

inline double cell_bytes_per_rank(const SageConfig& c, int ranks) {
  const double owned = double(c.total_cells()) / ranks;
  return owned * (2.0 * c.num_vars * sizeof(double) + 6 * sizeof(std::int64_t));
}

}  // namespace amp::sage
