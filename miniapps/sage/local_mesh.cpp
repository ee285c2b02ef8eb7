// Owned cells from the chunk; ghosts = off-rank face neighbours, sorted by curve position; send lists =
// owned cells with a face neighbour on the receiving rank (the mirror of that rank's ghosts from here).
#include "local_mesh.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace amp::sage {

LocalMesh build_local_mesh(const CellPartition& partition, int rank) {
  const GlobalMesh& mesh = partition.mesh();
  LocalMesh local;
  local.rank = rank;
  const std::int64_t begin = partition.chunk_begin(rank);
  local.owned = partition.chunk_begin(rank + 1) - begin;
  for (std::int64_t i = 0; i < local.owned; ++i) {
    local.curve_position.push_back(begin + i);
    local.global_id.push_back(partition.cell_at(begin + i));
  }

  // Off-rank neighbours by curve position, and the owned cells each neighbour rank needs.
  std::set<std::int64_t> ghost_positions;
  std::map<int, std::set<std::int64_t>> send_sets;
  for (std::int64_t i = 0; i < local.owned; ++i) {
    for (int face = 0; face < 6; ++face) {
      const std::int64_t id = mesh.neighbour(local.global_id[i], face);
      if (id < 0) continue;
      const std::int64_t position = partition.position_of(id);
      const int owner = partition.owner_of_position(position);
      if (owner == rank) continue;
      ghost_positions.insert(position);
      send_sets[owner].insert(i);
    }
  }
  std::map<std::int64_t, std::int64_t> slot_of_position;
  std::map<int, std::vector<std::int64_t>> recv_slots;
  for (std::int64_t position : ghost_positions) {
    const std::int64_t slot = local.local_cells();
    slot_of_position[position] = slot;
    local.curve_position.push_back(position);
    local.global_id.push_back(partition.cell_at(position));
    recv_slots[partition.owner_of_position(position)].push_back(slot);
  }

  local.face_neighbour.resize(local.owned);
  for (std::int64_t i = 0; i < local.owned; ++i) {
    for (int face = 0; face < 6; ++face) {
      const std::int64_t id = mesh.neighbour(local.global_id[i], face);
      std::int64_t index = -1;
      if (id >= 0) {
        const std::int64_t position = partition.position_of(id);
        index = position >= begin && position < begin + local.owned ? position - begin : slot_of_position.at(position);
      }
      local.face_neighbour[i][face] = index;
    }
  }

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
