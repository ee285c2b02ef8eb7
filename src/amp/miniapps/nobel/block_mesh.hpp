// SPDX-License-Identifier: BSD-3-Clause
// The AMR block mesh, replicated on every rank (as Chombo replicates box metadata): the leaf blocks in
// space-filling-curve (Morton) order, face-neighbour queries across refinement levels, the 2:1 balance
// check and the partition over ranks (equal shares of the Morton order, or Morton-key ranges kept from an
// earlier mesh).
#pragma once

#include <amp/kernels/amr_block.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace amp::nobel {

// A block at a level: level L has root[a] * 2^L blocks along axis a.
struct BlockKey {
  int level = 0;
  std::array<int, 3> at = {0, 0, 0};

  bool operator==(const BlockKey& o) const { return level == o.level && at == o.at; }
  bool operator<(const BlockKey& o) const { return level != o.level ? level < o.level : at < o.at; }
  std::uint64_t packed() const;  // level (4 bits) and x, y, z (20 bits each) in one word
  static BlockKey unpacked(std::uint64_t packed);
  BlockKey parent() const;
  BlockKey child(int c) const;  // c = x + 2y + 4z
  int child_index() const { return (at[0] & 1) + 2 * (at[1] & 1) + 4 * (at[2] & 1); }
};

struct RootGrid {
  std::array<int, 3> blocks = {4, 4, 4};  // level-0 blocks per axis
  int max_level = 2;
  bool inside(const BlockKey& key) const;
};

// What lies across one face of a leaf: the same-level or coarser leaf, four finer leaves (in face
// order: tangential axes ascending, first fastest), or the domain boundary.
struct FaceNeighbours {
  kernels::FaceNeighbour kind = kernels::FaceNeighbour::DomainBoundary;
  int count = 0;
  std::array<int, 4> leaf = {-1, -1, -1, -1};
};

// The two axes of a face with normal `axis`, ascending.
std::array<int, 2> tangential_axes(int axis);

class BlockMesh {
 public:
  BlockMesh(RootGrid root, std::vector<BlockKey> leaves);

  const RootGrid& root() const { return root_; }
  const std::vector<BlockKey>& leaves() const { return leaves_; }
  int size() const { return static_cast<int>(leaves_.size()); }
  int find(const BlockKey& key) const;  // leaf index, or -1

  FaceNeighbours neighbours(int leaf, int face) const;
  // True when every face neighbour of every leaf is at most one level apart (and the leaves tile the domain).
  bool balanced() const;

  // Leaves [first_leaf(r), first_leaf(r+1)) belong to rank r: equal shares of the Morton order, or, after
  // keep_partition, the leaves whose Morton keys lie in rank r's kept range (a rank may then own none).
  int first_leaf(int rank, int ranks) const;
  int owner(int leaf, int ranks) const;
  // The partition as ranks + 1 Morton-key splitters: rank r owns the leaves with keys in
  // [splitters[r], splitters[r+1]); splitters[r] is the key of r's first leaf (kNoKey past the last leaf).
  std::vector<std::uint64_t> splitters(int ranks) const;
  // Partitions this mesh by another mesh's splitters instead of equal shares: a refined block's children
  // stay on its rank, a coarsened parent goes to the rank of its first child (its key is that child's).
  void keep_partition(const std::vector<std::uint64_t>& splitters);
  bool kept_partition() const { return !first_.empty(); }
  static constexpr std::uint64_t kNoKey = ~std::uint64_t{0};  // above every Morton key
  int count_at_level(int level) const;
  // Heap bytes of the replicated record (leaf keys and the key -> leaf index): 16 + 8 to 16 per leaf.
  std::int64_t memory_bytes() const;

 private:
  RootGrid root_;
  std::vector<BlockKey> leaves_;
  // key -> leaf index: a flat open-addressing table of leaf indices (-1 empty), at most half full,
  // probed by PackedKeySet::home_slot of the packed key; 4 bytes a slot instead of a hash-map node.
  std::vector<int> index_;
  // A kept partition: first_[r] is rank r's first leaf, first_[ranks] = size(); empty for equal shares.
  std::vector<int> first_;
};

// Morton key of a block's lowest corner at max_level resolution: the space-filling-curve order.
std::uint64_t morton_key(const BlockKey& key, int max_level);

}  // namespace amp::nobel
