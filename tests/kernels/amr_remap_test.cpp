// SPDX-License-Identifier: BSD-3-Clause
// remap_amr_blocks against hand-computed 4^3 cases: kept blocks copied, a refined parent handing each cell
// to 2x2x2 children, eight children averaged into their parent, mass conserved, ghosts never written.
#include "amr_block_storage.hpp"

#include <amp/kernels/amr_remap.hpp>
#include <amp/kernels/host_to_device.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace {

using amp::kernels::BlockRemap;
using amp::kernels::RemapTask;
using amp::test::HostBlocks;

constexpr int kN = 4, kHalf = kN / 2;
constexpr double kUnwritten = -7.0;

HostBlocks run_remap(const std::vector<double>& old, const std::vector<RemapTask>& tasks) {
  HostBlocks next(kN, static_cast<int>(tasks.size()), kUnwritten);
  const auto old_device = amp::test::to_device(old);
  const auto next_device = amp::test::to_device(next.v);
  amp::kernels::remap_amr_blocks<amp::test::ExecutionSpace>(
      old_device, next_device, amp::kernels::copy_to<amp::test::MemorySpace>(tasks, "tasks"), next.shape);
  next.v = amp::test::to_host(next_device);
  return next;
}

// Source s of a task read in place from old storage slot `slot` (interior cell (0,0,0), ghost-layer strides).
void in_place(RemapTask& t, int s, const HostBlocks& old, int slot) {
  t.source_base[s] = old.at(slot, 0, 0, 0);
  t.source_j[s] = old.shape.stride(1);
  t.source_k[s] = old.shape.stride(2);
}

// Source s read from a received copy of an interior, packed x fastest at `offset`.
void received(RemapTask& t, int s, std::int64_t offset) {
  t.source_base[s] = offset;
  t.source_j[s] = kN;
  t.source_k[s] = kN * kN;
}

RemapTask task_of(BlockRemap kind) {
  RemapTask t;
  t.kind = static_cast<int>(kind);
  return t;
}

void expect_ghosts_unwritten(const HostBlocks& next) {
  for (int b = 0; b < next.blocks; ++b)
    for (int k = -1; k <= kN; ++k)
      for (int j = -1; j <= kN; ++j)
        for (int i = -1; i <= kN; ++i)
          if (!next.is_interior(i, j, k)) {
            EXPECT_EQ(next(b, i, j, k), kUnwritten) << "ghost written: block " << b;
          }
}

double interior_sum(const HostBlocks& f, int block) {
  double sum = 0.0;
  for (int k = 0; k < kN; ++k)
    for (int j = 0; j < kN; ++j)
      for (int i = 0; i < kN; ++i) sum += f(block, i, j, k);
  return sum;
}

// Old slot 1 (in place) and a received interior (after the two old blocks) are kept as they are.
TEST(AmrRemap, KeptBlocksAreCopiedFromInPlaceAndFromReceivedSources) {
  HostBlocks old(kN, 2);
  for (int k = 0; k < kN; ++k)
    for (int j = 0; j < kN; ++j)
      for (int i = 0; i < kN; ++i) old(1, i, j, k) = 1 + i + 4 * j + 16 * k;
  std::vector<double> sources = old.v;
  const auto received_at = static_cast<std::int64_t>(sources.size());
  for (int c = 0; c < kN * kN * kN; ++c) sources.push_back(1000 + c);  // cell (i, j, k) = 1000 + i + 4j + 16k
  std::vector<RemapTask> tasks(2, task_of(BlockRemap::Keep));
  in_place(tasks[0], 0, old, 1);
  received(tasks[1], 0, received_at);
  const HostBlocks next = run_remap(sources, tasks);
  for (int k = 0; k < kN; ++k)
    for (int j = 0; j < kN; ++j)
      for (int i = 0; i < kN; ++i) {
        EXPECT_EQ(next(0, i, j, k), 1 + i + 4 * j + 16 * k);
        EXPECT_EQ(next(1, i, j, k), 1000 + i + 4 * j + 16 * k);
      }
  expect_ghosts_unwritten(next);
}

