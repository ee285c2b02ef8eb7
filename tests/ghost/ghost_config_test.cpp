// SPDX-License-Identifier: BSD-3-Clause
// amp-ghost's configuration: percent_sum sums that share of the variables (not all of them, the
// reference code's defect), miniGhost's numeric codes map to the named stencils and strategies,
// and validation names the bad value.
#include <amp/miniapps/ghost/ghost_config.hpp>

#include <amp/miniapps/common/errors.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

using amp::ghost::GhostConfig;
using amp::ghost::RawGhostFlags;

TEST(GhostConfig, PercentSumSumsThatShareOfTheVariables) {
  GhostConfig c;
  c.num_vars = 40;
  for (const auto& [percent, summed] : std::vector<std::pair<int, int>>{{100, 40}, {50, 20}, {10, 4}, {1, 1}, {0, 0}}) {
    c.percent_sum = percent;
    EXPECT_EQ(c.summed_vars(), summed) << percent << "%";
  }
}

TEST(GhostConfig, AcceptsMiniGhostNumericCodes) {
  GhostConfig c;
  RawGhostFlags raw;
  raw.stencil = "24";
  c.strategy = "11";
  amp::ghost::finish_config(c, raw, 1);
  EXPECT_EQ(c.stencil, amp::kernels::Stencil::ThreeD27Pt);
  EXPECT_EQ(c.strategy, "svaf");
  raw.stencil = "21";
  c.strategy = "10";
  amp::ghost::finish_config(c, raw, 1);
  EXPECT_EQ(c.stencil, amp::kernels::Stencil::TwoD5Pt);
  EXPECT_EQ(c.strategy, "bspma");
}

// The message finish_config refuses with ("" when it accepts): a user must be able to act on it.
std::string refusal(GhostConfig c, const RawGhostFlags& raw, int ranks) {
  try {
    amp::ghost::finish_config(c, raw, ranks);
  } catch (const amp::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(GhostConfig, RejectsAProcessGridThatDoesNotMatchTheRanksNamingBoth) {
  GhostConfig c;
  RawGhostFlags raw;
  c.process_grid = {2, 2, 1};
  EXPECT_EQ(refusal(c, raw, 3), "process grid npx=2 npy=2 npz=1 does not match 3 ranks");
  EXPECT_EQ(refusal(c, raw, 4), "");
  c.process_grid = {3, 0, 0};
  EXPECT_EQ(refusal(c, raw, 4), "process grid npx=3 npy=0 npz=0 does not match 4 ranks");
}

TEST(GhostConfig, RefusalsNameTheBadValue) {
  RawGhostFlags raw;
  raw.stencil = "3d8pt";
  EXPECT_EQ(refusal(GhostConfig{}, raw, 1),
            "unknown stencil '3d8pt' (use 2d5pt, 2d9pt, 3d7pt, 3d27pt or miniGhost's 21-24)");
  raw = RawGhostFlags{};
  raw.scaling = "sideways";
  EXPECT_EQ(refusal(GhostConfig{}, raw, 1), "unknown scaling 'sideways' (use weak or strong)");
  GhostConfig c;
  c.strategy = "frob";    // not the configuration's to refuse: the name is checked once, with its transport,
  c.transport = "smoke";  // at start-up (check_combination; tests/faults/test_shared_flags.py has its line)
  EXPECT_EQ(refusal(c, RawGhostFlags{}, 1), "");
  c = GhostConfig{};
  c.num_vars = 0;
  EXPECT_EQ(refusal(c, RawGhostFlags{}, 1), "num_vars must be at least 1 (got 0)");
  c = GhostConfig{};
  c.error_tol = 16;
  EXPECT_EQ(refusal(c, RawGhostFlags{}, 1), "error_tol must be 1..15 (got 16)");
  c = GhostConfig{};
  c.ny = -2;
  EXPECT_EQ(refusal(c, RawGhostFlags{}, 1), "grid sizes must be positive (nx=100 ny=-2 nz=100)");
}

}  // namespace
