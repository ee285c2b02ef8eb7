// SPDX-License-Identifier: BSD-3-Clause
// Curve positions by octree descent. A node of the octree over the curve's 2^bits cube is an aligned
// cube whose cells share the top 3*level bits of their curve key (true of Morton order, and of
// Skilling's Hilbert transform, whose step at each bit changes only the bits below it); its children
// are ordered by those key prefixes, and the mesh cells inside it are a product of three clipped
// extents. Slab order is the global id itself.
#include <amp/miniapps/sage/cell_partition.hpp>

#include <amp/miniapps/sage/space_filling_curve.hpp>

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace amp::sage {

struct CellPartition::Node {
  std::array<std::int64_t, 3> corner{0, 0, 0};
  std::int64_t side = 1;
  std::uint64_t prefix = 0;  // the key bits every cell of the node shares (key >> 3 * log2(side))
};

std::int64_t GlobalMesh::neighbour(std::int64_t id, int face) const {
  auto c = coordinates(id);
  const int axis = face / 2;
  c[axis] += face % 2 == 0 ? -1 : 1;
  if (c[axis] < 0 || c[axis] >= cells[axis]) return -1;
  return this->id(c[0], c[1], c[2]);
}

CellPartition::CellPartition(const GlobalMesh& mesh, Partition partition, int ranks)
    : mesh_(mesh), partition_(partition), ranks_(ranks), bits_(curve_bits(mesh.cells)) {}

std::uint64_t CellPartition::key(const std::array<std::int64_t, 3>& c) const {
  const auto x = static_cast<std::uint32_t>(c[0]), y = static_cast<std::uint32_t>(c[1]),
             z = static_cast<std::uint32_t>(c[2]);
  return partition_ == Partition::Hilbert ? hilbert_key(x, y, z, bits_) : morton_key(x, y, z, bits_);
}

std::int64_t CellPartition::cells_inside(const Node& node) const {
  std::int64_t count = 1;
  for (int a = 0; a < 3; ++a)
    count *= std::max<std::int64_t>(0, std::min(node.corner[a] + node.side, mesh_.cells[a]) - node.corner[a]);
  return count;
}

std::array<CellPartition::Node, 8> CellPartition::children(const Node& node) const {
  std::array<Node, 8> out;
  const std::int64_t half = node.side / 2;
  int shift = 0;
  while ((std::int64_t{1} << shift) < half) ++shift;
  for (int c = 0; c < 8; ++c) {
    Node& child = out[c];
    child.side = half;
    for (int a = 0; a < 3; ++a) child.corner[a] = node.corner[a] + ((c >> a) & 1) * half;
    child.prefix = key(child.corner) >> (3 * shift);
  }
  std::sort(out.begin(), out.end(), [](const Node& a, const Node& b) { return a.prefix < b.prefix; });
  return out;
}

std::int64_t CellPartition::position_of(std::int64_t id) const {
  if (partition_ == Partition::Slab) return id;
  const auto c = mesh_.coordinates(id);
  Node node{{0, 0, 0}, std::int64_t{1} << bits_, 0};
  std::int64_t before = 0;
  while (node.side > 1) {
    for (const Node& child : children(node)) {
      const bool holds = c[0] >= child.corner[0] && c[0] < child.corner[0] + child.side && c[1] >= child.corner[1] &&
                         c[1] < child.corner[1] + child.side && c[2] >= child.corner[2] &&
                         c[2] < child.corner[2] + child.side;
      if (holds) {
        node = child;
        break;
      }
      before += cells_inside(child);
    }
  }
  return before;
}

std::int64_t CellPartition::cell_at(std::int64_t position) const {
  if (position < 0 || position >= mesh_.size()) throw std::out_of_range("curve position out of range");
  if (partition_ == Partition::Slab) return position;
  Node node{{0, 0, 0}, std::int64_t{1} << bits_, 0};
  while (node.side > 1) {
    for (const Node& child : children(node)) {
      const std::int64_t inside = cells_inside(child);
      if (position < inside) {
        node = child;
        break;
      }
      position -= inside;
    }
  }
  return mesh_.id(node.corner[0], node.corner[1], node.corner[2]);
}

void CellPartition::collect(const Node& node, std::int64_t& position, std::int64_t begin, std::int64_t end,
                            std::vector<std::int64_t>& out) const {
  const std::int64_t inside = cells_inside(node);
  if (inside == 0 || position >= end) return;
  if (position + inside <= begin) {
    position += inside;
    return;
  }
  if (node.side == 1) {
    out.push_back(mesh_.id(node.corner[0], node.corner[1], node.corner[2]));
    ++position;
    return;
  }
  for (const Node& child : children(node)) collect(child, position, begin, end, out);
}

std::vector<std::int64_t> CellPartition::cells_between(std::int64_t begin, std::int64_t end) const {
  std::vector<std::int64_t> cells;
  cells.reserve(static_cast<std::size_t>(std::max<std::int64_t>(0, end - begin)));
  if (partition_ == Partition::Slab) {
    for (std::int64_t p = begin; p < end; ++p) cells.push_back(p);
    return cells;
  }
  std::int64_t position = 0;
  collect(Node{{0, 0, 0}, std::int64_t{1} << bits_, 0}, position, begin, end, cells);
  return cells;
}

int CellPartition::owner_of_position(std::int64_t position) const {
  int r = static_cast<int>(position * ranks_ / mesh_.size());
  while (r + 1 < ranks_ && chunk_begin(r + 1) <= position) ++r;
  while (r > 0 && chunk_begin(r) > position) --r;
  return r;
}

}  // namespace amp::sage
