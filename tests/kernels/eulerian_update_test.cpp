// SPDX-License-Identifier: BSD-3-Clause
// eulerian_update against values worked out by hand from the scheme (first-order upwind advection plus
// diffusion in flux form): constant fields, one non-zero cell, the domain boundary and coarse-fine faces.
#include "amr_block_storage.hpp"

#include <amp/kernels/eulerian_update.hpp>
#include <amp/kernels/host_to_device.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace {

using amp::kernels::AmrBlock;
using amp::kernels::EulerianParams;
using amp::kernels::FaceNeighbour;
using amp::test::amr_block;
using amp::test::HostBlocks;

constexpr double kUnwritten = -7.0;  // what `next` holds before the update: ghosts must keep it
constexpr double kDt = 0.1;

struct UpdateResult {
  HostBlocks next;
  double outflow;
};

UpdateResult run_update(const HostBlocks& current, const std::vector<AmrBlock>& blocks, const EulerianParams& p) {
  const auto current_device = amp::test::to_device(current.v);
  HostBlocks next(current.shape.n, current.blocks, kUnwritten);
  const auto next_device = amp::test::to_device(next.v);
  const auto blocks_device = amp::kernels::copy_to<amp::test::MemorySpace>(blocks, "blocks");
  const double outflow = amp::kernels::eulerian_update<amp::test::ExecutionSpace>(current_device, next_device,
                                                                                  blocks_device, current.shape, p, kDt);
  Kokkos::fence();
  next.v = amp::test::to_host(next_device);
  return {next, outflow};
}

// Every interior cell equals `expected` (to rounding of the hand values), every ghost is unwritten.
void expect_interior(const HostBlocks& next, const HostBlocks& expected) {
  const int n = next.shape.n;
  for (int b = 0; b < next.blocks; ++b)
    for (int k = -1; k <= n; ++k)
      for (int j = -1; j <= n; ++j)
        for (int i = -1; i <= n; ++i) {
          const auto where = ::testing::Message() << "block " << b << " cell " << i << "," << j << "," << k;
          if (next.is_interior(i, j, k)) {
            EXPECT_NEAR(next(b, i, j, k), expected(b, i, j, k), 1e-15) << where;
          } else {
            EXPECT_EQ(next(b, i, j, k), kUnwritten) << "ghost written: " << where;
          }
        }
}

double interior_mass(const HostBlocks& f, int block, double h) {
  double sum = 0.0;
  const int n = f.shape.n;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) sum += f(block, i, j, k) * h * h * h;
  return sum;
}

// Cell (1, 1, 1) holds 1, every other cell and ghost 0, in one block of the given level with same-level faces.
UpdateResult update_one_unit_cell(int level, const EulerianParams& p) {
  HostBlocks current(4, 1);
  current(0, 1, 1, 1) = 1.0;
  return run_update(current, {amr_block(level, FaceNeighbour::SameLevel)}, p);
}

// A coarse level-0 block (slot 0) whose +x face is finer, and a level-1 block (slot 1) whose -x face is
// coarser: the fine block's face cells (0, 0..1, 0..1) lie against the coarse face cell (3, 0, 0).
std::vector<AmrBlock> coarse_and_fine_blocks() {
  AmrBlock coarse = amr_block(0, FaceNeighbour::SameLevel);
  coarse.face[1] = static_cast<int>(FaceNeighbour::Finer);
  AmrBlock fine = amr_block(1, FaceNeighbour::SameLevel);
  fine.face[0] = static_cast<int>(FaceNeighbour::Coarser);
  return {coarse, fine};
}

TEST(EulerianUpdate, ConstantFieldStaysConstantOnEveryLevelAndAcrossCoarseFineFaces) {
  EulerianParams backwards;
  backwards.velocity[0] = -0.3;
  backwards.velocity[2] = -0.1;
  for (const EulerianParams& p : {EulerianParams{}, backwards}) {
    const HostBlocks current(4, 2, 0.75);  // ghosts too: copies, averages and prolongations of 0.75
    const auto result = run_update(current, coarse_and_fine_blocks(), p);
    HostBlocks expected(4, 2, 0.75);
    expect_interior(result.next, expected);
    EXPECT_EQ(result.outflow, 0.0);
  }
}

