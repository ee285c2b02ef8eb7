// SPDX-License-Identifier: BSD-3-Clause
// Every (receiving block, face, source block) relation that involves this rank is visited in one global
// order (receiver's Morton index, face, sub-face), so a link's send pieces on one rank and receive pieces on
// the other come out in the same order without any communication.
#include <amp/miniapps/nobel/face_exchange.hpp>

#include <algorithm>
#include <map>

namespace amp::nobel {

namespace {

using kernels::AmrBlockShape;
using kernels::FaceFill;
using kernels::FaceNeighbour;

// Where the face cells of `face` of the block in storage slot `slot` start: interior layer
// (ghost = false) or ghost layer (ghost = true), at tangential offset (oa, ob).
std::int64_t face_start(const AmrBlockShape& s, int slot, int face, bool ghost, int oa, int ob) {
  const int axis = face / 2, side = face % 2;
  const auto t = tangential_axes(axis);
  const int layer = ghost ? (side == 0 ? 0 : s.n + 1) : (side == 0 ? 1 : s.n);
  return slot * s.storage() + layer * s.stride(axis) + (1 + oa) * s.stride(t[0]) + (1 + ob) * s.stride(t[1]);
}

// The leaves whose ghost faces involve this rank, ascending: its own [first, end) and every face
// neighbour of them (a neighbour's neighbour across the opposite face is the leaf again, so these are
// all the receivers of faces this rank sends). O(own blocks), not O(global blocks).
std::vector<int> relevant_receivers(const BlockMesh& mesh, int first, int end) {
  std::vector<int> receivers;
  for (int b = first; b < end; ++b) {
    receivers.push_back(b);
    for (int face = 0; face < 6; ++face) {
      const FaceNeighbours nb = mesh.neighbours(b, face);
      for (int q = 0; q < nb.count; ++q)
        if (nb.leaf[q] < first || nb.leaf[q] >= end) receivers.push_back(nb.leaf[q]);
    }
  }
  std::sort(receivers.begin(), receivers.end());
  receivers.erase(std::unique(receivers.begin(), receivers.end()), receivers.end());
  return receivers;
}

}  // namespace

FaceExchange build_face_exchange(const BlockMesh& mesh, int block_cells, int num_vars, int rank, int ranks) {
  const AmrBlockShape shape{block_cells};
  const int half = block_cells / 2;
  FaceExchange x;
  x.first_leaf = mesh.first_leaf(rank, ranks);
  x.local_blocks = mesh.first_leaf(rank + 1, ranks) - x.first_leaf;
  x.plan.num_vars = num_vars;
  x.plan.num_phases = 1;
  std::int64_t staging = 0;
  std::vector<kernels::GhostFillTask> remote_tasks;  // source offsets relative to the staging area
  std::map<int, comm::Link> links;
  auto link = [&](int peer) -> comm::Link& {
    comm::Link& l = links[peer];
    l.peer = peer;
    return l;
  };

  for (const int receiver : relevant_receivers(mesh, x.first_leaf, x.first_leaf + x.local_blocks)) {
    const int receiver_rank = mesh.owner(receiver, ranks);
    const BlockKey& rk = mesh.leaves()[receiver];
    if (receiver_rank == rank) {
      kernels::AmrBlock block;
      block.level = rk.level;
      for (int a = 0; a < 3; ++a) block.position[a] = rk.at[a];
      for (int f = 0; f < 6; ++f) block.face[f] = static_cast<int>(mesh.neighbours(receiver, f).kind);
      x.blocks.push_back(block);
    }
    for (int face = 0; face < 6; ++face) {
      const FaceNeighbours nb = mesh.neighbours(receiver, face);
      if (nb.kind == FaceNeighbour::DomainBoundary) continue;
      const auto t = tangential_axes(face / 2);
      const int opposite = face ^ 1;
      for (int q = 0; q < nb.count; ++q) {
        const int source = nb.leaf[q];
        const int source_rank = mesh.owner(source, ranks);
        if (receiver_rank != rank && source_rank != rank) continue;
        const BlockKey& sk = mesh.leaves()[source];
        // The part of the source's face that travels, and where it lands in the receiver's ghost face.
        int src_oa = 0, src_ob = 0, dst_oa = 0, dst_ob = 0, extent = block_cells, region = block_cells;
        FaceFill kind = FaceFill::Copy;
        if (nb.kind == FaceNeighbour::Coarser) {
          kind = FaceFill::Prolong;
          src_oa = (rk.at[t[0]] & 1) * half;
          src_ob = (rk.at[t[1]] & 1) * half;
          region = half;
        } else if (nb.kind == FaceNeighbour::Finer) {
          kind = FaceFill::Restrict;
          dst_oa = (sk.at[t[0]] & 1) * half;
          dst_ob = (sk.at[t[1]] & 1) * half;
          extent = half;
        }
        const std::int64_t sa = shape.stride(t[0]), sb = shape.stride(t[1]);
        if (source_rank == rank && receiver_rank != rank) {
          const std::int64_t start = face_start(shape, source - x.first_leaf, opposite, false, src_oa, src_ob);
          link(receiver_rank).send.push_back(comm::Piece::block(start, region, sa, region, sb));
          ++x.sent_faces;
          continue;
        }
        kernels::GhostFillTask task;
        task.kind = static_cast<int>(kind);
        task.extent = extent;
        task.dst_base = face_start(shape, receiver - x.first_leaf, face, true, dst_oa, dst_ob);
        task.dst_a = sa;
        task.dst_b = sb;
        if (source_rank == rank) {
          task.src_base = face_start(shape, source - x.first_leaf, opposite, false, src_oa, src_ob);
          task.src_a = sa;
          task.src_b = sb;
          x.fill_tasks.push_back(task);
          ++x.local_faces;
        } else {
          task.src_base = staging;
          task.src_a = 1;
          task.src_b = region;
          remote_tasks.push_back(task);
          link(source_rank).recv.push_back(comm::Piece::strided(staging, std::int64_t{region} * region));
          staging += std::int64_t{region} * region;
          ++x.remote_faces;
        }
      }
    }
  }
  // Staging lies after the blocks: shift the receive pieces and the remote tasks' sources.
  const std::int64_t blocks_size = x.local_blocks * shape.storage();
  for (auto& [peer, l] : links) {
    for (comm::Piece& p : l.recv) p.offset += blocks_size;
    x.plan.links.push_back(std::move(l));
  }
  for (kernels::GhostFillTask& task : remote_tasks) {
    task.src_base += blocks_size;
    x.fill_tasks.push_back(task);
  }
  x.storage_size = blocks_size + staging;
  return x;
}

}  // namespace amp::nobel
