// SPDX-License-Identifier: BSD-3-Clause
// amp-ghost's results: its configuration and figures of merit (cells updated per second per rank,
// GFLOPS) on top of the loop fields every proxy shares (loop_report.hpp), and their printing.
#include <amp/miniapps/ghost/ghost_report.hpp>

#include <amp/miniapps/common/loop_report.hpp>
#include <amp/miniapps/common/sweep_schedule.hpp>

#include <amp/kernels/stencil.hpp>

#include <fmt/format.h>

namespace amp::ghost {

nlohmann::json ghost_results(const GhostConfig& c, const Decomposition& d, const GhostMeasurements& m, int ranks,
                             MPI_Comm comm) {
  const double global_cells = static_cast<double>(d.placement.size[0]) * d.placement.size[1] * d.placement.size[2];
  const long long pairs = static_cast<long long>(c.num_vars) * c.num_tsteps * c.exchanges_per_step;
  const double sweeps = static_cast<double>(SweepSchedule{c.sweeps_per_exchange}.made(pairs));
  const double updates = global_cells * sweeps;
  const int points = kernels::stencil_points(c.stencil);

  nlohmann::json r;
  r["proxy"] = "amp-ghost";
  r["config"] = run_config_json(c);
  r["config"].update({{"nx", c.nx},
                      {"ny", c.ny},
                      {"nz", c.nz},
                      {"scaling", scaling_name(c.scaling)},
                      {"local_block", {d.block.nx, d.block.ny, d.block.nz}},
                      {"sweep_in_place", kernels::sweeps_in_place(c.stencil, d.block)},  // rank 0's block
                      {"global_grid", {d.placement.size[0], d.placement.size[1], d.placement.size[2]}},
                      {"num_spikes", c.num_spikes},
                      {"stencil", kernels::stencil_name(c.stencil)},
                      {"process_grid", {d.grid[0], d.grid[1], d.grid[2]}},
                      {"percent_sum", c.percent_sum},
                      {"summed_vars", c.summed_vars()},
                      {"report_diffusion", c.report_diffusion},
                      {"exchanges_per_step", c.exchanges_per_step},
                      {"face_propagations_per_step", c.face_propagations_per_step},
                      {"single_value_reductions_per_step", c.single_value_reductions_per_step}});
  r["ranks"] = ranks;
  add_loop_results(r, m, c.num_tsteps, c.tolerance(), comm);
  r["verification"]["checked_variables"] = m.checked_variables;
  const double loop = r["timing"]["loop_seconds"].get<double>();
  r["fom"] = {{"cells_updated_per_second_per_rank", loop > 0 ? updates / loop / ranks : 0.0},
              {"gflops", loop > 0 ? updates * points / loop * 1e-9 : 0.0},
              {"flops_per_cell_update", points}};
  return r;
}

void print_summary(const nlohmann::json& r) {
  const auto& c = r["config"];
  fmt::print("amp-ghost: {} on {} ranks (process grid {}x{}x{}), block {}x{}x{} per rank, {} variables, {} steps, {}\n",
             c["stencil"].get<std::string>(), r["ranks"].get<int>(), c["process_grid"][0].get<int>(),
             c["process_grid"][1].get<int>(), c["process_grid"][2].get<int>(), c["local_block"][0].get<int>(),
             c["local_block"][1].get<int>(), c["local_block"][2].get<int>(), c["num_vars"].get<int>(),
             c["num_tsteps"].get<int>(), c["strategy"].get<std::string>());
  print_verification_summary(r);
  print_loop_summary(r);
  fmt::print("  FOM               {:.4g} cell updates/s/rank, {:.3f} GFLOPS\n",
             r["fom"]["cells_updated_per_second_per_rank"].get<double>(), r["fom"]["gflops"].get<double>());
}

}  // namespace amp::ghost