// A level-0 parent with cells 1 + i + 4j + 16k refined into its eight children (one task each, octant
// (x, y, z) -> new slot x + 2y + 4z). Child cell (i, j, k) of octant o lies inside parent cell
// 2o + (i/2, j/2, k/2). Octant (1, 0, 1) by hand: child (0,0,0) <- parent (2,0,2) = 35, child (1,2,0) <-
// parent (2,1,2) = 39, child (3,3,3) <- parent (3,1,3) = 56. Mass: 64 children cells of volume 1/8 per parent
// octant of 8 cells of volume 1, so the children's sum / 8 is the parent's sum.
TEST(AmrRemap, RefinedBlocksTakeTheirOctantOfTheParentEachCellToEightChildren) {
  HostBlocks parent(kN, 1);
  for (int k = 0; k < kN; ++k)
    for (int j = 0; j < kN; ++j)
      for (int i = 0; i < kN; ++i) parent(0, i, j, k) = 1 + i + 4 * j + 16 * k;
  std::vector<RemapTask> tasks;
  for (int o = 0; o < 8; ++o) {
    RemapTask t = task_of(BlockRemap::Refine);
    t.octant[0] = o & 1;
    t.octant[1] = (o >> 1) & 1;
    t.octant[2] = (o >> 2) & 1;
    in_place(t, 0, parent, 0);
    tasks.push_back(t);
  }
  const HostBlocks next = run_remap(parent.v, tasks);
  const int octant_101 = 1 + 4;
  EXPECT_EQ(next(octant_101, 0, 0, 0), 35.0);
  EXPECT_EQ(next(octant_101, 1, 2, 0), 39.0);
  EXPECT_EQ(next(octant_101, 3, 3, 3), 56.0);
  double children_sum = 0.0;
  for (int o = 0; o < 8; ++o) {
    const int ox = o & 1, oy = (o >> 1) & 1, oz = (o >> 2) & 1;
    for (int k = 0; k < kN; ++k)
      for (int j = 0; j < kN; ++j)
        for (int i = 0; i < kN; ++i)
          EXPECT_EQ(next(o, i, j, k), parent(0, ox * kHalf + i / 2, oy * kHalf + j / 2, oz * kHalf + k / 2))
              << "octant " << o << " cell " << i << "," << j << "," << k;
    children_sum += interior_sum(next, o);
  }
  EXPECT_EQ(children_sum / 8.0, interior_sum(parent, 0));
  expect_ghosts_unwritten(next);
}

// Eight level-1 children (child s = x + 2y + 4z) coarsened into one parent. Child s holds
// 100 s + 2^i 3^j 5^k (not linear, so every one of the eight weights 1/8 matters); children 0-6 are read in
// place, child 7 from a received copy. Parent cell (I, J, K) averages child s = (I/2, J/2, K/2) cells
// 2(I%2)..+1, 2(J%2)..+1, 2(K%2)..+1: 100 s + (3 * 4 * 6 / 8) 4^(I%2) 9^(J%2) 25^(K%2), e.g. (0,0,0) = 9,
// (1,0,0) = 36, (3,2,1) = 300 + 9 * 4 * 25 = 1200, (3,3,3) = 700 + 9 * 4 * 9 * 25 = 8800.
TEST(AmrRemap, CoarsenedBlockAveragesItsEightChildrenAndConservesMass) {
  HostBlocks children(kN, 7);
  std::vector<double> child7;
  auto value = [](int s, int i, int j, int k) {
    double v = 1.0;
    for (int q = 0; q < i; ++q) v *= 2;
    for (int q = 0; q < j; ++q) v *= 3;
    for (int q = 0; q < k; ++q) v *= 5;
    return 100.0 * s + v;
  };
  for (int k = 0; k < kN; ++k)
    for (int j = 0; j < kN; ++j)
      for (int i = 0; i < kN; ++i) {
        for (int s = 0; s < 7; ++s) children(s, i, j, k) = value(s, i, j, k);
        child7.push_back(value(7, i, j, k));
      }
  std::vector<double> sources = children.v;
  const auto received_at = static_cast<std::int64_t>(sources.size());
  sources.insert(sources.end(), child7.begin(), child7.end());
  RemapTask t = task_of(BlockRemap::Coarsen);
  for (int s = 0; s < 7; ++s) in_place(t, s, children, s);
  received(t, 7, received_at);
  const HostBlocks next = run_remap(sources, {t});
  EXPECT_EQ(next(0, 0, 0, 0), 9.0);
  EXPECT_EQ(next(0, 1, 0, 0), 36.0);
  EXPECT_EQ(next(0, 3, 2, 1), 1200.0);
  EXPECT_EQ(next(0, 3, 3, 3), 8800.0);
  const double factor[2][3] = {{1, 1, 1}, {4, 9, 25}};
  double children_sum = 0.0;
  for (int K = 0; K < kN; ++K)
    for (int J = 0; J < kN; ++J)
      for (int I = 0; I < kN; ++I) {
        const int s = I / kHalf + 2 * (J / kHalf) + 4 * (K / kHalf);
        EXPECT_EQ(next(0, I, J, K), 100.0 * s + 9.0 * factor[I % 2][0] * factor[J % 2][1] * factor[K % 2][2])
            << "parent cell " << I << "," << J << "," << K;
      }
  for (int s = 0; s < 7; ++s) children_sum += interior_sum(children, s);
  for (const double v : child7) children_sum += v;
  EXPECT_EQ(interior_sum(next, 0), children_sum / 8.0);  // volume 1 against 1/8: mass conserved
  expect_ghosts_unwritten(next);
}

}  // namespace
