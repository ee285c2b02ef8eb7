// SPDX-License-Identifier: BSD-3-Clause
// The 3D7PT and 3D27PT sweeps written over their own grid give, bit for bit, what the sweeps into a
// second grid give: every new interior value, the ghosts left as they were, the yz faces, the interior sum
// and the outflow (see below for one-plane blocks), for one slab and for several (each overwriting planes
// its neighbours read), with the yz ghosts in the grid or waiting in side arrays (yz_ghost_sides.hpp); and
// amp-ghost's choice of them (sweeps_in_place) holds where they are measured to pay and nowhere else.
#include "serial_reference.hpp"

#include <amp/kernels/stencil.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

namespace {

namespace k = amp::kernels;
using amp::test::ExecutionSpace;
using amp::test::MemorySpace;
using k::BlockExtent;
using k::Stencil;

using Face = Kokkos::View<double*, MemorySpace>;

struct SweptBlock {
  amp::test::HostGrid grid;
  k::SweepSums sums;
  std::vector<double> low, high;
};

std::vector<double> host_copy(const Face& face) {
  const auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), face);
  return std::vector<double>(m.data(), m.data() + m.extent(0));
}

// Where the sweep in place finds the yz ghosts: all in the grid, or those of the lines set aside in side
// arrays (the grid's copies of them NaN): all lines, or all but those next to a y or z neighbour.
enum class Ghosts { kInGrid, kAside, kAsideButEdges };

// The side arrays of `ghosts` for block h, and h's copies of the ghosts that wait there made NaN.
k::YzGhostSides<MemorySpace> set_aside(amp::test::HostGrid& h, Ghosts ghosts, Face& low, Face& high) {
  if (ghosts == Ghosts::kInGrid) return {};
  const BlockExtent& e = h.e;
  const k::YzLinesAside lines =
      ghosts == Ghosts::kAside ? k::YzLinesAside{1, e.ny, 1, e.nz} : k::YzLinesAside{2, e.ny - 1, 1, e.nz - 1};
  auto low_h = Kokkos::create_mirror_view(low), high_h = Kokkos::create_mirror_view(high);
  for (int kz = 1; kz <= e.nz; ++kz)
    for (int j = 1; j <= e.ny; ++j) {
      if (!lines.holds(j, kz)) continue;
      low_h(k::yz_face_element(j, kz, e.ny)) = h(0, j, kz);
      high_h(k::yz_face_element(j, kz, e.ny)) = h(e.nx + 1, j, kz);
      h(0, j, kz) = h(e.nx + 1, j, kz) = std::numeric_limits<double>::quiet_NaN();
    }
  Kokkos::deep_copy(low, low_h);
  Kokkos::deep_copy(high, high_h);
  return {low, high, lines};
}

// slabs == 0: into a second grid (apply_stencil_with_outflow); otherwise in place over that many slabs.
SweptBlock swept(Stencil stencil, const BlockExtent& e, const k::GlobalSides& sides, int slabs,
                 Ghosts ghosts = Ghosts::kInGrid) {
  auto sample = amp::test::sample_grid(e, 11);
  const std::size_t face = static_cast<std::size_t>(e.ny) * e.nz;
  Face ghost_low("ghost_low", face), ghost_high("ghost_high", face);
  const k::YzGhostSides<MemorySpace> aside = set_aside(sample, ghosts, ghost_low, ghost_high);
  auto in = amp::test::to_device(sample);
  Face low("low", face), high("high", face);
  const k::YzFaceCopies<MemorySpace> faces{low, high};
  k::SweepSums sums;
  k::Grid<MemorySpace> result = in;
  if (slabs == 0) {
    k::Grid<MemorySpace> out("out", e.nx + 2, e.ny + 2, e.nz + 2);
    Kokkos::deep_copy(out, in);  // the same ghosts as the grid swept in place keeps
    sums = k::apply_stencil_with_outflow<ExecutionSpace>(stencil, in, out, e, sides, faces);
    result = out;
  } else {
    sums = k::detail::sweep_in_place<ExecutionSpace>(stencil, in, e, sides, faces, aside,
                                                     k::InPlaceWorkspace<MemorySpace>(e, slabs));
  }
  return {amp::test::to_host(result, e), sums, host_copy(low), host_copy(high)};
}

class InPlaceSweep : public ::testing::TestWithParam<Stencil> {};

