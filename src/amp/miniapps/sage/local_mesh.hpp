// SPDX-License-Identifier: BSD-3-Clause
// One rank's share of the mesh: its owned cells (a contiguous chunk of the curve order), the ghost
// cells their faces touch, each owned cell's six face neighbours, and per neighbour rank the send and
// receive (scatter) index lists. Built once at start-up from the global partition, no communication.
#pragma once

#include <amp/miniapps/sage/cell_partition.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace amp::sage {

struct NeighbourRank {
  int rank = -1;
  // Local indices of the owned cells that some cell of `rank` shares a face with, ascending (= curve
  // order). The neighbour receives them, in this order, into its ghost slots.
  std::vector<std::int64_t> send_cells;
  // Local ghost slots holding `rank`'s cells, in `rank`'s curve order (one contiguous range of slots).
  std::vector<std::int64_t> recv_slots;
};

struct LocalMesh {
  int rank = 0;
  std::int64_t owned = 0;                                   // owned cells are local indices [0, owned)
  std::vector<std::int64_t> global_id;                      // per local cell (owned, then ghosts)
  std::vector<std::int64_t> curve_position;                 // per local cell
  std::vector<std::array<std::int64_t, 6>> face_neighbour;  // per owned cell, faces -x,+x,-y,+y,-z,+z:
                                                            // local index, or -1 at the global boundary
  std::vector<NeighbourRank> neighbours;                    // ascending rank

  std::int64_t local_cells() const { return static_cast<std::int64_t>(global_id.size()); }
  std::int64_t ghosts() const { return local_cells() - owned; }
};

// Ghost slots are ordered by curve position, which groups them by owner (chunks are contiguous) and
// puts each owner's cells in that owner's storage order.
LocalMesh build_local_mesh(const CellPartition& partition, int rank);

// Splits ascending indices into maximal runs of consecutive values: (first, length) pairs.
std::vector<std::array<std::int64_t, 2>> consecutive_runs(const std::vector<std::int64_t>& ascending);

}  // namespace amp::sage
