// SPDX-License-Identifier: BSD-3-Clause
// amr_cell_values: initial values and digests belong to the global cell (level, position x n + cell), not
// to the block size, storage slot or rank; amr_total weighs each value by its level's cell volume.
#include "amr_block_storage.hpp"

#include <amp/kernels/amr_cell_values.hpp>
#include <amp/kernels/host_to_device.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace {

using amp::kernels::AmrBlock;
using amp::kernels::FaceNeighbour;
using amp::test::amr_block;
using amp::test::HostBlocks;

constexpr double kGhost = -7.0;
constexpr std::uint64_t kSeed = 42;

HostBlocks initial_values(int n, const std::vector<AmrBlock>& blocks, std::uint64_t seed, int variable) {
  HostBlocks h(n, static_cast<int>(blocks.size()), kGhost);
  const auto device = amp::test::to_device(h.v);
  amp::kernels::fill_amr_initial_values<amp::test::ExecutionSpace>(
      device, amp::kernels::copy_to<amp::test::MemorySpace>(blocks, "blocks"), h.shape, seed, variable);
  h.v = amp::test::to_host(device);
  return h;
}

double total(const HostBlocks& h, const std::vector<AmrBlock>& blocks) {
  const auto device = amp::test::to_device(h.v);
  return amp::kernels::amr_total<amp::test::ExecutionSpace>(
      device, amp::kernels::copy_to<amp::test::MemorySpace>(blocks, "blocks"), h.shape);
}

std::uint64_t digest(const HostBlocks& h, const std::vector<AmrBlock>& blocks, int variable) {
  const auto device = amp::test::to_device(h.v);
  return amp::kernels::amr_digest<amp::test::ExecutionSpace>(
      device, amp::kernels::copy_to<amp::test::MemorySpace>(blocks, "blocks"), h.shape, variable);
}

// The same 4x4x4 cells of level 1 (x 4..7, y 0..3, z 4..7) as one 4^3 block at position (1, 0, 1), and as
// eight 2^3 blocks at positions (2..3, 0..1, 2..3) stored in reverse order.
struct SameCellsTwoWays {
  std::vector<AmrBlock> whole{amr_block(1, FaceNeighbour::SameLevel, 1, 0, 1)};
  std::vector<AmrBlock> eighths;
  SameCellsTwoWays() {
    for (int s = 7; s >= 0; --s)
      eighths.push_back(amr_block(1, FaceNeighbour::SameLevel, 2 + (s & 1), (s >> 1) & 1, 2 + (s >> 2)));
  }
  // Slot and local cell, in the eighths, of local cell (i, j, k) of the whole block.
  static int eighth_slot(int i, int j, int k) { return 7 - (i / 2 + 2 * (j / 2) + 4 * (k / 2)); }
};

TEST(AmrCellValues, InitialValuesBelongToTheGlobalCellNotToTheBlockSizeOrSlot) {
  const SameCellsTwoWays cells;
  const HostBlocks whole = initial_values(4, cells.whole, kSeed, 2);
  const HostBlocks eighths = initial_values(2, cells.eighths, kSeed, 2);
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 4; ++i) {
        const double v = whole(0, i, j, k);
        EXPECT_EQ(v, eighths(SameCellsTwoWays::eighth_slot(i, j, k), i % 2, j % 2, k % 2)) << i << "," << j << "," << k;
        EXPECT_GE(v, 1.0);
        EXPECT_LT(v, 2.0);
      }
  for (int k = -1; k <= 4; ++k)
    for (int j = -1; j <= 4; ++j)
      for (int i = -1; i <= 4; ++i)
        if (!whole.is_interior(i, j, k)) {
          EXPECT_EQ(whole(0, i, j, k), kGhost) << "ghost written at " << i << "," << j << "," << k;
        }
}