TEST_P(InPlaceSweep, SameBitsAsIntoASecondGrid) {
  k::GlobalSides all;
  for (int a = 0; a < 3; ++a) all.low[a] = all.high[a] = true;
  k::GlobalSides some;
  some.low[0] = some.high[2] = true;
  // Lines of the shortest and longest swept in place (the box sum's longest; 300 for 3D7PT), planes that do
  // and do not divide among the slabs.
  const BlockExtent longest = GetParam() == Stencil::ThreeD27Pt ? BlockExtent{256, 3, 5} : BlockExtent{300, 3, 5};
  for (const BlockExtent e : {BlockExtent{64, 5, 7}, BlockExtent{100, 9, 4}, longest, BlockExtent{70, 6, 1}})
    for (const k::GlobalSides& sides : {k::GlobalSides{}, some, all}) {
      const SweptBlock reference = swept(GetParam(), e, sides, 0);
      for (const int slabs : {1, 2, 3, e.nz})
        for (const Ghosts ghosts : {Ghosts::kInGrid, Ghosts::kAside, Ghosts::kAsideButEdges}) {
          if (slabs > e.nz) continue;
          const SweptBlock in_place = swept(GetParam(), e, sides, slabs, ghosts);
          // The ghosts too: the sweep wrote the waiting ones into the grid.
          EXPECT_EQ(in_place.grid.v, reference.grid.v)
              << e.nx << "x" << e.ny << "x" << e.nz << ", " << slabs << " slabs, ghosts " << static_cast<int>(ghosts);
          EXPECT_EQ(in_place.low, reference.low);
          EXPECT_EQ(in_place.high, reference.high);
          // One thread sweeps the slabs in order, adding the planes' sums in the order the runs of planes add up.
          EXPECT_EQ(in_place.sums.interior, reference.sums.interior);
          // The outflow to the last bit only where the block has planes enough: on a one-plane block the sweep
          // into a second grid adds its lines' outflow one bit apart from stencil_outflow's separate pass,
          // which the sweep in place matches there (a different contraction of the sum's multiply-adds).
          if (e.nz > 1)
            EXPECT_EQ(in_place.sums.outflow, reference.sums.outflow);
          else
            EXPECT_NEAR(in_place.sums.outflow, reference.sums.outflow, 1e-14 * reference.sums.outflow);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(ThreeD, InPlaceSweep, ::testing::Values(Stencil::ThreeD7Pt, Stencil::ThreeD27Pt),
                         [](const auto& info) { return k::stencil_name(info.param); });

TEST(InPlaceSweep, ChosenOnlyWhereItPays) {
  EXPECT_TRUE(k::sweeps_in_place<Kokkos::DefaultHostExecutionSpace>(Stencil::ThreeD27Pt, BlockExtent{128, 128, 128}));
  EXPECT_TRUE(k::sweeps_in_place<Kokkos::DefaultHostExecutionSpace>(Stencil::ThreeD27Pt, BlockExtent{64, 64, 64}));
  EXPECT_TRUE(k::sweeps_in_place<Kokkos::DefaultHostExecutionSpace>(Stencil::ThreeD7Pt, BlockExtent{128, 128, 128}));
  EXPECT_TRUE(k::sweeps_in_place<Kokkos::DefaultHostExecutionSpace>(Stencil::ThreeD7Pt, BlockExtent{300, 64, 64}));
  EXPECT_FALSE(k::sweeps_in_place<Kokkos::DefaultHostExecutionSpace>(Stencil::TwoD9Pt, BlockExtent{128, 128, 128}));
  EXPECT_FALSE(k::sweeps_in_place<Kokkos::DefaultHostExecutionSpace>(Stencil::ThreeD27Pt, BlockExtent{63, 64, 64}));
  EXPECT_FALSE(k::sweeps_in_place<Kokkos::DefaultHostExecutionSpace>(Stencil::ThreeD27Pt, BlockExtent{257, 64, 64}));
  EXPECT_FALSE(k::sweeps_in_place<Kokkos::DefaultHostExecutionSpace>(Stencil::ThreeD27Pt, BlockExtent{64, 8, 8}));
}

// The sweeper amp-ghost holds: in place, `next` untouched (it may be empty) and the new values in `current`.
TEST(InPlaceSweep, SweeperLeavesTheNewValuesInCurrent) {
  const BlockExtent e{64, 24, 24};
  const k::StencilSweeper<ExecutionSpace> sweeper(Stencil::ThreeD27Pt, e);
  if (!k::sweeps_in_place<ExecutionSpace>(Stencil::ThreeD27Pt, e)) GTEST_SKIP() << "not a host back end";
  ASSERT_TRUE(sweeper.in_place());
  auto current = amp::test::to_device(amp::test::sample_grid(e, 3));
  const auto before = amp::test::sample_grid(e, 3);
  const k::SweepSums sums = sweeper.sweep(current, k::Grid<MemorySpace>(), k::GlobalSides{});
  const auto after = amp::test::to_host(current, e);
  double expected_sum = 0.0;
  for (int z = 1; z <= e.nz; ++z)
    for (int y = 1; y <= e.ny; ++y)
      for (int x = 1; x <= e.nx; ++x) {
        const double expected = amp::test::serial_stencil_value(Stencil::ThreeD27Pt, before, x, y, z);
        ASSERT_EQ(after(x, y, z), expected) << x << "," << y << "," << z;
        expected_sum += expected;
      }
  EXPECT_NEAR(sums.interior, expected_sum, 1e-12 * expected_sum);
  EXPECT_EQ(after(0, 3, 3), before(0, 3, 3));  // a ghost
}

// Ghosts set aside only a sweep in place writes into the grid: a sweeper into a second grid refuses them.
TEST(InPlaceSweep, OnlyASweepInPlaceTakesGhostsSetAside) {
  const BlockExtent e{16, 16, 16};
  const k::StencilSweeper<ExecutionSpace> sweeper(Stencil::ThreeD27Pt, e);
  ASSERT_FALSE(sweeper.in_place());
  const auto grid = amp::test::to_device(amp::test::sample_grid(e, 3));
  k::Grid<MemorySpace> next("next", e.nx + 2, e.ny + 2, e.nz + 2);
  Face low("low", static_cast<std::size_t>(e.ny) * e.nz);
  EXPECT_THROW(sweeper.sweep(grid, next, k::GlobalSides{}, {}, {low, {}, k::YzLinesAside{1, e.ny, 1, e.nz}}),
               std::invalid_argument);
  EXPECT_NO_THROW(sweeper.sweep(grid, next, k::GlobalSides{}));
}

}  // namespace
