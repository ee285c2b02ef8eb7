// Reduction of per-rank numbers (min/avg/max), figures of merit (cells updated per second per rank,
// GFLOPS), the message-size histogram, and their printing.
#include "ghost_report.hpp"

#include <reduction.hpp>
#include <traffic_report.hpp>

#include <fmt/format.h>
#include <mpi.h>

namespace amp::ghost {

nlohmann::json ghost_results(const GhostConfig& c, const Decomposition& d, const GhostMeasurements& m, int ranks) {
  const double steps = c.num_tsteps;
  const double loop = max_over_ranks(m.loop_seconds);
  const double global_cells = static_cast<double>(d.placement.size[0]) * d.placement.size[1] * d.placement.size[2];
  const double updates = global_cells * c.num_vars * steps;
  const int points = kernels::stencil_points(c.stencil);
  const double mpi_seconds = m.exchange.post + m.exchange.wait;

  nlohmann::json r;
  r["proxy"] = "amp-ghost";
  r["config"] = {{"nx", c.nx}, {"ny", c.ny}, {"nz", c.nz}, {"scaling", c.strong_scaling ? "strong" : "weak"},
                 {"local_block", {d.block.nx, d.block.ny, d.block.nz}},
                 {"global_grid", {d.placement.size[0], d.placement.size[1], d.placement.size[2]}},
                 {"num_vars", c.num_vars}, {"num_tsteps", c.num_tsteps}, {"num_spikes", c.num_spikes},
                 {"stencil", kernels::stencil_name(c.stencil)}, {"comm_method", c.comm_method},
                 {"process_grid", {d.grid[0], d.grid[1], d.grid[2]}}, {"percent_sum", c.percent_sum},
                 {"summed_vars", c.summed_vars()}, {"error_tol", c.error_tol},
                 {"report_diffusion", c.report_diffusion}, {"seed", c.seed}};
  r["ranks"] = ranks;
  r["verification"] = {{"passed", m.verified}, {"checks", m.checks}, {"checked_variables", m.checked_variables},
                       {"max_relative_error", m.worst_error}, {"tolerance", c.tolerance()},
                       {"failure", m.failure}};
  r["checksum"] = fmt::format("{:016x}", m.checksum);
  r["messages"] = {{"total", sum_over_ranks(m.traffic.messages)},
                   {"per_step_per_rank", min_avg_max(m.traffic.messages / steps).to_json()},
                   {"size_histogram", size_histogram_json(m.traffic)}};
  r["bytes"] = {{"total", sum_over_ranks(m.traffic.bytes)},
                {"per_step_per_rank", min_avg_max(m.traffic.bytes / steps).to_json()}};
  r["timing"] = {{"loop_seconds", loop},
                 {"per_step_seconds", loop / steps},
                 {"compute", min_avg_max(m.compute_seconds).to_json()},
                 {"pack", min_avg_max(m.exchange.pack).to_json()},
                 {"unpack", min_avg_max(m.exchange.unpack).to_json()},
                 {"mpi", min_avg_max(mpi_seconds).to_json()},
                 {"mpi_post", min_avg_max(m.exchange.post).to_json()},
                 {"mpi_wait", min_avg_max(m.exchange.wait).to_json()},
                 {"collective", min_avg_max(m.collective_seconds).to_json()}};
  r["fom"] = {{"cells_updated_per_second_per_rank", loop > 0 ? updates / loop / ranks : 0.0},
              {"gflops", loop > 0 ? updates * points / loop * 1e-9 : 0.0},
              {"flops_per_cell_update", points}};
  return r;
}

void print_summary(const nlohmann::json& r) {
  const auto& c = r["config"];
  const auto& t = r["timing"];
  const auto mam = [](const nlohmann::json& j, const char* unit) { return format_min_avg_max(j, unit); };
  fmt::print("amp-ghost: {} on {} ranks (process grid {}x{}x{}), block {}x{}x{} per rank, {} variables, {} steps, {}\n",
             c["stencil"].get<std::string>(), r["ranks"].get<int>(), c["process_grid"][0].get<int>(),
             c["process_grid"][1].get<int>(), c["process_grid"][2].get<int>(), c["local_block"][0].get<int>(),
             c["local_block"][1].get<int>(), c["local_block"][2].get<int>(), c["num_vars"].get<int>(),
             c["num_tsteps"].get<int>(), c["comm_method"].get<std::string>());
  const auto& v = r["verification"];
  fmt::print("  verification      {} (max relative error {:.3e}, tolerance {:.0e}, {} checks)\n",
             v["passed"].get<bool>() ? "PASSED" : "FAILED", v["max_relative_error"].get<double>(),
             v["tolerance"].get<double>(), v["checks"].get<int>());
  fmt::print("  checksum          {}\n", r["checksum"].get<std::string>());
  fmt::print("  loop time         {:.4f} s, {:.3f} ms per step\n", t["loop_seconds"].get<double>(),
             t["per_step_seconds"].get<double>() * 1e3);
  fmt::print("  compute           {}\n", mam(t["compute"], " s"));
  fmt::print("  pack + unpack     pack {:.4g} s, unpack {:.4g} s (avg)\n", t["pack"]["avg"].get<double>(),
             t["unpack"]["avg"].get<double>());
  fmt::print("  MPI p2p           {} (post + wait)\n", mam(t["mpi"], " s"));
  fmt::print("  collectives       {}\n", mam(t["collective"], " s"));
  fmt::print("  messages/step/rk  {}\n", mam(r["messages"]["per_step_per_rank"], ""));
  fmt::print("  bytes/step/rank   {}\n", mam(r["bytes"]["per_step_per_rank"], " B"));
  fmt::print("  messages total    {} ({} bytes)\n", r["messages"]["total"].get<std::uint64_t>(),
             r["bytes"]["total"].get<std::uint64_t>());
  fmt::print("  FOM               {:.4g} cell updates/s/rank, {:.3f} GFLOPS\n",
             r["fom"]["cells_updated_per_second_per_rank"].get<double>(), r["fom"]["gflops"].get<double>());
}

}  // namespace amp::ghost
