// The same fields as amp-ghost (verification, checksum, messages, bytes, timing, fom) plus the
// partition's shape (neighbour ranks, ghost cells, send runs per rank) and gather/scatter time.
#include "sage_report.hpp"

#include <reduction.hpp>
#include <traffic_report.hpp>

#include <fmt/format.h>

namespace amp::sage {

nlohmann::json sage_results(const SageConfig& c, const LocalMesh& mesh, const SageMeasurements& m, int ranks) {
  const double steps = c.num_tsteps;
  const double loop = max_over_ranks(m.loop_seconds);
  const double cells = static_cast<double>(c.total_cells());
  const double mpi_seconds = m.exchange.post + m.exchange.wait;
  const auto links = static_cast<std::uint64_t>(mesh.neighbours.size());

  nlohmann::json r;
  r["proxy"] = "amp-sage";
  r["config"] = {{"nx", c.nx}, {"ny", c.ny}, {"nz", c.nz}, {"scaling", c.weak_scaling ? "weak" : "strong"},
                 {"global_cells", {c.global_cells[0], c.global_cells[1], c.global_cells[2]}},
                 {"num_vars", c.num_vars}, {"num_tsteps", c.num_tsteps}, {"partition", partition_name(c.partition)},
                 {"comm_method", c.comm_method}, {"error_tol", c.error_tol}, {"seed", c.seed}};
  r["ranks"] = ranks;
  r["partition"] = {{"curve", partition_name(c.partition)},
                    {"owned_cells_per_rank", min_avg_max(static_cast<double>(mesh.owned)).to_json()},
                    {"ghost_cells_per_rank", min_avg_max(static_cast<double>(mesh.ghosts())).to_json()},
                    {"neighbour_ranks", min_avg_max(static_cast<double>(links)).to_json()},
                    {"send_runs_per_rank", min_avg_max(static_cast<double>(m.send_runs)).to_json()},
                    {"faces_per_rank", min_avg_max(static_cast<double>(m.faces)).to_json()},
                    {"links_total", sum_over_ranks(links)},
                    {"send_runs_total", sum_over_ranks(static_cast<std::uint64_t>(m.send_runs))},
                    {"send_cells_total", sum_over_ranks(static_cast<std::uint64_t>(m.send_cells))}};
  r["verification"] = {{"passed", m.verified}, {"checks", m.checks}, {"checked_variables", c.num_vars},
                       {"max_relative_error", m.worst_error}, {"tolerance", c.tolerance()}, {"failure", m.failure}};
  r["checksum"] = fmt::format("{:016x}", m.checksum);
  r["messages"] = {{"total", sum_over_ranks(m.traffic.messages)},
                   {"per_step_per_rank", min_avg_max(m.traffic.messages / steps).to_json()},
                   {"size_histogram", size_histogram_json(m.traffic)}};
  r["bytes"] = {{"total", sum_over_ranks(m.traffic.bytes)},
                {"per_step_per_rank", min_avg_max(m.traffic.bytes / steps).to_json()}};
  r["timing"] = {{"setup_seconds", max_over_ranks(m.setup_seconds)},
                 {"loop_seconds", loop},
                 {"per_step_seconds", loop / steps},
                 {"compute", min_avg_max(m.compute_seconds).to_json()},
                 {"pack", min_avg_max(m.exchange.pack).to_json()},
                 {"unpack", min_avg_max(m.exchange.unpack).to_json()},
                 {"gather_scatter", min_avg_max(m.exchange.pack + m.exchange.unpack).to_json()},
                 {"mpi", min_avg_max(mpi_seconds).to_json()},
                 {"mpi_post", min_avg_max(m.exchange.post).to_json()},
                 {"mpi_wait", min_avg_max(m.exchange.wait).to_json()},
                 {"collective", min_avg_max(m.collective_seconds).to_json()}};
  r["fom"] = {{"cells_per_step_per_pe_per_second", loop > 0 ? cells * steps / loop / ranks : 0.0},
              {"cell_variable_updates_per_second", loop > 0 ? cells * c.num_vars * steps / loop : 0.0}};
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
             c["num_vars"].get<int>(), c["num_tsteps"].get<int>(), c["comm_method"].get<std::string>());
  const auto& v = r["verification"];
  fmt::print("  verification      {} (max relative error {:.3e}, tolerance {:.0e}, {} checks)\n",
             v["passed"].get<bool>() ? "PASSED" : "FAILED", v["max_relative_error"].get<double>(),
             v["tolerance"].get<double>(), v["checks"].get<int>());
  fmt::print("  checksum          {}\n", r["checksum"].get<std::string>());
  fmt::print("  neighbour ranks   {}\n", mam(p["neighbour_ranks"], ""));
  fmt::print("  ghost cells/rank  {}\n", mam(p["ghost_cells_per_rank"], ""));
  fmt::print("  send runs/rank    {}\n", mam(p["send_runs_per_rank"], ""));
  fmt::print("  set-up time       {:.4f} s\n", t["setup_seconds"].get<double>());
  fmt::print("  loop time         {:.4f} s, {:.3f} ms per step\n", t["loop_seconds"].get<double>(),
             t["per_step_seconds"].get<double>() * 1e3);
  fmt::print("  compute           {}\n", mam(t["compute"], " s"));
  fmt::print("  gather + scatter  {}\n", mam(t["gather_scatter"], " s"));
  fmt::print("  MPI p2p           {} (post + wait)\n", mam(t["mpi"], " s"));
  fmt::print("  collectives       {}\n", mam(t["collective"], " s"));
  fmt::print("  messages/step/rk  {}\n", mam(r["messages"]["per_step_per_rank"], ""));
  fmt::print("  bytes/step/rank   {}\n", mam(r["bytes"]["per_step_per_rank"], " B"));
  fmt::print("  messages total    {} ({} bytes)\n", r["messages"]["total"].get<std::uint64_t>(),
             r["bytes"]["total"].get<std::uint64_t>());
  fmt::print("  FOM               {:.4g} cells per step per PE per second\n",
             r["fom"]["cells_per_step_per_pe_per_second"].get<double>());
}

}  // namespace amp::sage
