// SPDX-License-Identifier: BSD-3-Clause
// Every (new owner, old source block) pair of the whole mesh, sorted, gives both sides of each link
// the same piece order without communication; a block needed twice by one rank travels once.
#include <amp/miniapps/nobel/block_migration.hpp>

#include <map>
#include <set>
#include <stdexcept>

namespace amp::nobel {

namespace {

// The old blocks a new leaf is built from, and how.
kernels::BlockRemap sources_of(const BlockMesh& old_mesh, const BlockKey& key, std::vector<int>& sources) {
  sources.clear();
  if (const int same = old_mesh.find(key); same >= 0) {
    sources.push_back(same);
    return kernels::BlockRemap::Keep;
  }
  if (key.level > 0) {
    if (const int parent = old_mesh.find(key.parent()); parent >= 0) {
      sources.push_back(parent);
      return kernels::BlockRemap::Refine;
    }
  }
  for (int c = 0; c < 8; ++c) {
    const int child = old_mesh.find(key.child(c));
    if (child < 0) throw std::logic_error("block migration: a new block is more than one level from the old mesh");
    sources.push_back(child);
  }
  return kernels::BlockRemap::Coarsen;
}

}  // namespace

BlockMigration build_block_migration(const BlockMesh& old_mesh, const BlockMesh& new_mesh, int block_cells,
                                     int num_vars, int rank, int ranks) {
  const kernels::AmrBlockShape shape{block_cells};
  const std::int64_t interior = shape.cells();
  const int old_first = old_mesh.first_leaf(rank, ranks);
  BlockMigration m;
  m.old_blocks_size = (old_mesh.first_leaf(rank + 1, ranks) - old_first) * shape.storage();
  m.plan.num_vars = num_vars;
  m.plan.num_phases = 1;

  std::set<std::pair<int, int>> needed;  // (new owner, old block)
  std::vector<int> sources;
  for (int b = 0; b < new_mesh.size(); ++b) {
    sources_of(old_mesh, new_mesh.leaves()[b], sources);
    for (int s : sources) needed.emplace(new_mesh.owner(b, ranks), s);
  }
  std::map<int, comm::Link> links;
  std::map<int, std::int64_t> received_at;  // old block -> offset of its received interior
  std::int64_t next_slot = m.old_blocks_size;
  for (const auto& [new_owner, old_block] : needed) {
    const int old_owner = old_mesh.owner(old_block, ranks);
    if (old_owner == new_owner) continue;
    if (old_owner == rank) {
      std::vector<std::int64_t> cells;
      cells.reserve(interior);
      const std::int64_t slot = (old_block - old_first) * shape.storage();
      for (int k = 1; k <= block_cells; ++k)
        for (int j = 1; j <= block_cells; ++j)
          for (int i = 1; i <= block_cells; ++i)
            cells.push_back(slot + i * shape.stride(0) + j * shape.stride(1) + k * shape.stride(2));
      comm::Link& l = links[new_owner];
      l.peer = new_owner;
      l.send.push_back(comm::Piece::index_list(std::move(cells)));
      ++m.blocks_sent;
    } else if (new_owner == rank) {
      comm::Link& l = links[old_owner];
      l.peer = old_owner;
      l.recv.push_back(comm::Piece::strided(next_slot, interior));
      received_at[old_block] = next_slot;
      next_slot += interior;
      ++m.blocks_received;
    }
  }
  for (auto& [peer, l] : links) m.plan.links.push_back(std::move(l));
  m.exchange_size = next_slot;

  const int new_first = new_mesh.first_leaf(rank, ranks), new_end = new_mesh.first_leaf(rank + 1, ranks);
  for (int b = new_first; b < new_end; ++b) {
    const BlockKey& key = new_mesh.leaves()[b];
    kernels::RemapTask task;
    task.kind = static_cast<int>(sources_of(old_mesh, key, sources));
    for (int a = 0; a < 3; ++a) task.octant[a] = key.at[a] & 1;
    for (std::size_t s = 0; s < sources.size(); ++s) {
      if (old_mesh.owner(sources[s], ranks) == rank) {
        task.source_base[s] =
            (sources[s] - old_first) * shape.storage() + shape.stride(0) + shape.stride(1) + shape.stride(2);
        task.source_j[s] = shape.stride(1);
        task.source_k[s] = shape.stride(2);
      } else {
        task.source_base[s] = received_at.at(sources[s]);
        task.source_j[s] = block_cells;
        task.source_k[s] = std::int64_t{block_cells} * block_cells;
      }
    }
    m.remap.push_back(task);
  }
  return m;
}

}  // namespace amp::nobel
