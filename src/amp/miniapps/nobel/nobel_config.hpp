// SPDX-License-Identifier: BSD-3-Clause
// amp-nobel's configuration: one plain struct filled from flags and the TOML deck, then validated
// once, identically on every rank, before any communication.
#pragma once

#include <amp/miniapps/common/run_config.hpp>

#include <CLI/CLI.hpp>

#include <array>
#include <string>

namespace amp::nobel {

// The shared run flags (run_config.hpp) and amp-nobel's own.
struct NobelConfig : RunConfig {
  NobelConfig() {  // amp-nobel's defaults where they differ from RunConfig's
    num_vars = 4;
    strategy = "svcp";
    error_tol = 10;
  }

  int block = 8;                               // cells per block side
  std::array<int, 3> root_blocks = {4, 4, 4};  // level-0 blocks per axis (the whole domain)
  int max_level = 2;
  int amr_interval = 5;  // an AMR step after every this many steps (0: the mesh never changes)
  // Blocks repartitioned in equal shares at every this many AMR steps (1: every one; 0: never, each rank
  // keeping the Morton-key range it was first given, so refinement and coarsening unbalance the ranks).
  int rebalance_interval = 1;
  double front_radius = 0.3;  // of the shortest domain side
  int front_period = 8;       // AMR steps per turn of the front's centre
  double cfl = 0.5;
  int check_every = 0;  // extra conservation checks every N steps (0: after AMR steps and at the end)

  int amr_steps() const;                // AMR steps the run will make
  bool rebalances(int amr_step) const;  // whether AMR step amr_step (1, 2, ...) repartitions the blocks
};

void add_nobel_options(CLI::App& app, NobelConfig& config);

// Checks every value against `ranks`; throws InputError naming the problem.
void finish_config(NobelConfig& config, int ranks);

}  // namespace amp::nobel
