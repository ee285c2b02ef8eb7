// SPDX-License-Identifier: BSD-3-Clause
// The feature AMR follows: a spherical front whose centre circles the domain (bobbing in z), one step per
// AMR step. Blocks its surface passes through are refined; the others coarsen.
#pragma once

#include <amp/miniapps/nobel/block_mesh.hpp>

namespace amp::nobel {

struct MovingFront {
  double radius = 0.25;  // fraction of the shortest domain side
  int period = 8;        // AMR steps per turn of the centre around the domain middle

  // True when the front's surface, at AMR step `amr_step`, passes through the block.
  bool touches(const BlockKey& key, const RootGrid& root, int block_cells, int amr_step) const;
};

}  // namespace amp::nobel
