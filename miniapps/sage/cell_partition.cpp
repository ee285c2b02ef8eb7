// Sorting every global cell by its curve key (each rank does it identically: no communication),
// inverting the order, and the chunk arithmetic.
#include "cell_partition.hpp"

#include "space_filling_curve.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace amp::sage {

std::int64_t GlobalMesh::neighbour(std::int64_t id, int face) const {
  auto c = coordinates(id);
  const int axis = face / 2;
  c[axis] += face % 2 == 0 ? -1 : 1;
  if (c[axis] < 0 || c[axis] >= cells[axis]) return -1;
  return this->id(c[0], c[1], c[2]);
}

CellPartition::CellPartition(const GlobalMesh& mesh, Partition partition, int ranks) : mesh_(mesh), ranks_(ranks) {
  const std::int64_t n = mesh.size();
  order_.resize(n);
  std::iota(order_.begin(), order_.end(), std::int64_t{0});
  if (partition != Partition::Slab) {
    const int bits = curve_bits(mesh.cells);
    std::vector<std::pair<std::uint64_t, std::int64_t>> keyed(n);
    for (std::int64_t id = 0; id < n; ++id) {
      const auto c = mesh.coordinates(id);
      const auto x = static_cast<std::uint32_t>(c[0]), y = static_cast<std::uint32_t>(c[1]),
                 z = static_cast<std::uint32_t>(c[2]);
      keyed[id] = {partition == Partition::Hilbert ? hilbert_key(x, y, z, bits) : morton_key(x, y, z, bits), id};
    }
    std::sort(keyed.begin(), keyed.end());
    for (std::int64_t p = 0; p < n; ++p) order_[p] = keyed[p].second;
  }
  position_.resize(n);
  for (std::int64_t p = 0; p < n; ++p) position_[order_[p]] = p;
}

int CellPartition::owner_of_position(std::int64_t position) const {
  int r = static_cast<int>(position * ranks_ / mesh_.size());
  while (r + 1 < ranks_ && chunk_begin(r + 1) <= position) ++r;
  while (r > 0 && chunk_begin(r) > position) --r;
  return r;
}

}  // namespace amp::sage
