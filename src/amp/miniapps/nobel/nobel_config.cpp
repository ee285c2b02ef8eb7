// SPDX-License-Identifier: BSD-3-Clause
// Flags, deck keys and their validation: every rule here is checked on every rank with the same
// values, so a bad input stops every rank with the same one-line message.
#include <amp/miniapps/nobel/nobel_config.hpp>

#include <amp/miniapps/common/config_checks.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace amp::nobel {

int NobelConfig::amr_steps() const { return amr_interval > 0 ? (num_tsteps - 1) / amr_interval : 0; }

bool NobelConfig::rebalances(int amr_step) const {
  return rebalance_interval > 0 && amr_step % rebalance_interval == 0;
}

void add_nobel_options(CLI::App& app, NobelConfig& c) {
  add_run_options(app, c,
                  {"seed of the initial values", "testing: add this much unaccounted mass once (must fail)", ""});
  app.add_option("--block", c.block, "cells per block side (even)")->capture_default_str();
  app.add_option("--nbx", c.root_blocks[0], "level-0 blocks in x")->capture_default_str();
  app.add_option("--nby", c.root_blocks[1], "level-0 blocks in y")->capture_default_str();
  app.add_option("--nbz", c.root_blocks[2], "level-0 blocks in z")->capture_default_str();
  app.add_option("--max_level", c.max_level, "finest refinement level (0: no refinement)")->capture_default_str();
  app.add_option("--amr_interval", c.amr_interval, "AMR step after every N steps (0: none)")->capture_default_str();
  app.add_option("--rebalance_interval", c.rebalance_interval,
                 "repartition the blocks at every Nth AMR step (0: never, ranks keep their Morton ranges)")
      ->capture_default_str();
  app.add_option("--front_radius", c.front_radius, "front radius, fraction of the shortest side")
      ->capture_default_str();
  app.add_option("--front_period", c.front_period, "AMR steps per turn of the front's centre")->capture_default_str();
  app.add_option("--cfl", c.cfl, "fraction of the stable time step")->capture_default_str();
  app.add_option("--check_every", c.check_every, "conservation check every N steps (0: AMR steps and end)")
      ->capture_default_str();
}

void finish_config(NobelConfig& c, int ranks) {
  check_run_config(c);
  require(c.block >= 2 && c.block <= 64 && c.block % 2 == 0,
          fmt::format("block must be an even number of cells from 2 to 64 (got {})", c.block));
  require(c.max_level >= 0 && c.max_level <= 10, fmt::format("max_level must be 0..10 (got {})", c.max_level));
  for (int a = 0; a < 3; ++a) {
    const char* name = a == 0 ? "nbx" : a == 1 ? "nby" : "nbz";
    require(
        c.root_blocks[a] >= 1 && (static_cast<long long>(c.root_blocks[a]) << c.max_level) < (1 << 20),
        fmt::format("{} must be at least 1 and {} x 2^max_level below 2^20 (got {})", name, name, c.root_blocks[a]));
  }
  const long long roots = static_cast<long long>(c.root_blocks[0]) * c.root_blocks[1] * c.root_blocks[2];
  require(roots >= ranks, fmt::format("{} level-0 blocks (nbx*nby*nbz) cannot give each of {} ranks a block; "
                                      "raise nbx, nby or nbz",
                                      roots, ranks));
  require(c.num_vars <= 64, fmt::format("num_vars must be 1..64 (got {})", c.num_vars));
  require(c.amr_interval >= 0, fmt::format("amr_interval must be >= 0 (got {})", c.amr_interval));
  require(c.rebalance_interval >= 0, fmt::format("rebalance_interval must be >= 0 (got {})", c.rebalance_interval));
  require(c.front_radius > 0 && c.front_radius < 1,
          fmt::format("front_radius must be in (0, 1) (got {})", c.front_radius));
  require(c.front_period >= 1, fmt::format("front_period must be at least 1 (got {})", c.front_period));
  require(c.cfl > 0 && c.cfl <= 1, fmt::format("cfl must be in (0, 1] (got {})", c.cfl));
  require(c.check_every >= 0, fmt::format("check_every must be >= 0 (got {})", c.check_every));
}

}  // namespace amp::nobel
