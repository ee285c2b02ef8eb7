// SPDX-License-Identifier: BSD-3-Clause
// The same fields as amp-ghost (verification, checksum, messages, bytes, timing, fom) plus the
// partition's shape (neighbour ranks, ghost cells, send runs per rank) and gather/scatter time.
#include <amp/miniapps/sage/sage_report.hpp>

#include <amp/miniapps/common/loop_report.hpp>
#include <amp/miniapps/common/reduction.hpp>
#include <amp/miniapps/common/traffic_report.hpp>
#include <amp/miniapps/common/sweep_schedule.hpp>

#include <fmt/format.h>

namespace amp::sage {

nlohmann::json sage_results(const SageConfig& c, const LocalMesh& mesh, const SageMeasurements& m, int ranks,
                            MPI_Comm comm) {
  const double steps = c.num_tsteps;
  const double cells = static_cast<double>(c.total_cells());
  const auto links = static_cast<std::uint64_t>(mesh.neighbours.size());

  nlohmann::json r;
  r["proxy"] = "amp-sage";
  r["config"] = run_config_json(c);
  r["config"].update({{"nx", c.nx},
                      {"ny", c.ny},
                      {"nz", c.nz},
                      {"scaling", scaling_name(c.scaling)},
                      {"global_cells", {c.global_cells[0], c.global_cells[1], c.global_cells[2]}},
                      {"partition", partition_name(c.partition)}});
  r["ranks"] = ranks;
  r["partition"] = {{"curve", partition_name(c.partition)},
                    {"owned_cells_per_rank", min_avg_max(comm, static_cast<double>(mesh.owned)).to_json()},
                    {"ghost_cells_per_rank", min_avg_max(comm, static_cast<double>(mesh.ghosts())).to_json()},
                    {"neighbour_ranks", min_avg_max(comm, static_cast<double>(links)).to_json()},
                    {"send_runs_per_rank", min_avg_max(comm, static_cast<double>(m.send_runs)).to_json()},
                    {"faces_per_rank", min_avg_max(comm, static_cast<double>(m.faces)).to_json()},
                    {"links_total", sum_over_ranks(comm, links)},
                    {"send_runs_total", sum_over_ranks(comm, static_cast<std::uint64_t>(m.send_runs))},
                    {"send_cells_total", sum_over_ranks(comm, static_cast<std::uint64_t>(m.send_cells))}};
  add_loop_results(r, m, c.num_tsteps, c.tolerance(), comm);
  r["verification"]["checked_variables"] = c.num_vars;
  r["timing"]["setup_seconds"] = max_over_ranks(comm, m.setup_seconds);
  r["timing"]["gather_scatter"] = min_avg_max(comm, m.exchange.pack + m.exchange.unpack).to_json();
  const double loop = r["timing"]["loop_seconds"].get<double>();
  const double sweeps =
      static_cast<double>(SweepSchedule{c.sweeps_per_exchange}.made(static_cast<long long>(c.num_vars) * c.num_tsteps));
  r["fom"] = {{"cells_per_step_per_pe_per_second", loop > 0 ? cells * steps / loop / ranks : 0.0},
              {"cell_variable_updates_per_second", loop > 0 ? cells * sweeps / loop : 0.0}};
  return r;
}

void print_summary(const nlohmann::json& r) {
  const auto& c = r["config"];
  const auto& t = r["timing"];
  const auto& p = r["partition"];
  const auto mam = [](const nlohmann::json& j, const char* unit) { return format_min_avg_max(j, unit); };
  fmt::print("amp-sage: {}x{}x{} cells, {} partition on {} ranks, {} variables, {} steps, {}\n",
             c["global_cells"][0].get<std::int64_t>(), c["global_cells"][1].get<std::int64_t>(),
             c["global_cells"][2].get<std::int64_t>(), c["partition"].get<std::string>(), r["ranks"].get<int>(),
             c["num_vars"].get<int>(), c["num_tsteps"].get<int>(), c["strategy"].get<std::string>());
  print_verification_summary(r);
  fmt::print("  neighbour ranks   {}\n", mam(p["neighbour_ranks"], ""));
  fmt::print("  ghost cells/rank  {}\n", mam(p["ghost_cells_per_rank"], ""));
  fmt::print("  send runs/rank    {}\n", mam(p["send_runs_per_rank"], ""));
  fmt::print("  set-up time       {:.4f} s\n", t["setup_seconds"].get<double>());
  fmt::print("  gather + scatter  {}\n", mam(t["gather_scatter"], " s"));
  print_loop_summary(r);
  fmt::print("  FOM               {:.4g} cells per step per PE per second\n",
             r["fom"]["cells_per_step_per_pe_per_second"].get<double>());
}

}  // namespace amp::sage
