// SPDX-License-Identifier: BSD-3-Clause
// What one rank's blocks need each step: ghost-face fill tasks (copies, restrictions, prolongations),
// the exchange plan (one piece per remote block face: svcp sends it as one message per variable) and
// the staging slots where remote faces arrive. Storage per variable: owned blocks, then staging.
#pragma once

#include <amp/miniapps/nobel/block_mesh.hpp>

#include <amp/comm/exchange_plan.hpp>
#include <amp/kernels/amr_block.hpp>
#include <amp/kernels/block_ghost_fill.hpp>

#include <cstdint>
#include <vector>

namespace amp::nobel {

struct FaceExchange {
  int first_leaf = 0;  // global index of this rank's first block
  int local_blocks = 0;
  std::int64_t storage_size = 0;                   // doubles per variable: blocks (with ghosts) + staging
  std::vector<kernels::AmrBlock> blocks;           // per owned block
  std::vector<kernels::GhostFillTask> fill_tasks;  // every ghost face of every owned block
  comm::ExchangePlan plan;
  int local_faces = 0;   // ghost faces filled from a block on this rank
  int remote_faces = 0;  // ghost faces received (= recv pieces)
  int sent_faces = 0;    // faces sent (= send pieces)
};

FaceExchange build_face_exchange(const BlockMesh& mesh, int block_cells, int num_vars, int rank, int ranks);

}  // namespace amp::nobel
