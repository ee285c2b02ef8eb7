// SPDX-License-Identifier: BSD-3-Clause
// Moving block data from the old mesh and partition to the new ones after an AMR step: a one-off
// exchange plan (the interiors of old blocks another rank now needs, in old Morton order) and the
// remap tasks that build each new block from old blocks kept here or received.
#pragma once

#include <amp/miniapps/nobel/block_mesh.hpp>

#include <amp/comm/exchange_plan.hpp>
#include <amp/kernels/amr_remap.hpp>

#include <cstdint>
#include <vector>

namespace amp::nobel {

struct BlockMigration {
  // Per variable, the exchange storage is the old blocks (with ghosts) followed by received interiors.
  std::int64_t old_blocks_size = 0;
  std::int64_t exchange_size = 0;
  comm::ExchangePlan plan;
  std::vector<kernels::RemapTask> remap;  // one per new block of this rank
  int blocks_sent = 0;
  int blocks_received = 0;
};

BlockMigration build_block_migration(const BlockMesh& old_mesh, const BlockMesh& new_mesh, int block_cells,
                                     int num_vars, int rank, int ranks);

}  // namespace amp::nobel