// One cell of value 1 in a level-0 block of zeros, velocity (0.3, 0.2, 0.1), diffusion 0.05, dt 0.1, h 1.
// Per face, flux out = upwind advection + diffusion 0.05 * (u - neighbour) / 1:
//   the cell loses 0.1 * (0.3 + 0.2 + 0.1 + 6 * 0.05) = 0.09 -> 0.91;
//   its downwind neighbours gain 0.1 * (v + 0.05): +x 0.035, +y 0.025, +z 0.015;
//   its upwind neighbours gain diffusion only, 0.1 * 0.05 = 0.005.
TEST(EulerianUpdate, SingleCellMovesDownwindAndDiffusesToAllSixNeighbours) {
  const auto result = update_one_unit_cell(0, EulerianParams{});
  HostBlocks expected(4, 1);
  expected(0, 1, 1, 1) = 0.91;
  expected(0, 2, 1, 1) = 0.035;
  expected(0, 1, 2, 1) = 0.025;
  expected(0, 1, 1, 2) = 0.015;
  expected(0, 0, 1, 1) = expected(0, 1, 0, 1) = expected(0, 1, 1, 0) = 0.005;
  expect_interior(result.next, expected);
  EXPECT_NEAR(interior_mass(result.next, 0, 1.0), 1.0, 1e-15);
  EXPECT_EQ(result.outflow, 0.0);
}

// The same cell with every velocity reversed: downwind is now the low side on every axis.
TEST(EulerianUpdate, NegativeVelocityMovesTheCellTowardsTheLowSide) {
  EulerianParams p;
  p.velocity[0] = -0.3;
  p.velocity[1] = -0.2;
  p.velocity[2] = -0.1;
  const auto result = update_one_unit_cell(0, p);
  HostBlocks expected(4, 1);
  expected(0, 1, 1, 1) = 0.91;
  expected(0, 0, 1, 1) = 0.035;
  expected(0, 1, 0, 1) = 0.025;
  expected(0, 1, 1, 0) = 0.015;
  expected(0, 2, 1, 1) = expected(0, 1, 2, 1) = expected(0, 1, 1, 2) = 0.005;
  expect_interior(result.next, expected);
}

// At level 1 (h = 0.5) the diffusion flux is 0.05 * (u - neighbour) / 0.5 and the update is dt / h = 0.2
// times the flux sum: the cell keeps 1 - 0.2 * (0.6 + 6 * 0.1) = 0.76, downwind gains 0.2 * (v + 0.1),
// upwind 0.02. Mass (value x 0.125) is conserved.
TEST(EulerianUpdate, FinerLevelUsesItsOwnCellWidth) {
  const auto result = update_one_unit_cell(1, EulerianParams{});
  HostBlocks expected(4, 1);
  expected(0, 1, 1, 1) = 0.76;
  expected(0, 2, 1, 1) = 0.08;
  expected(0, 1, 2, 1) = 0.06;
  expected(0, 1, 1, 2) = 0.04;
  expected(0, 0, 1, 1) = expected(0, 1, 0, 1) = expected(0, 1, 1, 0) = 0.02;
  expect_interior(result.next, expected);
  EXPECT_NEAR(interior_mass(result.next, 0, 0.5), 0.125, 1e-15);
}

// A cell of value 1 against the -x domain boundary (zero ghost) with velocity -0.3 in x: it flows out.
// Through that face leave 0.3 * 1 + 0.05 * (1 - 0) = 0.35 per unit area, so dt * h^2 * 0.35 = 0.035 is
// the outflow; the cell keeps 0.91 as in the open case, and what stays plus the outflow is 1.
TEST(EulerianUpdate, DomainBoundaryGhostIsZeroAndWhatLeavesIsReturned) {
  AmrBlock at_boundary = amr_block(0, FaceNeighbour::SameLevel);
  at_boundary.face[0] = static_cast<int>(FaceNeighbour::DomainBoundary);
  HostBlocks current(4, 1);
  current(0, 0, 1, 1) = 1.0;
  EulerianParams p;
  p.velocity[0] = -0.3;
  const auto result = run_update(current, {at_boundary}, p);
  HostBlocks expected(4, 1);
  expected(0, 0, 1, 1) = 0.91;
  expected(0, 1, 1, 1) = 0.005;  // upwind in x now: diffusion only
  expected(0, 0, 2, 1) = 0.025;
  expected(0, 0, 1, 2) = 0.015;
  expected(0, 0, 0, 1) = expected(0, 0, 1, 0) = 0.005;
  expect_interior(result.next, expected);
  EXPECT_NEAR(result.outflow, 0.035, 1e-15);
  EXPECT_NEAR(interior_mass(result.next, 0, 1.0) + result.outflow, 1.0, 1e-15);

  // At level 1: outflow 0.1 * 0.25 * (0.3 + 0.05 / 0.5) = 0.01, the cell keeps 0.76.
  AmrBlock fine_at_boundary = at_boundary;
  fine_at_boundary.level = 1;
  const auto fine = run_update(current, {fine_at_boundary}, p);
  EXPECT_NEAR(fine.outflow, 0.01, 1e-15);
  EXPECT_NEAR(fine.next(0, 0, 1, 1), 0.76, 1e-15);
  EXPECT_NEAR(interior_mass(fine.next, 0, 0.5) + fine.outflow, 0.125, 1e-15);
}

