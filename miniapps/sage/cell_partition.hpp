// The global cell order and its cut into ranks: every cell of the global box sorted along the
// chosen curve (slab: plain x-fastest order), then contiguous chunks of floor/ceil(N/R) cells per rank.
#pragma once

#include "sage_config.hpp"

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
  // The global cell id at curve position p, and the curve position of a global cell id.
  std::int64_t cell_at(std::int64_t position) const { return order_[position]; }
  std::int64_t position_of(std::int64_t id) const { return position_[id]; }
  // Rank r owns curve positions [chunk_begin(r), chunk_begin(r + 1)).
  std::int64_t chunk_begin(int rank) const { return mesh_.size() * rank / ranks_; }
  int owner_of_position(std::int64_t position) const;

 private:
  GlobalMesh mesh_;
  int ranks_;
  std::vector<std::int64_t> order_;
  std::vector<std::int64_t> position_;
};

}  // namespace amp::sage
