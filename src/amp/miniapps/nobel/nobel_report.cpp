// SPDX-License-Identifier: BSD-3-Clause
// Per-rank counters reduced after the traced region; the stepping traffic and the AMR (migration)
// traffic are kept apart, as are their times.
#include <amp/miniapps/nobel/nobel_report.hpp>

#include <amp/miniapps/common/loop_report.hpp>
#include <amp/miniapps/common/reduction.hpp>
#include <amp/miniapps/common/traffic_report.hpp>

#include <fmt/format.h>

namespace amp::nobel {

nlohmann::json nobel_results(const NobelConfig& c, const NobelMeasurements& m, int ranks, MPI_Comm comm) {
  const double steps = c.num_tsteps;
  const double updates = sum_over_ranks(comm, static_cast<std::uint64_t>(m.cell_updates));

  nlohmann::json r;
  r["proxy"] = "amp-nobel";
  r["config"] = run_config_json(c);
  r["config"].update({{"block", c.block},
                      {"root_blocks", {c.root_blocks[0], c.root_blocks[1], c.root_blocks[2]}},
                      {"max_level", c.max_level},
                      {"amr_interval", c.amr_interval},
                      {"rebalance_interval", c.rebalance_interval},
                      {"front_radius", c.front_radius},
                      {"front_period", c.front_period},
                      {"cfl", c.cfl},
                      {"check_every", c.check_every}});
  r["ranks"] = ranks;
  bool balanced = m.initial_balanced;
  for (const AmrRecord& a : m.amr) balanced = balanced && a.balanced;
  add_loop_results(r, m, c.num_tsteps, c.tolerance(), comm);
  r["verification"]["checked_variables"] = c.num_vars;
  r["verification"]["balanced_2to1"] = balanced;
  r["messages"]["per_second_per_rank"] =
      min_avg_max(comm, m.loop_seconds > 0 ? m.traffic.messages / m.loop_seconds : 0.0).to_json();
  r["timing"]["amr"] = min_avg_max(comm, m.amr_seconds).to_json();
  const double loop = r["timing"]["loop_seconds"].get<double>();

  nlohmann::json levels = nlohmann::json::array();
  for (int n : m.blocks_per_level) levels.push_back(n);
  r["blocks"] = {{"initial", m.initial_blocks},
                 {"per_rank", min_avg_max(comm, m.local_blocks).to_json()},
                 {"per_level", levels},
                 {"faces_per_rank",
                  {{"same_rank", min_avg_max(comm, m.local_faces).to_json()},
                   {"remote", min_avg_max(comm, m.remote_faces).to_json()}}}};
  int final_blocks = 0;
  for (int n : m.blocks_per_level) final_blocks += n;
  r["blocks"]["final"] = final_blocks;

  nlohmann::json history = nlohmann::json::array();
  int refined = 0, coarsened = 0;
  std::uint64_t migrated_blocks = 0;
  for (const AmrRecord& a : m.amr) {
    const std::uint64_t received = sum_over_ranks(comm, static_cast<std::uint64_t>(a.blocks_received));
    migrated_blocks += received;
    refined += a.refined;
    coarsened += a.coarsened;
    history.push_back({{"after_step", a.after_step},
                       {"blocks", a.blocks},
                       {"refined", a.refined},
                       {"coarsened", a.coarsened},
                       {"balanced_2to1", a.balanced},
                       {"rebalanced", a.rebalanced},
                       {"blocks_per_rank", min_avg_max(comm, a.local_blocks).to_json()},
                       {"migrated_blocks", received},
                       {"relative_error", a.relative_error}});
  }
  r["amr"] = {{"steps", m.amr.size()},
              {"refined", refined},
              {"coarsened", coarsened},
              {"migrated_blocks", migrated_blocks},
              {"migrated_bytes", sum_over_ranks(comm, m.amr_traffic.bytes)},
              {"messages", sum_over_ranks(comm, m.amr_traffic.messages)},
              {"setup_messages", sum_over_ranks(comm, m.amr_setup_traffic.messages)},
              {"setup_bytes", sum_over_ranks(comm, m.amr_setup_traffic.bytes)},
              {"size_histogram", size_histogram_json(comm, m.amr_traffic)},
              {"seconds", min_avg_max(comm, m.amr_seconds).to_json()},
              {"mpi_wait", min_avg_max(comm, m.amr_exchange.wait).to_json()},
              {"history", history}};
  r["fom"] = {
      {"cells_per_step_per_pe_per_second", loop > 0 ? updates / c.num_vars / steps / ranks / (loop / steps) : 0.0},
      {"cell_updates", updates}};
  return r;
}

void print_summary(const nlohmann::json& r) {
  const auto& c = r["config"];
  const auto& t = r["timing"];
  const auto& a = r["amr"];
  fmt::print("amp-nobel: {} ranks, {}^3-cell blocks, root {}x{}x{}, max level {}, {} variables, {} steps, {}\n",
             r["ranks"].get<int>(), c["block"].get<int>(), c["root_blocks"][0].get<int>(),
             c["root_blocks"][1].get<int>(), c["root_blocks"][2].get<int>(), c["max_level"].get<int>(),
             c["num_vars"].get<int>(), c["num_tsteps"].get<int>(), c["strategy"].get<std::string>());
  print_verification_summary(r);
  fmt::print("  2:1 balance       {}\n", r["verification"]["balanced_2to1"].get<bool>() ? "kept" : "BROKEN");
  fmt::print("  blocks            {} initial, {} final; per rank {}\n", r["blocks"]["initial"].get<int>(),
             r["blocks"]["final"].get<int>(), format_min_avg_max(r["blocks"]["per_rank"], ""));
  fmt::print("  AMR               {} steps, {} refined, {} coarsened, {} blocks migrated ({} B in {} messages)\n",
             a["steps"].get<int>(), a["refined"].get<int>(), a["coarsened"].get<int>(),
             a["migrated_blocks"].get<std::uint64_t>(), a["migrated_bytes"].get<std::uint64_t>(),
             a["messages"].get<std::uint64_t>());
  print_loop_summary(r);
  fmt::print("  AMR steps         {}\n", format_min_avg_max(t["amr"], " s"));
  fmt::print("  messages/s/rank   {}\n", format_min_avg_max(r["messages"]["per_second_per_rank"], ""));
  fmt::print("  FOM               {:.4g} cells per step per PE per second\n",
             r["fom"]["cells_per_step_per_pe_per_second"].get<double>());
}

}  // namespace amp::nobel
