// SPDX-License-Identifier: BSD-3-Clause
// amp-nobel's mesh pieces without MPI: neighbours across levels, 2:1 balance detection and keeping,
// the Morton partition (equal shares, or Morton-key ranges kept between rebalances), and the face and
// migration plans of one rank owning everything or of ranks that own unequal shares, some none.
#include <amp/miniapps/nobel/block_migration.hpp>
#include <amp/miniapps/nobel/block_mesh.hpp>
#include <amp/miniapps/nobel/face_exchange.hpp>
#include <amp/miniapps/nobel/mesh_adaptation.hpp>
#include <amp/miniapps/nobel/moving_front.hpp>
#include <amp/miniapps/nobel/packed_key_set.hpp>

#include <amp/kernels/hash.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>
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
  const BlockMesh mesh = adapt_mesh(
      unbalanced, [](const BlockKey& k) { return k.level > 0; }, counts);
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
  const BlockMesh new_mesh = adapt_mesh(
      old_mesh, [](const BlockKey& k) { return k.at[0] == 0 && k.level == 0; }, counts);
  EXPECT_EQ(counts.refined, 4);
  const BlockMigration m = build_block_migration(old_mesh, new_mesh, 4, 1, 0, 1);
  EXPECT_TRUE(m.plan.links.empty());
  EXPECT_EQ(static_cast<int>(m.remap.size()), new_mesh.size());
  EXPECT_EQ(m.exchange_size, m.old_blocks_size);
}

// Blocks per rank of a partitioned mesh.
std::vector<int> blocks_per_rank(const BlockMesh& mesh, int ranks) {
  std::vector<int> n;
  for (int r = 0; r < ranks; ++r) n.push_back(mesh.first_leaf(r + 1, ranks) - mesh.first_leaf(r, ranks));
  return n;
}

// Every link is the mirror of its peer's: what rank a sends to b (pieces and elements, in order), b
// receives from a. `plan_of(r)` is rank r's plan.
template <class PlanOf>
void expect_links_mirror(int ranks, PlanOf plan_of) {
  std::map<std::pair<int, int>, std::vector<std::int64_t>> sent, received;
  for (int r = 0; r < ranks; ++r)
    for (const comm::Link& l : plan_of(r).links) {
      EXPECT_NE(l.peer, r);
      for (const comm::Piece& p : l.send) sent[{r, l.peer}].push_back(p.size());
      for (const comm::Piece& p : l.recv) received[{l.peer, r}].push_back(p.size());
    }
  EXPECT_EQ(sent, received);
}

TEST(NobelMesh, EqualSharesSplittersGiveTheSamePartitionBack) {
  const RootGrid root = grid(3, 2);
  const MovingFront front{0.3, 5};
  const BlockMesh mesh = initial_mesh(root, [&](const BlockKey& k) { return front.touches(k, root, 4, 0); });
  for (int ranks : {1, 2, 3, 4, 7, 27}) {
    BlockMesh kept = mesh;
    kept.keep_partition(mesh.splitters(ranks));
    ASSERT_TRUE(kept.kept_partition());
    for (int r = 0; r <= ranks; ++r) EXPECT_EQ(kept.first_leaf(r, ranks), mesh.first_leaf(r, ranks)) << ranks;
    for (int b = 0; b < mesh.size(); ++b) EXPECT_EQ(kept.owner(b, ranks), mesh.owner(b, ranks));
  }
}

// 2x2x2 roots at 2 ranks (z halves, 4 blocks each); block (0,0,0) is refined. Kept: its 8 children stay
// on rank 0, which gains 7 blocks (11 against 4); rebalanced: 7 and 8.
TEST(NobelMesh, KeptPartitionKeepsARefinedBlocksChildrenOnItsRank) {
  const BlockMesh old_mesh(grid(2, 1), uniform(2));
  AdaptationCounts counts;
  BlockMesh kept = adapt_mesh(
      old_mesh,
      [](const BlockKey& k) {
        return k == BlockKey{0, {0, 0, 0}};
      },
      counts);
  ASSERT_EQ(counts.refined, 1);
  ASSERT_EQ(kept.size(), 15);
  const BlockMesh rebalanced = kept;
  kept.keep_partition(old_mesh.splitters(2));
  EXPECT_EQ(blocks_per_rank(kept, 2), (std::vector<int>{4 + 7, 4}));
  EXPECT_EQ(blocks_per_rank(rebalanced, 2), (std::vector<int>{7, 8}));
  for (int b = 0; b < kept.size(); ++b) {
    const BlockKey& k = kept.leaves()[b];
    const BlockKey old_leaf = k.level == 1 ? k.parent() : k;
    EXPECT_EQ(kept.owner(b, 2), old_mesh.owner(old_mesh.find(old_leaf), 2));
  }
  expect_links_mirror(2, [&](int r) { return build_face_exchange(kept, 4, 1, r, 2).plan; });
  for (int r = 0; r < 2; ++r) EXPECT_TRUE(build_block_migration(old_mesh, kept, 4, 1, r, 2).plan.links.empty());
}

