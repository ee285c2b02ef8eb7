// amp-ghost's configuration: one plain struct filled from flags and the TOML deck, then validated
// once, identically on every rank, before any communication.
#pragma once

#include <amp/kernels/stencil_kind.hpp>

#include <CLI/CLI.hpp>

#include <array>
#include <string>

namespace amp::ghost {

struct GhostConfig {
  int nx = 100, ny = 100, nz = 100;  // per rank (weak scaling) or global (--scaling strong)
  bool strong_scaling = false;
  int num_vars = 40;
  int num_tsteps = 20;
  int num_spikes = 1;
  kernels::Stencil stencil = kernels::Stencil::ThreeD7Pt;
  std::string comm_method = "bspma";
  std::string transport = "isend";
  std::array<int, 3> process_grid = {0, 0, 0};  // 0 = chosen by MPI_Dims_create
  int percent_sum = 100;
  int error_tol = 8;          // verification tolerance 10^-error_tol (relative)
  int report_diffusion = 0;   // check conservation every this many steps (0: only at the end)
  unsigned long long seed = 1;
  double progress_seconds = 5.0;
  double inject_fault = 0.0;  // testing only: add this much heat once, unaccounted

  double tolerance() const;
  int summed_vars() const;  // how many variables are globally summed each step
};

// Registers every flag on `app`, writing into `config`; text flags (stencil, method, scaling) go
// through `raw` and are converted by finish_config.
struct RawGhostFlags {
  std::string stencil = "3d7pt";
  std::string comm_method = "bspma";
  std::string transport = "isend";
  std::string scaling = "weak";
};
void add_ghost_options(CLI::App& app, GhostConfig& config, RawGhostFlags& raw);

// Converts the text flags and checks every value against `ranks`; throws InputError naming the problem.
void finish_config(GhostConfig& config, const RawGhostFlags& raw, int ranks);

}  // namespace amp::ghost
