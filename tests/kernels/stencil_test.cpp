// SPDX-License-Identifier: BSD-3-Clause
// Each stencil kernel equals the plain serial loop bit for bit, writes only the interior, and
// returns the sum of the new interior values; the yz faces it copies on the way equal its first and
// last interior columns, in packed order.
#include "serial_reference.hpp"

#include <amp/kernels/stencil.hpp>

#include <gtest/gtest.h>

namespace {

using amp::kernels::BlockExtent;
using amp::kernels::Stencil;

class StencilMatchesSerialLoop : public ::testing::TestWithParam<Stencil> {};

TEST_P(StencilMatchesSerialLoop, OnOddSizedGrids) {
  // The last one has x-lines longer than one chunk (256) and more than one run of lines (16) per plane.
  // 3D27PT sweeps lines of 64 cells or more one per pass, shorter ones two per pass (box_sum_lines_per_pass).
  for (const BlockExtent e : {BlockExtent{5, 3, 7}, BlockExtent{1, 1, 1}, BlockExtent{9, 11, 2}, BlockExtent{63, 5, 2},
                              BlockExtent{64, 5, 2}, BlockExtent{300, 37, 3}}) {
    const auto in_host = amp::test::sample_grid(e, 3);
    auto in = amp::test::to_device(in_host);
    amp::kernels::Grid<amp::test::MemorySpace> out("out", e.nx + 2, e.ny + 2, e.nz + 2);
    Kokkos::deep_copy(out, -1.0);
    const double sum = amp::kernels::apply_stencil<amp::test::ExecutionSpace>(GetParam(), in, out, e);
    const auto out_host = amp::test::to_host(out, e);
    double expected_sum = 0.0;
    for (int k = 0; k < e.nz + 2; ++k)
      for (int j = 0; j < e.ny + 2; ++j)
        for (int i = 0; i < e.nx + 2; ++i) {
          const bool interior = i >= 1 && i <= e.nx && j >= 1 && j <= e.ny && k >= 1 && k <= e.nz;
          if (!interior) {
            EXPECT_EQ(out_host(i, j, k), -1.0) << "ghost written at " << i << "," << j << "," << k;
            continue;
          }
          const double expected = amp::test::serial_stencil_value(GetParam(), in_host, i, j, k);
          EXPECT_EQ(out_host(i, j, k), expected) << "cell " << i << "," << j << "," << k;
          expected_sum += expected;
        }
    EXPECT_NEAR(sum, expected_sum, 1e-12 * expected_sum);
  }
}

TEST_P(StencilMatchesSerialLoop, CopiesItsNewYzFacesInPackedOrder) {
  // x-lines of one cell (both faces are the same column), of one chunk, and longer than a chunk (256).
  for (const BlockExtent e : {BlockExtent{1, 4, 3}, BlockExtent{7, 19, 2}, BlockExtent{300, 5, 3}}) {
    const auto in = amp::test::to_device(amp::test::sample_grid(e, 5));
    amp::kernels::Grid<amp::test::MemorySpace> out("out", e.nx + 2, e.ny + 2, e.nz + 2);
    const std::size_t face = static_cast<std::size_t>(e.ny) * e.nz;
    Kokkos::View<double*, amp::test::MemorySpace> low("low", face + 1),
        high("high", face + 1);                      // one more: nothing past the face
    for (const bool global_sides : {false, true}) {  // the sweep without and with the fused outflow
      Kokkos::deep_copy(low, -1.0);
      Kokkos::deep_copy(high, -1.0);
      amp::kernels::GlobalSides sides;
      sides.low[0] = global_sides;
      amp::kernels::apply_stencil_with_outflow<amp::test::ExecutionSpace>(
          GetParam(), in, out, e, sides, amp::kernels::YzFaceCopies<amp::test::MemorySpace>{low, high});
      const auto out_host = amp::test::to_host(out, e);
      const auto low_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), low);
      const auto high_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), high);
      for (int k = 1; k <= e.nz; ++k)
        for (int j = 1; j <= e.ny; ++j) {
          const std::size_t at = static_cast<std::size_t>(k - 1) * e.ny + (j - 1);
          EXPECT_EQ(low_host(at), out_host(1, j, k)) << "low face, line " << j << "," << k;
          EXPECT_EQ(high_host(at), out_host(e.nx, j, k)) << "high face, line " << j << "," << k;
        }
      EXPECT_EQ(low_host(face), -1.0);
      EXPECT_EQ(high_host(face), -1.0);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllStencils, StencilMatchesSerialLoop,
                         ::testing::Values(Stencil::TwoD5Pt, Stencil::TwoD9Pt, Stencil::ThreeD7Pt, Stencil::ThreeD27Pt),
                         [](const auto& info) { return amp::kernels::stencil_name(info.param); });

}  // namespace
