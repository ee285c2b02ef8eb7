// Flags, deck keys and their validation: every rule here is checked on every rank with the same
// values, so a bad input stops every rank with the same one-line message.
#include "nobel_config.hpp"

#include <config_checks.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace amp::nobel {

double NobelConfig::tolerance() const { return std::pow(10.0, -error_tol); }

int NobelConfig::amr_steps() const { return amr_interval > 0 ? (num_tsteps - 1) / amr_interval : 0; }

void add_nobel_options(CLI::App& app, NobelConfig& c) {
  app.add_option("--block", c.block, "cells per block side (even)")->capture_default_str();
  app.add_option("--nbx", c.root_blocks[0], "level-0 blocks in x")->capture_default_str();
  app.add_option("--nby", c.root_blocks[1], "level-0 blocks in y")->capture_default_str();
  app.add_option("--nbz", c.root_blocks[2], "level-0 blocks in z")->capture_default_str();
  app.add_option("--max_level", c.max_level, "finest refinement level (0: no refinement)")->capture_default_str();
  app.add_option("--num_vars", c.num_vars, "variables per cell")->capture_default_str();
  app.add_option("--num_tsteps", c.num_tsteps, "time steps")->capture_default_str();
  app.add_option("--amr_interval", c.amr_interval, "AMR step after every N steps (0: none)")->capture_default_str();
  app.add_option("--front_radius", c.front_radius, "front radius, fraction of the shortest side")
      ->capture_default_str();
  app.add_option("--front_period", c.front_period, "AMR steps per turn of the front's centre")->capture_default_str();
  app.add_option("--cfl", c.cfl, "fraction of the stable time step")->capture_default_str();
  app.add_option("--comm_method", c.comm_method, comm::strategy_list())->capture_default_str();
  app.add_option("--transport", c.transport, comm::transport_list())
      ->capture_default_str();
  app.add_option("--error_tol", c.error_tol, "verification tolerance is 10^-error_tol")->capture_default_str();
  app.add_option("--check_every", c.check_every, "conservation check every N steps (0: AMR steps and end)")
      ->capture_default_str();
  app.add_option("--seed", c.seed, "seed of the initial values")->capture_default_str();
  app.add_option("--progress", c.progress_seconds, "seconds between progress lines (0: none)")->capture_default_str();
  app.add_option("--inject_fault", c.inject_fault, "testing: add this much unaccounted mass once (must fail)")
      ->group("");
}

void finish_config(NobelConfig& c, int ranks) {
  c.comm_method = checked_comm_method(c.comm_method);
  c.transport = checked_transport(c.transport);
  require(c.block >= 2 && c.block <= 64 && c.block % 2 == 0,
          fmt::format("block must be an even number of cells from 2 to 64 (got {})", c.block));
  require(c.max_level >= 0 && c.max_level <= 10, fmt::format("max_level must be 0..10 (got {})", c.max_level));
  for (int a = 0; a < 3; ++a) {
    const char* name = a == 0 ? "nbx" : a == 1 ? "nby" : "nbz";
    require(c.root_blocks[a] >= 1 && (static_cast<long long>(c.root_blocks[a]) << c.max_level) < (1 << 20),
            fmt::format("{} must be at least 1 and {} x 2^max_level below 2^20 (got {})", name, name, c.root_blocks[a]));
  }
  const long long roots = static_cast<long long>(c.root_blocks[0]) * c.root_blocks[1] * c.root_blocks[2];
  require(roots >= ranks, fmt::format("{} level-0 blocks (nbx*nby*nbz) cannot give each of {} ranks a block; "
                                      "raise nbx, nby or nbz",
                                      roots, ranks));
  require(c.num_vars >= 1 && c.num_vars <= 64, fmt::format("num_vars must be 1..64 (got {})", c.num_vars));
  require(c.num_tsteps >= 1, fmt::format("num_tsteps must be at least 1 (got {})", c.num_tsteps));
  require(c.amr_interval >= 0, fmt::format("amr_interval must be >= 0 (got {})", c.amr_interval));
  require(c.front_radius > 0 && c.front_radius < 1, fmt::format("front_radius must be in (0, 1) (got {})", c.front_radius));
  require(c.front_period >= 1, fmt::format("front_period must be at least 1 (got {})", c.front_period));
  require(c.cfl > 0 && c.cfl <= 1, fmt::format("cfl must be in (0, 1] (got {})", c.cfl));
  require(c.error_tol >= 1 && c.error_tol <= 15, fmt::format("error_tol must be 1..15 (got {})", c.error_tol));
  require(c.check_every >= 0, fmt::format("check_every must be >= 0 (got {})", c.check_every));
  require(c.progress_seconds >= 0, "progress must be >= 0 seconds");
}

}  // namespace amp::nobel
