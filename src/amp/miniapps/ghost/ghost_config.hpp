// SPDX-License-Identifier: BSD-3-Clause
// amp-ghost's configuration: one plain struct filled from flags and the TOML deck, then validated
// once, identically on every rank, before any communication.
#pragma once

#include <amp/kernels/stencil_kind.hpp>
#include <amp/miniapps/common/run_config.hpp>

#include <CLI/CLI.hpp>

#include <array>
#include <optional>
#include <string>

namespace amp::ghost {

// The shared run flags (run_config.hpp) and amp-ghost's own.
struct GhostConfig : RunConfig {
  GhostConfig() { num_vars = 40; }  // amp-ghost's default where it differs from RunConfig's

  int nx = 100, ny = 100, nz = 100;  // per rank (weak scaling) or global (--scaling strong)
  Scaling scaling = Scaling::Weak;
  int num_spikes = 1;
  kernels::Stencil stencil = kernels::Stencil::ThreeD7Pt;
  std::array<int, 3> process_grid = {0, 0, 0};  // 0 = chosen by MPI_Dims_create
  int percent_sum = 100;
  int report_diffusion = 0;  // check conservation every this many steps (0: only at the end)
  // A step as CTH's (seed 000): this many sweeps of every variable, each followed by its exchange; then
  // this many propagations, each the exchange of one axis's faces (x, y, z, x, ...); then the
  // conservation check and this many MPI_Allreduce calls of one value. 1, 0, 0: miniGhost's step.
  int exchanges_per_step = 1;
  int face_propagations_per_step = 0;
  int single_value_reductions_per_step = 0;

  int summed_vars() const;  // how many variables are globally summed each step
};

// Registers every flag on `app`, writing into `config`; the stencil and the scaling go through `raw`
// as text and are converted by finish_config (an absent --scaling keeps config.scaling).
struct RawGhostFlags {
  std::string stencil = "3d7pt";
  std::optional<std::string> scaling;
};
void add_ghost_options(CLI::App& app, GhostConfig& config, RawGhostFlags& raw);

// Converts the text flags and checks every value against `ranks`; throws InputError naming the problem.
void finish_config(GhostConfig& config, const RawGhostFlags& raw, int ranks);

}  // namespace amp::ghost
