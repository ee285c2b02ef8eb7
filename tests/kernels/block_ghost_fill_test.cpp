// SPDX-License-Identifier: BSD-3-Clause
// fill_ghost_faces against hand-computed ghost faces of 4^3 blocks: a same-level copy, prolongation from a
// coarser face, restriction of a finer face, sources in a received staging area, and untouched boundary ghosts.
#include "amr_block_storage.hpp"

#include <amp/kernels/block_ghost_fill.hpp>
#include <amp/kernels/host_to_device.hpp>

#include <gtest/gtest.h>

#include <set>
#include <vector>

namespace {

using amp::kernels::FaceFill;
using amp::kernels::GhostFillTask;
using amp::test::HostBlocks;

constexpr int kN = 4;

std::vector<double> run_fill(const std::vector<double>& storage, const std::vector<GhostFillTask>& tasks) {
  const auto device = amp::test::to_device(storage);
  amp::kernels::fill_ghost_faces<amp::test::ExecutionSpace>(
      device, amp::kernels::copy_to<amp::test::MemorySpace>(tasks, "tasks"), kN);
  return amp::test::to_host(device);
}

GhostFillTask task(FaceFill kind, int extent, std::int64_t src_base, std::int64_t src_a, std::int64_t src_b,
                   std::int64_t dst_base, std::int64_t dst_a, std::int64_t dst_b) {
  GhostFillTask t;
  t.kind = static_cast<int>(kind);
  t.extent = extent;
  t.src_base = src_base;
  t.src_a = src_a;
  t.src_b = src_b;
  t.dst_base = dst_base;
  t.dst_a = dst_a;
  t.dst_b = dst_b;
  return t;
}

// Interior cells numbered 100 * slot + 1 + i + 4j + 16k, ghosts zero.
HostBlocks numbered_blocks(int count) {
  HostBlocks b(kN, count);
  for (int s = 0; s < count; ++s)
    for (int k = 0; k < kN; ++k)
      for (int j = 0; j < kN; ++j)
        for (int i = 0; i < kN; ++i) b(s, i, j, k) = 100 * s + 1 + i + 4 * j + 16 * k;
  return b;
}

// `after` equals `before` except at `written`, so every ghost without a task (the domain boundary) stays zero.
void expect_only_written(const std::vector<double>& before, const std::vector<double>& after,
                         const std::set<std::int64_t>& written) {
  ASSERT_EQ(before.size(), after.size());
  for (std::size_t at = 0; at < before.size(); ++at)
    if (written.count(static_cast<std::int64_t>(at)) == 0) {
      EXPECT_EQ(after[at], before[at]) << "written at " << at;
    }
}

// Two level-0 blocks side by side in x. Block 0's +x ghost face gets block 1's first x layer (i = 0), block 1's
// -x ghost face gets block 0's last x layer (i = 3); (a, b) run over (y, z).
TEST(BlockGhostFill, SameLevelFacesCopyTheNeighboursFaceCells) {
  const HostBlocks before = numbered_blocks(2);
  const auto& s = before.shape;
  const std::vector<GhostFillTask> tasks = {
      task(FaceFill::Copy, kN, before.at(1, 0, 0, 0), s.stride(1), s.stride(2),       // block 1's -x face cells
           before.at(0, kN, 0, 0), s.stride(1), s.stride(2)),                         // to block 0's +x ghosts
      task(FaceFill::Copy, kN, before.at(0, kN - 1, 0, 0), s.stride(1), s.stride(2),  // block 0's +x face cells
           before.at(1, -1, 0, 0), s.stride(1), s.stride(2))};                        // to block 1's -x ghosts
  HostBlocks after = before;
  after.v = run_fill(before.v, tasks);
  std::set<std::int64_t> written;
  for (int k = 0; k < kN; ++k)
    for (int j = 0; j < kN; ++j) {
      EXPECT_EQ(after(0, kN, j, k), 101 + 4 * j + 16 * k) << j << "," << k;  // block 1's cell (0, j, k)
      EXPECT_EQ(after(1, -1, j, k), 4 + 4 * j + 16 * k) << j << "," << k;    // block 0's cell (3, j, k)
      written.insert(before.at(0, kN, j, k));
      written.insert(before.at(1, -1, j, k));
    }
  EXPECT_EQ(after(0, kN, 3, 2), 145.0);
  EXPECT_EQ(after(1, -1, 1, 3), 56.0);
  EXPECT_EQ(after(0, -1, 1, 1), 0.0);  // block 0's -x face is the domain boundary: no task, ghost stays zero
  EXPECT_EQ(after(1, kN, 1, 1), 0.0);
  expect_only_written(before.v, after.v, written);
}

// A level-1 block (slot 1) above a level-0 block (slot 0) in y, in the odd-x, even-z quarter of its face:
// its -y ghost face (a along x, b along z) takes the coarse +y layer (j = 3) cells x = 2..3, z = 0..1, each
// coarse cell to 2x2 ghosts. Coarse (2,3,0) = 15, (3,3,0) = 16, (2,3,1) = 31, (3,3,1) = 32.
TEST(BlockGhostFill, CoarserFaceIsProlongedEachCoarseCellToTwoByTwoGhosts) {
  const HostBlocks before = numbered_blocks(2);
  const auto& s = before.shape;
  const std::vector<GhostFillTask> tasks = {task(FaceFill::Prolong, kN, before.at(0, 2, kN - 1, 0), s.stride(0),
                                                 s.stride(2), before.at(1, 0, -1, 0), s.stride(0), s.stride(2))};
  HostBlocks after = before;
  after.v = run_fill(before.v, tasks);
  const double expected[kN][kN] = {{15, 15, 16, 16}, {15, 15, 16, 16}, {31, 31, 32, 32}, {31, 31, 32, 32}};  // [z][x]
  std::set<std::int64_t> written;
  for (int b = 0; b < kN; ++b)
    for (int a = 0; a < kN; ++a) {
      EXPECT_EQ(after(1, a, -1, b), expected[b][a]) << "ghost x " << a << " z " << b;
      written.insert(before.at(1, a, -1, b));
    }
  expect_only_written(before.v, after.v, written);
}

// A level-1 block (slot 1) above a level-0 block (slot 0) in z, covering the quarter x = 0..1, y = 2..3 of the
// coarse +z face: each of those four coarse ghosts is the average of 2x2 fine cells of the fine -z layer
// (k = 0). Fine cells hold 2^i * 3^j (not linear, so the average needs all four with weight 1/4):
//   ghost (0, 2) = (1 + 2 + 3 + 6) / 4 = 3, (1, 2) = (4 + 8 + 12 + 24) / 4 = 12,
//   ghost (0, 3) = (9 + 18 + 27 + 54) / 4 = 27, (1, 3) = (36 + 72 + 108 + 216) / 4 = 108.
TEST(BlockGhostFill, FinerFaceIsRestrictedAsTheAverageOfTwoByTwoFineCells) {
  HostBlocks before = numbered_blocks(2);
  const auto& s = before.shape;
  for (int j = 0; j < kN; ++j)
    for (int i = 0; i < kN; ++i) before(1, i, j, 0) = (1 << i) * (j == 0 ? 1 : j == 1 ? 3 : j == 2 ? 9 : 27);
  const std::vector<GhostFillTask> tasks = {task(FaceFill::Restrict, kN / 2, before.at(1, 0, 0, 0), s.stride(0),
                                                 s.stride(1), before.at(0, 0, 2, kN), s.stride(0), s.stride(1))};
  HostBlocks after = before;
  after.v = run_fill(before.v, tasks);
  EXPECT_EQ(after(0, 0, 2, kN), 3.0);
  EXPECT_EQ(after(0, 1, 2, kN), 12.0);
  EXPECT_EQ(after(0, 0, 3, kN), 27.0);
  EXPECT_EQ(after(0, 1, 3, kN), 108.0);
  // The other three quarters of the coarse face belong to other fine blocks: untouched here.
  expect_only_written(before.v, after.v,
                      {before.at(0, 0, 2, kN), before.at(0, 1, 2, kN), before.at(0, 0, 3, kN), before.at(0, 1, 3, kN)});
}

// Sources received from another rank lie packed after the blocks (a fastest, then b): a whole face for a
// copy, a 2x2 quarter for a prolongation.
TEST(BlockGhostFill, FacesReceivedIntoTheStagingAreaFillLikeLocalOnes) {
  HostBlocks blocks = numbered_blocks(1);
  std::vector<double> before = blocks.v;
  const auto staging = static_cast<std::int64_t>(before.size());
  for (int q = 0; q < kN * kN; ++q) before.push_back(1000 + q);  // a copied face: 1000 + a + 4b
  for (int q = 0; q < 4; ++q) before.push_back(500 + q);         // a coarse quarter: 500 + a + 2b
  const auto& s = blocks.shape;
  const std::vector<GhostFillTask> tasks = {
      task(FaceFill::Copy, kN, staging, 1, kN, blocks.at(0, -1, 0, 0), s.stride(1), s.stride(2)),
      task(FaceFill::Prolong, kN, staging + kN * kN, 1, 2, blocks.at(0, 0, 0, -1), s.stride(0), s.stride(1))};
  const std::vector<double> after = run_fill(before, tasks);
  std::set<std::int64_t> written;
  const double prolonged[kN][kN] = {
      {500, 500, 501, 501}, {500, 500, 501, 501}, {502, 502, 503, 503}, {502, 502, 503, 503}};
  for (int b = 0; b < kN; ++b)
    for (int a = 0; a < kN; ++a) {
      EXPECT_EQ(after[static_cast<std::size_t>(blocks.at(0, -1, a, b))], 1000 + a + 4 * b)
          << "-x ghost " << a << "," << b;
      EXPECT_EQ(after[static_cast<std::size_t>(blocks.at(0, a, b, -1))], prolonged[b][a])
          << "-z ghost " << a << "," << b;
      written.insert(blocks.at(0, -1, a, b));
      written.insert(blocks.at(0, a, b, -1));
    }
  expect_only_written(before, after, written);
}

}  // namespace
