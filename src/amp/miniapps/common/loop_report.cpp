// SPDX-License-Identifier: BSD-3-Clause
// Reduction over ranks (min/avg/max, sums) of the loop measurements, and their printing.
#include <amp/miniapps/common/loop_report.hpp>

#include <amp/miniapps/common/reduction.hpp>
#include <amp/miniapps/common/traffic_report.hpp>

#include <fmt/format.h>

namespace amp {

void LoopMeasurements::record_verdict(const Conservation& conservation) {
  failure = conservation.failure;
  verified = failure.empty();
  worst_error = conservation.worst_error;
  checks = conservation.checks;
}

void add_loop_results(nlohmann::json& r, const LoopMeasurements& m, int steps, double tolerance, MPI_Comm comm) {
  const double loop = max_over_ranks(comm, m.loop_seconds);
  const double per_step = 1.0 / steps;
  r["verification"] = {{"passed", m.verified},
                       {"checks", m.checks},
                       {"max_relative_error", m.worst_error},
                       {"tolerance", tolerance},
                       {"failure", m.failure}};
  r["checksum"] = fmt::format("{:016x}", m.checksum);
  r["messages"] = {{"total", sum_over_ranks(comm, m.traffic.messages)},
                   {"per_step_per_rank", min_avg_max(comm, m.traffic.messages * per_step).to_json()},
                   {"size_histogram", size_histogram_json(comm, m.traffic)}};
  r["bytes"] = {{"total", sum_over_ranks(comm, m.traffic.bytes)},
                {"per_step_per_rank", min_avg_max(comm, m.traffic.bytes * per_step).to_json()}};
  r["timing"] = {{"loop_seconds", loop},
                 {"per_step_seconds", loop * per_step},
                 {"compute", min_avg_max(comm, m.compute_seconds).to_json()},
                 {"pack", min_avg_max(comm, m.exchange.pack).to_json()},
                 {"unpack", min_avg_max(comm, m.exchange.unpack).to_json()},
                 {"packed_elements", min_avg_max(comm, static_cast<double>(m.exchange.packed)).to_json()},
                 {"unpacked_elements", min_avg_max(comm, static_cast<double>(m.exchange.unpacked)).to_json()},
                 {"filled_elements", min_avg_max(comm, static_cast<double>(m.exchange.filled)).to_json()},
                 {"staged_elements", min_avg_max(comm, static_cast<double>(m.exchange.staged)).to_json()},
                 {"mpi", min_avg_max(comm, m.exchange.post + m.exchange.wait).to_json()},
                 {"mpi_post", min_avg_max(comm, m.exchange.post).to_json()},
                 {"mpi_wait", min_avg_max(comm, m.exchange.wait).to_json()},
                 {"collective", min_avg_max(comm, m.collective_seconds).to_json()}};
}

void print_verification_summary(const nlohmann::json& r) {
  const auto& v = r["verification"];
  fmt::print("  verification      {} (max relative error {:.3e}, tolerance {:.0e}, {} checks)\n",
             v["passed"].get<bool>() ? "PASSED" : "FAILED", v["max_relative_error"].get<double>(),
             v["tolerance"].get<double>(), v["checks"].get<int>());
  fmt::print("  checksum          {}\n", r["checksum"].get<std::string>());
}

void print_loop_summary(const nlohmann::json& r) {
  const auto& c = r["config"];
  fmt::print("  exchange          {} strategy, {} transport{}\n", c["strategy"].get<std::string>(),
             c["transport"].get<std::string>(),
             c["replayable"].get<bool>() ? "" : " (replayable: false, its calls have no DUMPI record)");
  const auto& t = r["timing"];
  fmt::print("  loop time         {:.4f} s, {:.3f} ms per step\n", t["loop_seconds"].get<double>(),
             t["per_step_seconds"].get<double>() * 1e3);
  fmt::print("  compute           {}\n", format_min_avg_max(t["compute"], " s"));
  fmt::print("  pack / unpack     {} / {}\n", format_min_avg_max(t["pack"], " s"),
             format_min_avg_max(t["unpack"], " s"));
  fmt::print("  MPI p2p           {} (post + wait)\n", format_min_avg_max(t["mpi"], " s"));
  fmt::print("  collectives       {}\n", format_min_avg_max(t["collective"], " s"));
  fmt::print("  messages/step/rk  {}\n", format_min_avg_max(r["messages"]["per_step_per_rank"], ""));
  fmt::print("  bytes/step/rank   {}\n", format_min_avg_max(r["bytes"]["per_step_per_rank"], " B"));
  fmt::print("  messages total    {} ({} bytes)\n", r["messages"]["total"].get<std::uint64_t>(),
             r["bytes"]["total"].get<std::uint64_t>());
}

}  // namespace amp
