// Each stencil kernel equals the plain serial loop bit for bit, writes only the interior, and
// returns the sum of the new interior values.
#include "serial_reference.hpp"

#include <kernels/stencil.hpp>

#include <gtest/gtest.h>

namespace {

using amp::kernels::BlockExtent;
using amp::kernels::Stencil;

class StencilMatchesSerialLoop : public ::testing::TestWithParam<Stencil> {};

TEST_P(StencilMatchesSerialLoop, OnOddSizedGrids) {
  // The last one has x-lines longer than one chunk (256) and more than one run of lines (16) per plane.
  for (const BlockExtent e : {BlockExtent{5, 3, 7}, BlockExtent{1, 1, 1}, BlockExtent{9, 11, 2}, BlockExtent{300, 37, 3}}) {
    const auto in_host = amp::test::sample_grid(e, 3);
    auto in = amp::test::to_device(in_host);
    amp::kernels::Grid<> out("out", e.nx + 2, e.ny + 2, e.nz + 2);
    Kokkos::deep_copy(out, -1.0);
    const double sum = amp::kernels::apply_stencil(GetParam(), in, out, e);
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

INSTANTIATE_TEST_SUITE_P(AllStencils, StencilMatchesSerialLoop,
                         ::testing::Values(Stencil::TwoD5Pt, Stencil::TwoD9Pt, Stencil::ThreeD7Pt, Stencil::ThreeD27Pt),
                         [](const auto& info) { return amp::kernels::stencil_name(info.param); });

}  // namespace
