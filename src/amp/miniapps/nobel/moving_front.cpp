// SPDX-License-Identifier: BSD-3-Clause
// Box-sphere-surface test in level-0 cell units: the surface meets the box when the nearest point of
// the box is inside the sphere and the farthest is outside.
#include <amp/miniapps/nobel/moving_front.hpp>

#include <algorithm>
#include <cmath>

namespace amp::nobel {

bool MovingFront::touches(const BlockKey& key, const RootGrid& root, int block_cells, int amr_step) const {
  const double pi = 3.14159265358979323846;
  double extent[3], centre[3];
  for (int a = 0; a < 3; ++a) extent[a] = static_cast<double>(root.blocks[a]) * block_cells;
  const double shortest = std::min({extent[0], extent[1], extent[2]});
  const double angle = 2.0 * pi * amr_step / period;
  centre[0] = extent[0] * (0.5 + 0.25 * std::cos(angle));
  centre[1] = extent[1] * (0.5 + 0.25 * std::sin(angle));
  centre[2] = extent[2] * (0.5 + 0.125 * std::sin(2.0 * angle));  // off the midplane: no mirror symmetry
  const double r = radius * shortest;
  const double width = static_cast<double>(block_cells) / static_cast<double>(1 << key.level);
  double near2 = 0, far2 = 0;
  for (int a = 0; a < 3; ++a) {
    const double lo = key.at[a] * width, hi = lo + width;
    const double nearest = std::clamp(centre[a], lo, hi);
    const double farthest = std::fabs(centre[a] - lo) > std::fabs(centre[a] - hi) ? lo : hi;
    near2 += (nearest - centre[a]) * (nearest - centre[a]);
    far2 += (farthest - centre[a]) * (farthest - centre[a]);
  }
  return near2 <= r * r && far2 >= r * r;
}

}  // namespace amp::nobel