// one_refined_root at 4 ranks: 15 leaves (the 8 children of root 0 first), equal shares 3, 4, 4, 4:
// rank 0 children 0-2, rank 1 children 3-6, rank 2 child 7 and roots 1-3, rank 3 roots 4-7. Coarsened
// with the ranges kept, the parent goes to rank 0 (its first child's), rank 1 owns nothing, rank 2 keeps
// roots 1-3; and refined again, all eight children stay on rank 0.
TEST(NobelMesh, KeptPartitionSendsACoarsenedParentToItsFirstChildsRankAndMayLeaveARankEmpty) {
  const BlockMesh fine = one_refined_root();
  ASSERT_EQ(blocks_per_rank(fine, 4), (std::vector<int>{3, 4, 4, 4}));
  AdaptationCounts counts;
  BlockMesh coarse = adapt_mesh(
      fine, [](const BlockKey&) { return false; }, counts);
  ASSERT_EQ(counts.coarsened, 1);
  coarse.keep_partition(fine.splitters(4));
  EXPECT_EQ(blocks_per_rank(coarse, 4), (std::vector<int>{1, 0, 3, 4}));
  EXPECT_EQ(coarse.owner(coarse.find({0, {0, 0, 0}}), 4), 0);
  EXPECT_EQ(coarse.owner(coarse.find({0, {1, 0, 0}}), 4), 2);
  EXPECT_EQ(coarse.owner(coarse.find({0, {0, 0, 1}}), 4), 3);

  // Migration: ranks 1 (children 3-6) and 2 (child 7) send to rank 0; each plan mirrors its peer's.
  std::vector<BlockMigration> moves;
  for (int r = 0; r < 4; ++r) moves.push_back(build_block_migration(fine, coarse, 4, 1, r, 4));
  EXPECT_EQ(moves[0].blocks_received, 5);
  EXPECT_EQ(moves[1].blocks_sent, 4);
  EXPECT_EQ(moves[2].blocks_sent, 1);
  EXPECT_EQ(moves[3].blocks_sent + moves[3].blocks_received, 0);
  EXPECT_TRUE(moves[1].remap.empty());
  for (int r = 0; r < 4; ++r) EXPECT_EQ(static_cast<int>(moves[r].remap.size()), blocks_per_rank(coarse, 4)[r]);
  expect_links_mirror(4, [&](int r) { return moves[r].plan; });

  // The step exchange: the empty rank has no blocks, faces or links; the others' links mirror.
  const FaceExchange empty = build_face_exchange(coarse, 4, 1, 1, 4);
  EXPECT_EQ(empty.local_blocks, 0);
  EXPECT_EQ(empty.storage_size, 0);
  EXPECT_TRUE(empty.plan.links.empty() && empty.fill_tasks.empty());
  expect_links_mirror(4, [&](int r) { return build_face_exchange(coarse, 4, 1, r, 4).plan; });

  // Refined again with the ranges kept: the splitters moved to leaf boundaries, so every child stays.
  BlockMesh refined = adapt_mesh(
      coarse,
      [](const BlockKey& k) {
        return k == BlockKey{0, {0, 0, 0}};
      },
      counts);
  refined.keep_partition(coarse.splitters(4));
  EXPECT_EQ(blocks_per_rank(refined, 4), (std::vector<int>{8, 0, 3, 4}));
  expect_links_mirror(4, [&](int r) { return build_block_migration(coarse, refined, 4, 1, r, 4).plan; });
}

}  // namespace
}  // namespace amp::nobel
