// SPDX-License-Identifier: BSD-3-Clause
// The global cell order and its cut into ranks: the cells of the global box along the chosen curve
// (slab: plain x-fastest order), cut into contiguous chunks of floor/ceil(N/R) cells per rank.
// Nothing here touches every global cell: a curve position and the cell at a position come from a
// descent of the octree over the curve's cube (each octree node is one contiguous range of curve
// keys, and the mesh cells inside its box are counted in O(1)), so set-up memory and time follow the
// rank's own cells, not the machine.
#pragma once

#include <amp/miniapps/sage/sage_config.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace amp::sage {

// Global cell id of (x, y, z): x + X*(y + Y*z); independent of the partition, so initial values and
// checksums are too.
struct GlobalMesh {
  std::array<std::int64_t, 3> cells{1, 1, 1};
  std::int64_t size() const { return cells[0] * cells[1] * cells[2]; }
  std::int64_t id(std::int64_t x, std::int64_t y, std::int64_t z) const { return x + cells[0] * (y + cells[1] * z); }
  std::array<std::int64_t, 3> coordinates(std::int64_t id) const {
    return {id % cells[0], (id / cells[0]) % cells[1], id / (cells[0] * cells[1])};
  }
  // The face neighbour of `id` across face f (0:-x 1:+x 2:-y 3:+y 4:-z 5:+z), or -1 outside the box.
  std::int64_t neighbour(std::int64_t id, int face) const;
};

class CellPartition {
 public:
  CellPartition(const GlobalMesh& mesh, Partition partition, int ranks);

  const GlobalMesh& mesh() const { return mesh_; }
  int ranks() const { return ranks_; }
  // The global cell id at curve position p, and the curve position of a global cell id: O(log^2 N).
  std::int64_t cell_at(std::int64_t position) const;
  std::int64_t position_of(std::int64_t id) const;
  // The cells at curve positions [begin, end), in curve order: O(end - begin + log^2 N).
  std::vector<std::int64_t> cells_between(std::int64_t begin, std::int64_t end) const;
  // Rank r owns curve positions [chunk_begin(r), chunk_begin(r + 1)).
  std::int64_t chunk_begin(int rank) const { return mesh_.size() * rank / ranks_; }
  int owner_of_position(std::int64_t position) const;

 private:
  struct Node;  // an octree node: an aligned cube of the curve's 2^bits cube
  std::uint64_t key(const std::array<std::int64_t, 3>& c) const;
  std::int64_t cells_inside(const Node& node) const;
  // The node's eight children in curve order.
  std::array<Node, 8> children(const Node& node) const;
  void collect(const Node& node, std::int64_t& position, std::int64_t begin, std::int64_t end,
               std::vector<std::int64_t>& out) const;

  GlobalMesh mesh_;
  Partition partition_;
  int ranks_;
  int bits_ = 1;
};

}  // namespace amp::sage