// Pure advection (velocity 0.3 in x, no diffusion) from the coarse face cell (value 1) into the fine block:
// the coarse cell loses dt / 1 * 0.3 = 0.03 (volume 1); each of the four fine cells behind the face sees
// the prolonged ghost 1 and gains dt / 0.5 * 0.3 = 0.06 (volume 1/8): 4 * 0.06 / 8 = 0.03 arrives.
TEST(EulerianUpdate, AdvectionFromCoarseIntoFineIsUpwindAndConservative) {
  HostBlocks current(4, 2);
  current(0, 3, 0, 0) = 1.0;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j) current(1, -1, j, k) = 1.0;  // prolonged from the coarse cell
  EulerianParams p;
  p.velocity[1] = p.velocity[2] = 0.0;
  p.diffusion = 0.0;
  const auto result = run_update(current, coarse_and_fine_blocks(), p);
  HostBlocks expected(4, 2);
  expected(0, 3, 0, 0) = 0.97;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j) expected(1, 0, j, k) = 0.06;
  expect_interior(result.next, expected);
  EXPECT_NEAR(interior_mass(result.next, 0, 1.0) + interior_mass(result.next, 1, 0.5), 1.0, 1e-15);
}

// Pure advection with velocity -0.3 from the fine block into the coarse one. Fine face cells 0.4, 0.2, 0.2, 0
// (their average 0.2 is the coarse ghost), the coarse cell is 0 (the fine ghosts). Fine cells keep
// u - 0.2 * 0.3 * u: 0.376, 0.188, 0.188, 0; the coarse cell gains 0.1 * 0.3 * 0.2 = 0.006, which is what
// the fine cells lost: (0.024 + 0.012 + 0.012) / 8.
TEST(EulerianUpdate, AdvectionFromFineIntoCoarseTakesTheRestrictedGhost) {
  HostBlocks current(4, 2);
  current(1, 0, 0, 0) = 0.4;
  current(1, 0, 1, 0) = 0.2;
  current(1, 0, 0, 1) = 0.2;
  current(0, 4, 0, 0) = 0.2;  // coarse ghost: average of the four fine face cells
  EulerianParams p;
  p.velocity[0] = -0.3;
  p.velocity[1] = p.velocity[2] = 0.0;
  p.diffusion = 0.0;
  const auto result = run_update(current, coarse_and_fine_blocks(), p);
  HostBlocks expected(4, 2);
  expected(0, 3, 0, 0) = 0.006;
  expected(1, 0, 0, 0) = 0.376;
  expected(1, 0, 1, 0) = 0.188;
  expected(1, 0, 0, 1) = 0.188;
  expect_interior(result.next, expected);
  EXPECT_NEAR(interior_mass(result.next, 0, 1.0) + interior_mass(result.next, 1, 0.5), 0.1, 1e-15);
}

// Pure diffusion (0.05) across the coarse-fine face; everything else is flat so no other face carries flux.
// The coarse cell 1 sees the restricted ghost 0.2 at distance 0.75 (its own width 1):
//   flux 0.05 * 0.8 / 0.75 = 4/75, it keeps 1 - 0.1 * 4/75 = 1 - 2/375.
// Each fine cell 0.2 sees the prolonged ghost 1 at distance 1.5 x its width 0.5 = 0.75:
//   flux in 4/75, it gets 0.2 + 0.1 / 0.5 * 4/75 = 0.2 + 4/375.
// Mass: the coarse cell loses 2/375, the four fine cells gain 4 * 4/375 / 8 = 2/375.
TEST(EulerianUpdate, DiffusionAcrossCoarseFineFaceUsesThreeQuarterCoarseWidthOnBothSides) {
  HostBlocks current(4, 2);
  const int n = 4;
  for (int k = -1; k <= n; ++k)
    for (int j = -1; j <= n; ++j)
      for (int i = -1; i <= n; ++i) {
        current(0, i, j, k) = 1.0;
        current(1, i, j, k) = 0.2;
      }
  current(0, 4, 0, 0) = 0.2;  // average of the four fine face cells
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j) current(1, -1, j, k) = 1.0;  // prolonged from the coarse cell
  EulerianParams p;
  p.velocity[0] = p.velocity[1] = p.velocity[2] = 0.0;
  const auto result = run_update(current, coarse_and_fine_blocks(), p);
  HostBlocks expected = current;
  expected(0, 3, 0, 0) = 1.0 - 2.0 / 375.0;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j) expected(1, 0, j, k) = 0.2 + 4.0 / 375.0;
  expect_interior(result.next, expected);
  EXPECT_NEAR(interior_mass(result.next, 0, 1.0) + interior_mass(result.next, 1, 0.5),
              interior_mass(current, 0, 1.0) + interior_mass(current, 1, 0.5), 1e-13);
}

}  // namespace
