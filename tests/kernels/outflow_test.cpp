// SPDX-License-Identifier: BSD-3-Clause
// The outflow kernel equals a brute-force count of stencil points outside the global domain, and
// sum(new interior) + outflow == sum(old interior) holds when the boundary ghosts are zero.
#include "serial_reference.hpp"

#include <amp/kernels/outflow.hpp>
#include <amp/kernels/stencil.hpp>

#include <gtest/gtest.h>

namespace {

using amp::kernels::BlockExtent;
using amp::kernels::GlobalSides;
using amp::kernels::Stencil;

std::vector<std::array<int, 3>> offsets(Stencil s) {
  std::vector<std::array<int, 3>> out;
  for (int dk = -1; dk <= 1; ++dk)
    for (int dj = -1; dj <= 1; ++dj)
      for (int di = -1; di <= 1; ++di) {
        const int nonzero = (di != 0) + (dj != 0) + (dk != 0);
        const bool in = s == Stencil::ThreeD27Pt || (s == Stencil::ThreeD7Pt && nonzero <= 1) ||
                        (s == Stencil::TwoD9Pt && dk == 0) || (s == Stencil::TwoD5Pt && dk == 0 && nonzero <= 1);
        if (in) out.push_back({di, dj, dk});
      }
  return out;
}

double brute_force_outflow(Stencil s, const amp::test::HostGrid& g, const GlobalSides& sides) {
  const BlockExtent& e = g.e;
  const int n[3] = {e.nx, e.ny, e.nz};
  double total = 0.0;
  const auto offs = offsets(s);
  for (int k = 1; k <= e.nz; ++k)
    for (int j = 1; j <= e.ny; ++j)
      for (int i = 1; i <= e.nx; ++i) {
        int outside = 0;
        for (const auto& d : offs) {
          const int c[3] = {i + d[0], j + d[1], k + d[2]};
          bool out = false;
          for (int a = 0; a < 3; ++a) out = out || (c[a] == 0 && sides.low[a]) || (c[a] == n[a] + 1 && sides.high[a]);
          outside += out;
        }
        total += g(i, j, k) * outside / static_cast<double>(offs.size());
      }
  return total;
}

class OutflowMatchesBruteForce : public ::testing::TestWithParam<Stencil> {};

TEST_P(OutflowMatchesBruteForce, ForEverySideCombination) {
  for (const BlockExtent e : {BlockExtent{4, 3, 5}, BlockExtent{1, 2, 1}, BlockExtent{6, 1, 3}}) {
    for (int mask = 0; mask < 64; mask += 5) {
      GlobalSides sides;
      for (int a = 0; a < 3; ++a) {
        sides.low[a] = (mask >> (2 * a)) & 1;
        sides.high[a] = (mask >> (2 * a + 1)) & 1;
      }
      const auto host = amp::test::sample_grid(e, mask);
      const double got =
          amp::kernels::stencil_outflow<amp::test::ExecutionSpace>(GetParam(), amp::test::to_device(host), e, sides);
      EXPECT_NEAR(got, brute_force_outflow(GetParam(), host, sides), 1e-12) << "mask " << mask;
    }
  }
}

TEST_P(OutflowMatchesBruteForce, ConservesHeatOnAZeroBoundedDomain) {
  const BlockExtent e{7, 5, 6};
  auto host = amp::test::sample_grid(e, 1);
  GlobalSides sides;
  for (int a = 0; a < 3; ++a) sides.low[a] = sides.high[a] = true;
  double before = 0.0;
  for (int k = 0; k < e.nz + 2; ++k)
    for (int j = 0; j < e.ny + 2; ++j)
      for (int i = 0; i < e.nx + 2; ++i) {
        const bool interior = i >= 1 && i <= e.nx && j >= 1 && j <= e.ny && k >= 1 && k <= e.nz;
        if (!interior)
          host(i, j, k) = 0.0;
        else
          before += host(i, j, k);
      }
  auto in = amp::test::to_device(host);
  amp::kernels::Grid<amp::test::MemorySpace> out("out", e.nx + 2, e.ny + 2, e.nz + 2);
  const double outflow = amp::kernels::stencil_outflow<amp::test::ExecutionSpace>(GetParam(), in, e, sides);
  const double after = amp::kernels::apply_stencil<amp::test::ExecutionSpace>(GetParam(), in, out, e);
  EXPECT_NEAR(after + outflow, before, 1e-12 * before);
  EXPECT_GT(outflow, 0.0);
}

TEST_P(OutflowMatchesBruteForce, FusedIntoTheSweepEqualsTheSeparatePass) {
  // The last block has more than one run of lines (16) per plane for the 3D27PT box-sum sweep.
  for (const BlockExtent e :
       {BlockExtent{4, 3, 5}, BlockExtent{1, 2, 1}, BlockExtent{6, 1, 3}, BlockExtent{5, 35, 3}}) {
    for (int mask = 0; mask < 64; mask += 3) {
      GlobalSides sides;
      for (int a = 0; a < 3; ++a) {
        sides.low[a] = (mask >> (2 * a)) & 1;
        sides.high[a] = (mask >> (2 * a + 1)) & 1;
      }
      const auto host = amp::test::sample_grid(e, mask);
      const auto in = amp::test::to_device(host);
      amp::kernels::Grid<amp::test::MemorySpace> fused_out("fused", e.nx + 2, e.ny + 2, e.nz + 2),
          plain_out("plain", e.nx + 2, e.ny + 2, e.nz + 2);
      const auto sums =
          amp::kernels::apply_stencil_with_outflow<amp::test::ExecutionSpace>(GetParam(), in, fused_out, e, sides);
      EXPECT_NEAR(sums.outflow, brute_force_outflow(GetParam(), host, sides), 1e-12) << "mask " << mask;
      EXPECT_EQ(sums.interior, amp::kernels::apply_stencil<amp::test::ExecutionSpace>(GetParam(), in, plain_out, e));
      const auto fused_host = amp::test::to_host(fused_out, e), plain_host = amp::test::to_host(plain_out, e);
      EXPECT_EQ(fused_host.v, plain_host.v);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllStencils, OutflowMatchesBruteForce,
                         ::testing::Values(Stencil::TwoD5Pt, Stencil::TwoD9Pt, Stencil::ThreeD7Pt, Stencil::ThreeD27Pt),
                         [](const auto& info) { return amp::kernels::stencil_name(info.param); });

}  // namespace
