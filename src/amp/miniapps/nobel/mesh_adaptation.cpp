// SPDX-License-Identifier: BSD-3-Clause
// Desired levels (+1 near the feature, -1 elsewhere, coarsening only as whole sibling groups), then a
// ripple that splits any leaf with a face neighbour two levels finer. Runs identically on every rank.
#include <amp/miniapps/nobel/mesh_adaptation.hpp>

#include <amp/miniapps/nobel/packed_key_set.hpp>

#include <algorithm>
#include <vector>

namespace amp::nobel {

namespace {

class LeafSet {
 public:
  LeafSet(const RootGrid& root, std::size_t expected_leaves) : root_(root) { packed_.reserve(expected_leaves); }
  void insert(const BlockKey& k) { packed_.insert(k.packed()); }
  void erase(const BlockKey& k) { packed_.erase(k.packed()); }
  bool has(const BlockKey& k) const { return packed_.contains(k.packed()); }
  // The leaf that is `k` or an ancestor of it, if any (level -1: none; `k` is refined).
  BlockKey covering_leaf(BlockKey k) const {
    for (; k.level >= 0; k = k.parent())
      if (has(k)) return k;
    return k;
  }
  bool covered(const BlockKey& k) const { return covering_leaf(k).level >= 0; }
  // A face neighbour region of `k` holds leaves two or more levels finer.
  bool unbalanced(const BlockKey& k) const {
    for (int face = 0; face < 6; ++face) {
      const int axis = face / 2, side = face % 2;
      BlockKey across = k;
      across.at[axis] += side == 0 ? -1 : 1;
      if (!root_.inside(across) || covered(across)) continue;
      const auto t = tangential_axes(axis);
      for (int q = 0; q < 4; ++q) {
        BlockKey fine{k.level + 1, {2 * across.at[0], 2 * across.at[1], 2 * across.at[2]}};
        fine.at[axis] += side == 0 ? 1 : 0;
        fine.at[t[0]] += q & 1;
        fine.at[t[1]] += q >> 1;
        if (!has(fine)) return true;
      }
    }
    return false;
  }
  // Appends the leaves coarser than `k` across its faces: the only leaves that `k` (or its children)
  // can leave unbalanced.
  void coarser_neighbours(const BlockKey& k, std::vector<BlockKey>& out) const {
    for (int face = 0; face < 6; ++face) {
      const int axis = face / 2, side = face % 2;
      if (k.level == 0 || (k.at[axis] & 1) != side) continue;  // across lies in k's parent: not coarser
      BlockKey across = k;
      across.at[axis] += side == 0 ? -1 : 1;
      if (!root_.inside(across)) continue;
      const BlockKey coarser = covering_leaf(across.parent());
      if (coarser.level >= 0) out.push_back(coarser);
    }
  }
  // Splits leaf `k` into its eight children; `touched` gets the leaves whose balance that may break:
  // the children and the coarser leaves across k's faces.
  void split(const BlockKey& k, std::vector<BlockKey>& touched) {
    erase(k);
    for (int c = 0; c < 8; ++c) {
      insert(k.child(c));
      touched.push_back(k.child(c));
    }
    coarser_neighbours(k, touched);
  }
  // In no particular order: BlockMesh sorts its leaves.
  std::vector<BlockKey> keys() const {
    std::vector<BlockKey> out;
    out.reserve(packed_.size());
    for (std::uint64_t packed : packed_.keys()) out.push_back(BlockKey::unpacked(packed));
    return out;
  }

 private:
  RootGrid root_;
  PackedKeySet packed_;
};

}  // namespace

BlockMesh adapt_mesh(const BlockMesh& old, const RefineTest& refine, AdaptationCounts& counts) {
  const RootGrid& root = old.root();
  const auto& leaves = old.leaves();
  std::vector<int> wish(leaves.size());  // +1 refine, 0 keep, -1 coarsen
  for (std::size_t b = 0; b < leaves.size(); ++b) {
    const BlockKey& k = leaves[b];
    if (refine(k))
      wish[b] = k.level < root.max_level ? 1 : 0;
    else
      wish[b] = k.level > 0 ? -1 : 0;
  }
  auto sibling_group_coarsens = [&](const BlockKey& k) {
    const BlockKey parent = k.parent();
    for (int c = 0; c < 8; ++c) {
      const int s = old.find(parent.child(c));
      if (s < 0 || wish[s] != -1) return false;
    }
    return true;
  };
  LeafSet next(root, leaves.size() + 7 * static_cast<std::size_t>(std::count(wish.begin(), wish.end(), 1)));
  for (std::size_t b = 0; b < leaves.size(); ++b) {
    const BlockKey& k = leaves[b];
    if (wish[b] == 1) {
      for (int c = 0; c < 8; ++c) next.insert(k.child(c));
    } else if (wish[b] == -1 && sibling_group_coarsens(k)) {
      next.insert(k.parent());
    } else {
      next.insert(k);
    }
  }
  // Ripple: a leaf is unbalanced only next to a leaf two levels finer, so check the coarser face
  // neighbours of every leaf of level >= 2, and again each leaf a split may have unbalanced, until none
  // is. The result is the coarsest balanced refinement, whatever the order of the checks.
  std::vector<BlockKey> pending;
  for (const BlockKey& k : next.keys())
    if (k.level >= 2) next.coarser_neighbours(k, pending);
  while (!pending.empty()) {
    const BlockKey k = pending.back();
    pending.pop_back();
    if (k.level >= root.max_level || !next.has(k) || !next.unbalanced(k)) continue;
    next.split(k, pending);
  }
  BlockMesh mesh(root, next.keys());
  counts = {};
  for (const BlockKey& k : leaves)
    if (mesh.find(k) < 0 && mesh.find(k.child(0)) >= 0) ++counts.refined;
  for (const BlockKey& k : mesh.leaves())
    if (old.find(k) < 0 && old.find(k.child(0)) >= 0) ++counts.coarsened;
  return mesh;
}

BlockMesh initial_mesh(const RootGrid& root, const RefineTest& refine) {
  std::vector<BlockKey> roots;
  for (int z = 0; z < root.blocks[2]; ++z)
    for (int y = 0; y < root.blocks[1]; ++y)
      for (int x = 0; x < root.blocks[0]; ++x) roots.push_back({0, {x, y, z}});
  BlockMesh mesh(root, roots);
  AdaptationCounts ignored;
  for (int pass = 0; pass < root.max_level; ++pass) mesh = adapt_mesh(mesh, refine, ignored);
  return mesh;
}

}  // namespace amp::nobel
