// amp-nobel's mesh pieces without MPI: neighbours across levels, 2:1 balance detection and keeping,
// the Morton partition, and the face/migration plans of one rank owning everything.
#include <block_migration.hpp>
#include <block_mesh.hpp>
#include <face_exchange.hpp>
#include <mesh_adaptation.hpp>
#include <moving_front.hpp>

#include <gtest/gtest.h>

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
