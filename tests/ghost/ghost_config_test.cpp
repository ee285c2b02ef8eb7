// amp-ghost's configuration: percent_sum sums that share of the variables (not all of them, the
// reference code's defect), miniGhost's numeric codes map to the named stencils and strategies,
// and validation names the bad value.
#include <ghost_config.hpp>

#include <errors.hpp>

#include <gtest/gtest.h>

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
  raw.comm_method = "11";
  amp::ghost::finish_config(c, raw, 1);
  EXPECT_EQ(c.stencil, amp::kernels::Stencil::ThreeD27Pt);
  EXPECT_EQ(c.comm_method, "svaf");
  raw.stencil = "21";
  raw.comm_method = "10";
  amp::ghost::finish_config(c, raw, 1);
  EXPECT_EQ(c.stencil, amp::kernels::Stencil::TwoD5Pt);
  EXPECT_EQ(c.comm_method, "bspma");
}

TEST(GhostConfig, RejectsAProcessGridThatDoesNotMatchTheRanks) {
  GhostConfig c;
  RawGhostFlags raw;
  c.process_grid = {2, 2, 1};
  EXPECT_THROW(amp::ghost::finish_config(c, raw, 3), amp::InputError);
  EXPECT_NO_THROW(amp::ghost::finish_config(c, raw, 4));
  c.process_grid = {3, 0, 0};
  EXPECT_THROW(amp::ghost::finish_config(c, raw, 4), amp::InputError);
}

}  // namespace
