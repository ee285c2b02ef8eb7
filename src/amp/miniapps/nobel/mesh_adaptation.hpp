// SPDX-License-Identifier: BSD-3-Clause
// One AMR step on the replicated mesh: leaves the feature touches go one level finer, the others one
// level coarser (all eight siblings together), then leaves are refined until 2:1 face balance holds.
#pragma once

#include <amp/miniapps/nobel/block_mesh.hpp>

#include <functional>

namespace amp::nobel {

struct AdaptationCounts {
  int refined = 0;    // old leaves split into eight
  int coarsened = 0;  // groups of eight old leaves merged into one
};

using RefineTest = std::function<bool(const BlockKey&)>;

// The new mesh; every new leaf is an old leaf, a child of one, or the parent of eight.
BlockMesh adapt_mesh(const BlockMesh& old, const RefineTest& refine, AdaptationCounts& counts);

// The starting mesh: level-0 blocks adapted max_level times with the same test (a fixed pattern).
BlockMesh initial_mesh(const RootGrid& root, const RefineTest& refine);

}  // namespace amp::nobel
