// SPDX-License-Identifier: BSD-3-Clause
// amp-ghost's own flags and deck keys on top of the shared ones, miniGhost's numeric codes (stencil
// 21-24, strategy 10/11) and validation.
#include <amp/miniapps/ghost/ghost_config.hpp>

#include <amp/miniapps/common/config_checks.hpp>

#include <fmt/format.h>

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

// miniGhost's numeric strategy codes as the registered names; any other text as it is.
std::string named_strategy(const std::string& text) {
  if (text == "10") return "bspma";
  if (text == "11") return "svaf";
  return text;
}

// Bounds of the step-shape keys: far above CTH's 19, 3 and 89, and a loop whose step count fits an int.
constexpr int kMaxPerStep = 10000;
constexpr long long kMaxSweeps = 1000000000;

}  // namespace

int GhostConfig::summed_vars() const { return (num_vars * percent_sum + 99) / 100; }

void add_ghost_options(CLI::App& app, GhostConfig& c, RawGhostFlags& raw) {
  add_mesh_options(app, c.nx, c.ny, c.nz, raw.scaling, c.scaling);
  add_run_options(app, c,
                  {"seed of the initial values and spikes", "testing: add this much unaccounted heat once (must fail)",
                   " (or 10, 11)"});
  app.add_option("--num_spikes", c.num_spikes, "source spikes (phases of num_tsteps/num_spikes steps)")
      ->capture_default_str();
  app.add_option("--stencil", raw.stencil, "2d5pt, 2d9pt, 3d7pt, 3d27pt (or 21-24)")->capture_default_str();
  app.add_option("--npx", c.process_grid[0], "ranks in x (0: MPI_Dims_create)")->capture_default_str();
  app.add_option("--npy", c.process_grid[1], "ranks in y (0: MPI_Dims_create)")->capture_default_str();
  app.add_option("--npz", c.process_grid[2], "ranks in z (0: MPI_Dims_create)")->capture_default_str();
  app.add_option("--percent_sum", c.percent_sum, "percentage of variables summed globally every step")
      ->capture_default_str();
  app.add_option("--report_diffusion", c.report_diffusion, "check conservation every N steps (0: at the end)")
      ->capture_default_str();
  app.add_option("--exchanges_per_step", c.exchanges_per_step,
                 "sweeps of every variable per step, each followed by its exchange (CTH: 19)")
      ->capture_default_str();
  app.add_option("--face_propagations_per_step", c.face_propagations_per_step,
                 "exchanges of one axis's faces (x, y, z in turn) at the end of each step (CTH: 3)")
      ->capture_default_str();
  app.add_option("--single_value_reductions_per_step", c.single_value_reductions_per_step,
                 "MPI_Allreduce calls of one value at the end of each step (CTH: 89, beside the check)")
      ->capture_default_str();
}

void finish_config(GhostConfig& c, const RawGhostFlags& raw, int ranks) {
  c.stencil = parse_stencil(raw.stencil);
  c.strategy = named_strategy(c.strategy);
  check_run_config(c, ", or miniGhost's 10, 11");
  c.scaling = checked_scaling(raw.scaling, c.scaling);

  require(c.nx >= 1 && c.ny >= 1 && c.nz >= 1,
          fmt::format("grid sizes must be positive (nx={} ny={} nz={})", c.nx, c.ny, c.nz));
  require(c.num_spikes >= 1 && c.num_spikes <= c.num_tsteps,
          fmt::format("num_spikes must be between 1 and num_tsteps={} (got {})", c.num_tsteps, c.num_spikes));
  require(c.percent_sum >= 0 && c.percent_sum <= 100,
          fmt::format("percent_sum must be 0..100 (got {})", c.percent_sum));
  require(c.report_diffusion >= 0, fmt::format("report_diffusion must be >= 0 (got {})", c.report_diffusion));
  require(c.exchanges_per_step >= 1 && c.exchanges_per_step <= kMaxPerStep,
          fmt::format("exchanges_per_step must be 1..{} (got {})", kMaxPerStep, c.exchanges_per_step));
  require(c.face_propagations_per_step >= 0 && c.face_propagations_per_step <= kMaxPerStep,
          fmt::format("face_propagations_per_step must be 0..{} (got {})", kMaxPerStep, c.face_propagations_per_step));
  require(c.single_value_reductions_per_step >= 0 && c.single_value_reductions_per_step <= kMaxPerStep,
          fmt::format("single_value_reductions_per_step must be 0..{} (got {})", kMaxPerStep,
                      c.single_value_reductions_per_step));
  require(static_cast<long long>(c.num_tsteps) * c.exchanges_per_step <= kMaxSweeps,
          fmt::format("num_tsteps x exchanges_per_step must be at most {} (got {} x {})", kMaxSweeps, c.num_tsteps,
                      c.exchanges_per_step));

  // Process grid: given factors must divide the rank count; MPI_Dims_create fills the zeros.
  long long given = 1;
  for (int d = 0; d < 3; ++d) {
    require(c.process_grid[d] >= 0, "npx, npy, npz must be >= 0");
    if (c.process_grid[d] > 0) given *= c.process_grid[d];
  }
  const bool all_given = c.process_grid[0] > 0 && c.process_grid[1] > 0 && c.process_grid[2] > 0;
  require(all_given ? given == ranks : ranks % given == 0,
          fmt::format("process grid npx={} npy={} npz={} does not match {} ranks", c.process_grid[0], c.process_grid[1],
                      c.process_grid[2], ranks));
}

}  // namespace amp::ghost
