// SPDX-License-Identifier: BSD-3-Clause
// Owned cells from the chunk; ghosts = off-rank face neighbours, sorted by curve position; send lists =
// owned cells with a face neighbour on the receiving rank (the mirror of that rank's ghosts from here).
// Work and memory follow the rank's own cells: only off-rank neighbours get a curve position.
#include <amp/miniapps/sage/local_mesh.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <utility>

namespace amp::sage {

LocalMesh build_local_mesh(const CellPartition& partition, int rank) {
  const GlobalMesh& mesh = partition.mesh();
  LocalMesh local;
  local.rank = rank;
  const std::int64_t begin = partition.chunk_begin(rank);
  local.global_id = partition.cells_between(begin, partition.chunk_begin(rank + 1));
  local.owned = local.local_cells();
  for (std::int64_t i = 0; i < local.owned; ++i) local.curve_position.push_back(begin + i);

  // Owned cells by position in their bounding box (a curve chunk is compact), so that finding a
  // neighbour's local index costs one load and only off-rank neighbours need a curve position.
  std::vector<std::array<std::int64_t, 3>> coordinates(local.owned);
  std::array<std::int64_t, 3> low = mesh.cells, extent{0, 0, 0};
  for (std::int64_t i = 0; i < local.owned; ++i) {
    coordinates[i] = mesh.coordinates(local.global_id[i]);
    for (int a = 0; a < 3; ++a) {
      low[a] = std::min(low[a], coordinates[i][a]);
      extent[a] = std::max(extent[a], coordinates[i][a] + 1);
    }
  }
  for (int a = 0; a < 3; ++a) extent[a] = std::max<std::int64_t>(0, extent[a] - low[a]);
  auto box_slot = [&](const std::array<std::int64_t, 3>& c) -> std::int64_t {
    for (int a = 0; a < 3; ++a)
      if (c[a] < low[a] || c[a] >= low[a] + extent[a]) return -1;
    return (c[0] - low[0]) + extent[0] * ((c[1] - low[1]) + extent[1] * (c[2] - low[2]));
  };
  std::vector<std::int32_t> owned_in_box(static_cast<std::size_t>(extent[0] * extent[1] * extent[2]), -1);
  for (std::int64_t i = 0; i < local.owned; ++i) owned_in_box[box_slot(coordinates[i])] = static_cast<std::int32_t>(i);

  // Each owned cell's faces: an owned neighbour's index, -1 at the global boundary, or (for now)
  // kGhost, with the ghost's global id kept aside; and the owned cells each neighbour rank needs.
  constexpr std::int64_t kGhost = -2;
  std::map<std::int64_t, std::int64_t> ghost_position_of;  // global id -> curve position
  std::map<int, std::set<std::int64_t>> send_sets;
  std::vector<std::pair<std::int64_t, std::int64_t>> ghost_faces;  // (i * 6 + face, ghost global id)
  local.face_neighbour.resize(local.owned);
  for (std::int64_t i = 0; i < local.owned; ++i) {
    for (int face = 0; face < 6; ++face) {
      std::array<std::int64_t, 3> c = coordinates[i];
      const int axis = face / 2;
      c[axis] += face % 2 == 0 ? -1 : 1;
      std::int64_t& neighbour = local.face_neighbour[i][face];
      if (c[axis] < 0 || c[axis] >= mesh.cells[axis]) {
        neighbour = -1;
        continue;
      }
      const std::int64_t slot = box_slot(c);
      if (slot >= 0 && owned_in_box[slot] >= 0) {
        neighbour = owned_in_box[slot];
        continue;
      }
      const std::int64_t id = mesh.id(c[0], c[1], c[2]);
      auto known = ghost_position_of.find(id);
      const std::int64_t position =
          known != ghost_position_of.end() ? known->second : (ghost_position_of[id] = partition.position_of(id));
      send_sets[partition.owner_of_position(position)].insert(i);
      ghost_faces.emplace_back(i * 6 + face, id);
      neighbour = kGhost;
    }
  }

  // Ghost slots in curve order, which groups them by owner and keeps each owner's storage order.
  std::map<std::int64_t, std::int64_t> ghost_at;  // curve position -> global id
  for (const auto& [id, position] : ghost_position_of) ghost_at[position] = id;
  std::map<std::int64_t, std::int64_t> slot_of_id;
  std::map<int, std::vector<std::int64_t>> recv_slots;
  for (const auto& [position, id] : ghost_at) {
    const std::int64_t slot = local.local_cells();
    slot_of_id[id] = slot;
    local.curve_position.push_back(position);
    local.global_id.push_back(id);
    recv_slots[partition.owner_of_position(position)].push_back(slot);
  }
  for (const auto& [where, id] : ghost_faces) local.face_neighbour[where / 6][where % 6] = slot_of_id.at(id);

  for (const auto& [peer, cells] : send_sets) {  // face adjacency is symmetric: same peers both ways
    NeighbourRank n;
    n.rank = peer;
    n.send_cells.assign(cells.begin(), cells.end());
    n.recv_slots = recv_slots.at(peer);
    local.neighbours.push_back(std::move(n));
  }
  return local;
}

std::vector<std::array<std::int64_t, 2>> consecutive_runs(const std::vector<std::int64_t>& ascending) {
  std::vector<std::array<std::int64_t, 2>> runs;
  for (std::int64_t index : ascending) {
    if (!runs.empty() && runs.back()[0] + runs.back()[1] == index)
      ++runs.back()[1];
    else
      runs.push_back({index, 1});
  }
  return runs;
}

}  // namespace amp::sage
