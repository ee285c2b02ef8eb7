// SPDX-License-Identifier: BSD-3-Clause
// What amp-nobel's mesh may take per rank at its most refined, for the memory check made before the
// mesh is built: the fields of the worst-case leaf count (two per variable, ghost layer included)
// spread over the ranks, or the most one rank can hold between rebalances, plus the block keys every
// rank holds for the whole mesh.
#pragma once

#include <amp/miniapps/nobel/nobel_config.hpp>

#include <algorithm>
#include <cmath>

namespace amp::nobel {

// Leaves of the most refined mesh the moving front can make: every level-0 block, and at each finer
// level the children of the blocks the front's sphere touches (about 1.5 x its area / block face,
// the mean number of cubes a surface crosses), twice over for the 2:1 balance around them; never
// more than the level holds. About twice what the decks' meshes reach.
inline double worst_case_blocks(const NobelConfig& c) {
  const double pi = 3.14159265358979323846;
  const double root_blocks = double(c.root_blocks[0]) * c.root_blocks[1] * c.root_blocks[2];
  const double radius = c.front_radius * std::min({c.root_blocks[0], c.root_blocks[1], c.root_blocks[2]}) * c.block;
  double blocks = root_blocks;
  for (int level = 1; level <= c.max_level; ++level) {
    const double parent_width = c.block / std::pow(2.0, level - 1);
    const double touched = 1.5 * 4 * pi * radius * radius / (parent_width * parent_width);
    blocks += std::min(root_blocks * std::pow(8.0, level), 2 * 8 * touched);
  }
  return blocks;
}

// The whole mesh's keys and index every rank holds, the set-up's own memory (56 bytes per block while
// adapting; README "amp-nobel"; what --plan-only and a synthesis need).
inline double mesh_key_bytes(const NobelConfig& c) { return 56.0 * worst_case_blocks(c); }

// Blocks one rank may hold at the worst-case mesh. Rebalanced at every AMR step: an equal share. Between
// rebalances a rank keeps a Morton-key range that held an equal share of leaves, so at most that many
// level-0 blocks' volume plus the one its upper end lies in (a coarsening can carry the end to the next
// level-0 boundary, never past it), each refined to max_level, and never more than the whole mesh.
inline double blocks_per_rank_bound(const NobelConfig& c, int ranks) {
  const double blocks = worst_case_blocks(c);
  const double share = std::max(1.0, blocks / ranks);
  if (c.rebalance_interval == 1 || c.amr_interval == 0) return share;
  return std::min(blocks, (std::ceil(share) + 1) * std::pow(8.0, c.max_level));
}

// Bytes one rank needs at the worst-case mesh: its blocks' fields and the mesh's keys.
inline double block_bytes_per_rank(const NobelConfig& c, int ranks) {
  const double storage = double(c.block + 2) * (c.block + 2) * (c.block + 2);
  return 2.0 * c.num_vars * blocks_per_rank_bound(c, ranks) * storage * sizeof(double) + mesh_key_bytes(c);
}

}  // namespace amp::nobel
