// SPDX-License-Identifier: BSD-3-Clause
// amp-nobel's mesh pieces without MPI: neighbours across levels, 2:1 balance detection and keeping,
// the Morton partition, and the face/migration plans of one rank owning everything.
#include <amp/miniapps/nobel/block_migration.hpp>
#include <amp/miniapps/nobel/block_mesh.hpp>
#include <amp/miniapps/nobel/face_exchange.hpp>
#include <amp/miniapps/nobel/mesh_adaptation.hpp>
#include <amp/miniapps/nobel/moving_front.hpp>
#include <amp/miniapps/nobel/packed_key_set.hpp>

#include <amp/kernels/hash.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

namespace amp::nobel {
namespace {

using kernels::FaceNeighbour;

RootGrid grid(int n, int max_level) {
  RootGrid r;
  r.blocks = {n, n, n};
  r.max_level = max_level;
  return r;
}

std::vector<BlockKey> uniform(int n) {
  std::vector<BlockKey> keys;
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) keys.push_back({0, {x, y, z}});
  return keys;
}

// 2x2x2 root blocks with block (0,0,0) split into eight.
BlockMesh one_refined_root() {
  std::vector<BlockKey> keys = uniform(2);
  keys.erase(keys.begin());
  for (int c = 0; c < 8; ++c) keys.push_back(BlockKey{0, {0, 0, 0}}.child(c));
  return BlockMesh(grid(2, 2), keys);
}

TEST(NobelMesh, UniformMeshFacesAreSameLevelOrBoundary) {
  const BlockMesh mesh(grid(4, 0), uniform(4));
  int same = 0, boundary = 0;
  for (int b = 0; b < mesh.size(); ++b)
    for (int f = 0; f < 6; ++f) {
      const auto nb = mesh.neighbours(b, f);
      (nb.kind == FaceNeighbour::SameLevel ? same : boundary) += 1;
      if (nb.kind == FaceNeighbour::SameLevel) {
        EXPECT_EQ(mesh.neighbours(nb.leaf[0], f ^ 1).leaf[0], b);
      }
    }
  EXPECT_EQ(same, 6 * 64 - 6 * 16);
  EXPECT_EQ(boundary, 6 * 16);
  EXPECT_TRUE(mesh.balanced());
}

TEST(NobelMesh, CoarseFaceSeesFourFineBlocksAndFineFaceSeesCoarseBlock) {
  const BlockMesh mesh = one_refined_root();
  const int coarse = mesh.find({0, {1, 0, 0}});
  const auto fine_side = mesh.neighbours(coarse, 0);  // -x face of root (1,0,0)
  ASSERT_EQ(fine_side.kind, FaceNeighbour::Finer);
  ASSERT_EQ(fine_side.count, 4);
  // Adjacent children have x = 1; face order: y fastest, then z.
  EXPECT_EQ(mesh.leaves()[fine_side.leaf[0]], (BlockKey{1, {1, 0, 0}}));
  EXPECT_EQ(mesh.leaves()[fine_side.leaf[1]], (BlockKey{1, {1, 1, 0}}));
  EXPECT_EQ(mesh.leaves()[fine_side.leaf[3]], (BlockKey{1, {1, 1, 1}}));
  const int fine = mesh.find({1, {1, 1, 0}});
  const auto coarse_side = mesh.neighbours(fine, 1);
  EXPECT_EQ(coarse_side.kind, FaceNeighbour::Coarser);
  EXPECT_EQ(coarse_side.leaf[0], coarse);
  EXPECT_TRUE(mesh.balanced());
}

TEST(NobelMesh, TwoLevelJumpIsNotBalanced) {
  std::vector<BlockKey> keys = uniform(2);
  keys.erase(keys.begin());
  for (int c = 0; c < 7; ++c) keys.push_back(BlockKey{0, {0, 0, 0}}.child(c));
  for (int c = 0; c < 8; ++c) keys.push_back(BlockKey{0, {0, 0, 0}}.child(7).child(c));
  EXPECT_FALSE(BlockMesh(grid(2, 2), keys).balanced());
}

TEST(NobelMesh, MortonOrderPutsLowZHalfFirst) {
  const BlockMesh mesh(grid(4, 0), uniform(4));
  for (int b = 0; b < mesh.size(); ++b) {
    EXPECT_EQ(mesh.owner(b, 2), mesh.leaves()[b].at[2] < 2 ? 0 : 1);
    EXPECT_GE(b, mesh.first_leaf(mesh.owner(b, 3), 3));
    EXPECT_LT(b, mesh.first_leaf(mesh.owner(b, 3) + 1, 3));
  }
}

TEST(NobelMesh, AdaptationKeepsBalanceTilingAndMovesOneLevelAtATime) {
  const RootGrid root = grid(3, 3);
  const MovingFront front{0.3, 5};
  auto test = [&](int step) { return [=](const BlockKey& k) { return front.touches(k, root, 4, step); }; };
  BlockMesh mesh = initial_mesh(root, test(0));
  ASSERT_TRUE(mesh.balanced());
  EXPECT_GT(mesh.count_at_level(3), 0);
  int refined = 0, coarsened = 0;
  for (int step = 1; step <= 6; ++step) {
    AdaptationCounts counts;
    BlockMesh next = adapt_mesh(mesh, test(step), counts);
    ASSERT_TRUE(next.balanced()) << "after AMR step " << step;
    refined += counts.refined;
    coarsened += counts.coarsened;
    // Every new leaf is an old leaf, a child of one, or the parent of eight (what migration relies on).
    for (const BlockKey& k : next.leaves())
      EXPECT_TRUE(mesh.find(k) >= 0 || (k.level > 0 && mesh.find(k.parent()) >= 0) || mesh.find(k.child(0)) >= 0);
    mesh = std::move(next);
  }
  EXPECT_GT(refined, 0);
  EXPECT_GT(coarsened, 0);
}

// The reference ripple: sweep every leaf until none is split (the way the mesh was balanced before the
// ripple became a work list seeded next to fine leaves).
std::set<BlockKey> balanced_by_full_sweeps(const RootGrid& root, std::set<BlockKey> leaves) {
  auto covered = [&](BlockKey k) {
    for (; k.level >= 0; k = k.parent())
      if (leaves.count(k) != 0) return true;
    return false;
  };
  auto unbalanced = [&](const BlockKey& k) {
    for (int face = 0; face < 6; ++face) {
      BlockKey across = k;
      across.at[face / 2] += face % 2 == 0 ? -1 : 1;
      if (!root.inside(across) || covered(across)) continue;
      for (int c = 0; c < 8; ++c)
        if (leaves.count(across.child(c)) == 0 && !covered(across.child(c))) return true;  // finer than k + 1
    }
    return false;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (const BlockKey& k : std::vector<BlockKey>(leaves.begin(), leaves.end())) {
      if (k.level >= root.max_level || !unbalanced(k)) continue;
      leaves.erase(k);
      for (int c = 0; c < 8; ++c) leaves.insert(k.child(c));
      changed = true;
    }
  }
  return leaves;
}

TEST(NobelMesh, RippleGivesTheSameMeshAsFullSweeps) {
  // 4^3 roots, max level 3; a pseudo-random fifth of the roots replaced by their 512 level-3
  // descendants: level 0 next to level 3, which the ripple must grade through levels 1 and 2.
  const RootGrid root = grid(4, 3);
  std::set<BlockKey> start;
  for (const BlockKey& r : uniform(4)) {
    if (kernels::mix64(r.packed() + 11) % 5 != 0) {
      start.insert(r);
      continue;
    }
    for (int c1 = 0; c1 < 8; ++c1)
      for (int c2 = 0; c2 < 8; ++c2)
        for (int c3 = 0; c3 < 8; ++c3) start.insert(r.child(c1).child(c2).child(c3));
  }
  const BlockMesh unbalanced(root, std::vector<BlockKey>(start.begin(), start.end()));
  ASSERT_FALSE(unbalanced.balanced());
  // Keep every leaf: level-3 leaves cannot refine, level-0 leaves cannot coarsen.
  AdaptationCounts counts;
  const BlockMesh mesh = adapt_mesh(unbalanced, [](const BlockKey& k) { return k.level > 0; }, counts);
  const std::set<BlockKey> expected = balanced_by_full_sweeps(root, start);
  EXPECT_EQ(std::set<BlockKey>(mesh.leaves().begin(), mesh.leaves().end()), expected);
  EXPECT_GT(expected.size(), start.size());
  EXPECT_TRUE(mesh.balanced());
}

TEST(NobelMesh, PackedKeySetAgreesWithStdSetThroughInsertsErasesAndRehashes) {
  PackedKeySet set;
  std::set<std::uint64_t> reference;
  for (std::uint64_t i = 0; i < 200000; ++i) {
    const int x = static_cast<int>(kernels::mix64(i) % 97), y = static_cast<int>(i % 13);
    const std::uint64_t key = BlockKey{3, {x, y, 5}}.packed();
    if (kernels::mix64(i + 7) % 3 == 0) {
      EXPECT_EQ(set.erase(key), reference.erase(key) == 1);
    } else {
      EXPECT_EQ(set.insert(key), reference.insert(key).second);
    }
    ASSERT_EQ(set.size(), reference.size());
  }
  for (int x = 0; x < 100; ++x)
    for (int y = 0; y < 14; ++y) {
      const std::uint64_t key = BlockKey{3, {x, y, 5}}.packed();
      EXPECT_EQ(set.contains(key), reference.count(key) == 1);
    }
  std::vector<std::uint64_t> keys = set.keys();
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(keys, std::vector<std::uint64_t>(reference.begin(), reference.end()));
  EXPECT_EQ(BlockKey::unpacked(BlockKey{7, {1048575, 3, 524288}}.packed()), (BlockKey{7, {1048575, 3, 524288}}));
}

// The replicated record stays compact: 16 bytes of key and at most 16 of index per leaf.
TEST(NobelMesh, ReplicatedMeshCostsAtMost32BytesPerLeaf) {
  const BlockMesh mesh(grid(40, 0), uniform(40));
  ASSERT_EQ(mesh.size(), 64000);
  EXPECT_LE(mesh.memory_bytes(), 32 * 64000);
  EXPECT_GE(mesh.memory_bytes(), 16 * 64000 + 8 * 64000);  // keys plus an index at most half full
  EXPECT_EQ(mesh.find({0, {39, 39, 39}}), mesh.size() - 1);
  EXPECT_EQ(mesh.find({1, {0, 0, 0}}), -1);
}

TEST(NobelMesh, OneRankFillsEveryFaceLocallyWithNoMessages) {
  const BlockMesh mesh = one_refined_root();
  const FaceExchange x = build_face_exchange(mesh, 4, 2, 0, 1);
  EXPECT_TRUE(x.plan.links.empty());
  // 7 coarse + 8 fine blocks; interior relations: each coarse-fine face counted from both sides.
  int relations = 0;
  for (int b = 0; b < mesh.size(); ++b)
    for (int f = 0; f < 6; ++f) {
      const auto nb = mesh.neighbours(b, f);
      if (nb.kind != FaceNeighbour::DomainBoundary) relations += nb.count;
    }
  EXPECT_EQ(x.local_faces, relations);
  EXPECT_EQ(static_cast<int>(x.fill_tasks.size()), relations);
  EXPECT_EQ(x.storage_size, mesh.size() * 6 * 6 * 6);
}

TEST(NobelMesh, MigrationOnOneRankRebuildsEveryBlockFromLocalSources) {
  const BlockMesh old_mesh(grid(2, 1), uniform(2));
  AdaptationCounts counts;
  const BlockMesh new_mesh = adapt_mesh(old_mesh, [](const BlockKey& k) { return k.at[0] == 0 && k.level == 0; }, counts);
  EXPECT_EQ(counts.refined, 4);
  const BlockMigration m = build_block_migration(old_mesh, new_mesh, 4, 1, 0, 1);
  EXPECT_TRUE(m.plan.links.empty());
  EXPECT_EQ(static_cast<int>(m.remap.size()), new_mesh.size());
  EXPECT_EQ(m.exchange_size, m.old_blocks_size);
}

}  // namespace
}  // namespace amp::nobel