TEST(AmrCellValues, InitialValuesDifferWithLevelVariableSeedAndCell) {
  const std::vector<AmrBlock> level1{amr_block(1, FaceNeighbour::SameLevel, 1, 0, 1)};
  const std::vector<AmrBlock> level2{amr_block(2, FaceNeighbour::SameLevel, 1, 0, 1)};
  const HostBlocks base = initial_values(4, level1, kSeed, 2);
  const HostBlocks other_level = initial_values(4, level2, kSeed, 2);
  const HostBlocks other_variable = initial_values(4, level1, kSeed, 3);
  const HostBlocks other_seed = initial_values(4, level1, kSeed + 1, 2);
  int same_level = 0, same_variable = 0, same_seed = 0, same_as_neighbour = 0;
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 4; ++i) {
        same_level += base(0, i, j, k) == other_level(0, i, j, k);
        same_variable += base(0, i, j, k) == other_variable(0, i, j, k);
        same_seed += base(0, i, j, k) == other_seed(0, i, j, k);
        same_as_neighbour += base(0, i, j, k) == base(0, (i + 1) % 4, j, k);  // the cell index counts
        same_as_neighbour += i != j && base(0, i, j, k) == base(0, j, i, k);  // and x is not y
      }
  EXPECT_EQ(same_level, 0);
  EXPECT_EQ(same_variable, 0);
  EXPECT_EQ(same_seed, 0);
  EXPECT_EQ(same_as_neighbour, 0);
}

// Level-0 cells have volume 1, level 1 1/8, level 2 1/64: 64 cells of 1 at level 0, of 2 at level 1 and of 8
// at level 2 weigh 64 + 16 + 8 = 88. Ghosts (1000) do not count.
TEST(AmrCellValues, TotalWeighsEachValueByItsCellVolume) {
  const std::vector<AmrBlock> blocks{amr_block(0, FaceNeighbour::SameLevel), amr_block(1, FaceNeighbour::SameLevel),
                                     amr_block(2, FaceNeighbour::SameLevel)};
  HostBlocks h(4, 3, 1000.0);
  const double value[3] = {1.0, 2.0, 8.0};
  for (int b = 0; b < 3; ++b)
    for (int k = 0; k < 4; ++k)
      for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 4; ++i) h(b, i, j, k) = value[b];
  EXPECT_EQ(total(h, blocks), 88.0);
}

TEST(AmrCellValues, DigestIsTheSameForTheSameCellsHowEverTheyAreSplitOrStored) {
  const SameCellsTwoWays cells;
  HostBlocks whole = initial_values(4, cells.whole, kSeed, 2);
  HostBlocks eighths = initial_values(2, cells.eighths, kSeed, 2);
  EXPECT_EQ(digest(whole, cells.whole, 2), digest(eighths, cells.eighths, 2));
  whole(0, -1, 2, 2) = 123.0;  // a ghost: not part of the digest
  EXPECT_EQ(digest(whole, cells.whole, 2), digest(eighths, cells.eighths, 2));
}

TEST(AmrCellValues, DigestChangesWithOneBitOneSwapOrTheVariable) {
  const std::vector<AmrBlock> blocks{amr_block(1, FaceNeighbour::SameLevel, 1, 0, 1)};
  const HostBlocks values = initial_values(4, blocks, kSeed, 0);
  const std::uint64_t before = digest(values, blocks, 0);
  HostBlocks one_bit = values;
  one_bit(0, 2, 3, 1) = std::nextafter(one_bit(0, 2, 3, 1), 3.0);
  EXPECT_NE(digest(one_bit, blocks, 0), before);
  HostBlocks swapped = values;
  std::swap(swapped(0, 0, 1, 2), swapped(0, 1, 0, 2));  // same values, other cells
  EXPECT_NE(digest(swapped, blocks, 0), before);
  EXPECT_NE(digest(values, blocks, 1), before);
  std::vector<AmrBlock> other_level = blocks;
  other_level[0].level = 2;
  EXPECT_NE(digest(values, other_level, 0), before);
}

}  // namespace
