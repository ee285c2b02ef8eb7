// SPDX-License-Identifier: BSD-3-Clause
// Leaf lookup by packed key, neighbours through the same level, the parent or the four adjacent
// children, the Morton sort that gives the rank partition its locality, and the partition itself.
#include <amp/miniapps/nobel/block_mesh.hpp>

#include <amp/miniapps/nobel/packed_key_set.hpp>

#include <algorithm>
#include <stdexcept>

namespace amp::nobel {

std::uint64_t BlockKey::packed() const {
  return (static_cast<std::uint64_t>(level) << 60) | (static_cast<std::uint64_t>(at[0]) << 40) |
         (static_cast<std::uint64_t>(at[1]) << 20) | static_cast<std::uint64_t>(at[2]);
}

BlockKey BlockKey::unpacked(std::uint64_t p) {
  const std::uint64_t field = (std::uint64_t{1} << 20) - 1;
  return {static_cast<int>(p >> 60),
          {static_cast<int>(p >> 40 & field), static_cast<int>(p >> 20 & field), static_cast<int>(p & field)}};
}

BlockKey BlockKey::parent() const { return {level - 1, {at[0] >> 1, at[1] >> 1, at[2] >> 1}}; }

BlockKey BlockKey::child(int c) const {
  return {level + 1, {2 * at[0] + (c & 1), 2 * at[1] + ((c >> 1) & 1), 2 * at[2] + ((c >> 2) & 1)}};
}

bool RootGrid::inside(const BlockKey& key) const {
  for (int a = 0; a < 3; ++a)
    if (key.at[a] < 0 || key.at[a] >= (blocks[a] << key.level)) return false;
  return true;
}

std::array<int, 2> tangential_axes(int axis) {
  if (axis == 0) return {1, 2};
  if (axis == 1) return {0, 2};
  return {0, 1};
}

namespace {

// Bits 0..20 of v moved to bits 0, 3, 6, ..., 60.
std::uint64_t spread_bits(std::uint64_t v) {
  v &= 0x1fffff;
  v = (v | v << 32) & 0x1f00000000ffffull;
  v = (v | v << 16) & 0x1f0000ff0000ffull;
  v = (v | v << 8) & 0x100f00f00f00f00full;
  v = (v | v << 4) & 0x10c30c30c30c30c3ull;
  v = (v | v << 2) & 0x1249249249249249ull;
  return v;
}

}  // namespace

std::uint64_t morton_key(const BlockKey& key, int max_level) {
  std::uint64_t code = 0;
  for (int a = 0; a < 3; ++a)
    code |= spread_bits(static_cast<std::uint64_t>(key.at[a]) << (max_level - key.level)) << a;
  return code;
}

BlockMesh::BlockMesh(RootGrid root, std::vector<BlockKey> leaves) : root_(root), leaves_(std::move(leaves)) {
  std::vector<std::pair<std::uint64_t, BlockKey>> keyed;
  keyed.reserve(leaves_.size());
  for (const BlockKey& key : leaves_) keyed.emplace_back(morton_key(key, root_.max_level), key);
  std::sort(keyed.begin(), keyed.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  for (std::size_t i = 0; i < keyed.size(); ++i) leaves_[i] = keyed[i].second;
  std::vector<std::pair<std::uint64_t, BlockKey>>().swap(keyed);
  std::size_t capacity = 16;
  while (capacity < 2 * leaves_.size()) capacity *= 2;
  index_.assign(capacity, -1);
  for (std::size_t i = 0; i < leaves_.size(); ++i) {
    const std::uint64_t packed = leaves_[i].packed();
    std::size_t slot = PackedKeySet::home_slot(packed, capacity);
    for (; index_[slot] >= 0; slot = (slot + 1) & (capacity - 1))
      if (leaves_[index_[slot]] == leaves_[i]) throw std::logic_error("block mesh: a leaf is listed twice");
    index_[slot] = static_cast<int>(i);
  }
}

int BlockMesh::find(const BlockKey& key) const {
  const std::size_t capacity = index_.size();
  for (std::size_t slot = PackedKeySet::home_slot(key.packed(), capacity); index_[slot] >= 0;
       slot = (slot + 1) & (capacity - 1))
    if (leaves_[index_[slot]] == key) return index_[slot];
  return -1;
}

FaceNeighbours BlockMesh::neighbours(int leaf, int face) const {
  const int axis = face / 2, side = face % 2;
  const BlockKey& self = leaves_[leaf];
  BlockKey across = self;
  across.at[axis] += side == 0 ? -1 : 1;
  FaceNeighbours result;
  if (!root_.inside(across)) return result;
  if (const int same = find(across); same >= 0) {
    result.kind = kernels::FaceNeighbour::SameLevel;
    result.count = 1;
    result.leaf[0] = same;
    return result;
  }
  if (self.level > 0) {
    if (const int coarse = find(across.parent()); coarse >= 0) {
      result.kind = kernels::FaceNeighbour::Coarser;
      result.count = 1;
      result.leaf[0] = coarse;
      return result;
    }
  }
  const auto t = tangential_axes(axis);
  result.kind = kernels::FaceNeighbour::Finer;
  result.count = 4;
  for (int q = 0; q < 4; ++q) {
    BlockKey fine{self.level + 1, {2 * across.at[0], 2 * across.at[1], 2 * across.at[2]}};
    fine.at[axis] += side == 0 ? 1 : 0;  // the children of `across` that touch this face
    fine.at[t[0]] += q & 1;
    fine.at[t[1]] += q >> 1;
    result.leaf[q] = find(fine);
    if (result.leaf[q] < 0) throw std::logic_error("block mesh: face neighbours more than one level apart");
  }
  return result;
}

bool BlockMesh::balanced() const {
  double covered = 0;
  for (int b = 0; b < size(); ++b) {
    covered += 1.0 / static_cast<double>(std::uint64_t{1} << (3 * leaves_[b].level));
    for (int f = 0; f < 6; ++f) {
      try {
        neighbours(b, f);
      } catch (const std::logic_error&) {
        return false;
      }
    }
  }
  return covered == static_cast<double>(root_.blocks[0]) * root_.blocks[1] * root_.blocks[2];
}

int BlockMesh::first_leaf(int rank, int ranks) const {
  if (!first_.empty()) {
    if (ranks + 1 != static_cast<int>(first_.size()))
      throw std::logic_error("block mesh: the kept partition is for another rank count");
    return first_[rank];
  }
  return static_cast<int>(static_cast<std::int64_t>(size()) * rank / ranks);
}

int BlockMesh::owner(int leaf, int ranks) const {
  if (!first_.empty()) {
    if (ranks + 1 != static_cast<int>(first_.size()))
      throw std::logic_error("block mesh: the kept partition is for another rank count");
    // The last r with first_[r] <= leaf: ranks without leaves share their successor's first_ and are skipped.
    return static_cast<int>(std::upper_bound(first_.begin(), first_.end(), leaf) - first_.begin()) - 1;
  }
  // The largest r with first_leaf(r) <= leaf.
  int r = static_cast<int>((static_cast<std::int64_t>(leaf) * ranks) / std::max(size(), 1));
  while (r + 1 < ranks && first_leaf(r + 1, ranks) <= leaf) ++r;
  while (r > 0 && first_leaf(r, ranks) > leaf) --r;
  return r;
}

std::vector<std::uint64_t> BlockMesh::splitters(int ranks) const {
  std::vector<std::uint64_t> s(ranks + 1, kNoKey);
  for (int r = 0; r < ranks; ++r) {
    const int first = first_leaf(r, ranks);
    if (first < size()) s[r] = morton_key(leaves_[first], root_.max_level);
  }
  s[0] = 0;
  return s;
}

void BlockMesh::keep_partition(const std::vector<std::uint64_t>& splitters) {
  if (splitters.size() < 2 || splitters.front() != 0 || !std::is_sorted(splitters.begin(), splitters.end()))
    throw std::logic_error("block mesh: splitters must start at 0 and ascend");
  // The leaves are in ascending key order (the constructor's sort): rank r's first is the first key >= s[r].
  std::vector<int> first(splitters.size());
  int leaf = 0;
  for (std::size_t r = 0; r + 1 < splitters.size(); ++r) {
    while (leaf < size() && morton_key(leaves_[leaf], root_.max_level) < splitters[r]) ++leaf;
    first[r] = leaf;
  }
  first.back() = size();
  first_ = std::move(first);
}

int BlockMesh::count_at_level(int level) const {
  return static_cast<int>(
      std::count_if(leaves_.begin(), leaves_.end(), [&](const BlockKey& k) { return k.level == level; }));
}

std::int64_t BlockMesh::memory_bytes() const {
  return static_cast<std::int64_t>(leaves_.capacity() * sizeof(BlockKey) +
                                   (index_.capacity() + first_.capacity()) * sizeof(int));
}

}  // namespace amp::nobel
