// Flags, deck keys, miniGhost's numeric codes (stencil 21-24, comm_method 10/11) and validation.
#include "ghost_config.hpp"

#include <config_checks.hpp>

#include <fmt/format.h>

#include <cmath>

namespace amp::ghost {

namespace {

kernels::Stencil parse_stencil(const std::string& text) {
  const std::string s = lowercase(text);
  if (s == "2d5pt" || s == "21") return kernels::Stencil::TwoD5Pt;
  if (s == "2d9pt" || s == "22") return kernels::Stencil::TwoD9Pt;
  if (s == "3d7pt" || s == "23") return kernels::Stencil::ThreeD7Pt;
  if (s == "3d27pt" || s == "24") return kernels::Stencil::ThreeD27Pt;
  throw InputError(fmt::format("unknown stencil '{}' (use 2d5pt, 2d9pt, 3d7pt, 3d27pt or miniGhost's 21-24)", text));
}

std::string parse_method(const std::string& text) {
  if (text == "10") return "bspma";
  if (text == "11") return "svaf";
  return checked_comm_method(text, ", or miniGhost's 10, 11");
}

}  // namespace

double GhostConfig::tolerance() const { return std::pow(10.0, -error_tol); }

int GhostConfig::summed_vars() const { return (num_vars * percent_sum + 99) / 100; }

void add_ghost_options(CLI::App& app, GhostConfig& c, RawGhostFlags& raw) {
  app.add_option("--nx", c.nx, "cells in x per rank (global with --scaling strong)")->capture_default_str();
  app.add_option("--ny", c.ny, "cells in y per rank (global with --scaling strong)")->capture_default_str();
  app.add_option("--nz", c.nz, "cells in z per rank (global with --scaling strong)")->capture_default_str();
  app.add_option("--scaling", raw.scaling, "weak (sizes per rank) or strong (global sizes)")->capture_default_str();
  app.add_option("--num_vars", c.num_vars, "variables per cell")->capture_default_str();
  app.add_option("--num_tsteps", c.num_tsteps, "time steps")->capture_default_str();
  app.add_option("--num_spikes", c.num_spikes, "source spikes (phases of num_tsteps/num_spikes steps)")
      ->capture_default_str();
  app.add_option("--stencil", raw.stencil, "2d5pt, 2d9pt, 3d7pt, 3d27pt (or 21-24)")->capture_default_str();
  app.add_option("--comm_method", raw.comm_method, comm::strategy_list() + " (or 10, 11)")->capture_default_str();
  app.add_option("--transport", raw.transport, comm::transport_list())
      ->capture_default_str();
  app.add_option("--npx", c.process_grid[0], "ranks in x (0: MPI_Dims_create)")->capture_default_str();
  app.add_option("--npy", c.process_grid[1], "ranks in y (0: MPI_Dims_create)")->capture_default_str();
  app.add_option("--npz", c.process_grid[2], "ranks in z (0: MPI_Dims_create)")->capture_default_str();
  app.add_option("--percent_sum", c.percent_sum, "percentage of variables summed globally every step")
      ->capture_default_str();
  app.add_option("--error_tol", c.error_tol, "verification tolerance is 10^-error_tol")->capture_default_str();
  app.add_option("--report_diffusion", c.report_diffusion, "check conservation every N steps (0: at the end)")
      ->capture_default_str();
  app.add_option("--seed", c.seed, "seed of the initial values and spikes")->capture_default_str();
  app.add_option("--progress", c.progress_seconds, "seconds between progress lines (0: none)")->capture_default_str();
  app.add_option("--inject_fault", c.inject_fault, "testing: add this much unaccounted heat once (must fail)")
      ->group("");
}

void finish_config(GhostConfig& c, const RawGhostFlags& raw, int ranks) {
  c.stencil = parse_stencil(raw.stencil);
  c.comm_method = parse_method(raw.comm_method);
  c.transport = checked_transport(raw.transport);
  const std::string scaling = lowercase(raw.scaling);
  require(scaling == "weak" || scaling == "strong", fmt::format("unknown scaling '{}' (use weak or strong)", raw.scaling));
  c.strong_scaling = scaling == "strong";

  require(c.nx >= 1 && c.ny >= 1 && c.nz >= 1, fmt::format("grid sizes must be positive (nx={} ny={} nz={})", c.nx, c.ny, c.nz));
  require(c.num_vars >= 1, fmt::format("num_vars must be at least 1 (got {})", c.num_vars));
  require(c.num_tsteps >= 1, fmt::format("num_tsteps must be at least 1 (got {})", c.num_tsteps));
  require(c.num_spikes >= 1 && c.num_spikes <= c.num_tsteps,
          fmt::format("num_spikes must be between 1 and num_tsteps={} (got {})", c.num_tsteps, c.num_spikes));
  require(c.percent_sum >= 0 && c.percent_sum <= 100, fmt::format("percent_sum must be 0..100 (got {})", c.percent_sum));
  require(c.error_tol >= 1 && c.error_tol <= 15, fmt::format("error_tol must be 1..15 (got {})", c.error_tol));
  require(c.report_diffusion >= 0, fmt::format("report_diffusion must be >= 0 (got {})", c.report_diffusion));
  require(c.progress_seconds >= 0, "progress must be >= 0 seconds");

  // Process grid: given factors must divide the rank count; MPI_Dims_create fills the zeros.
  long long given = 1;
  for (int d = 0; d < 3; ++d) {
    require(c.process_grid[d] >= 0, "npx, npy, npz must be >= 0");
    if (c.process_grid[d] > 0) given *= c.process_grid[d];
  }
  const bool all_given = c.process_grid[0] > 0 && c.process_grid[1] > 0 && c.process_grid[2] > 0;
  require(all_given ? given == ranks : ranks % given == 0,
          fmt::format("process grid npx={} npy={} npz={} does not match {} ranks", c.process_grid[0],
                      c.process_grid[1], c.process_grid[2], ranks));
}

}  // namespace amp::ghost
