// SPDX-License-Identifier: BSD-3-Clause
// amp-trace stats: point-to-point traffic per rank and per call, message-size histogram and the
// communication matrix, as tables, as JSON (--json) and as CSV (--matrix-csv FILE).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>

#include <amp/trace/reader/staged_file.hpp>
#include <amp/trace/reader/trace_error.hpp>
#include <amp/trace/reader/trace_stats.hpp>
#include <amp/trace/cli/commands.hpp>
#include <amp/trace/format/json_schema_version.hpp>

namespace amp::trace::cli {

namespace {

nlohmann::json traffic_json(const Traffic& t) { return {{"messages", t.messages}, {"bytes", t.bytes}}; }

// The CSV goes to a new file only (an existing name is refused), written whole or not at all.
void write_matrix_csv(const TraceStats& stats, const std::string& path) {
  std::string csv = "source\\destination";
  for (int d = 0; d < stats.rank_count; ++d) csv += ',' + std::to_string(d);
  csv += '\n';
  for (int s = 0; s < stats.rank_count; ++s) {
    csv += std::to_string(s);
    for (int d = 0; d < stats.rank_count; ++d) csv += ',' + std::to_string(stats.matrix_bytes[s][d]);
    csv += '\n';
  }
  StagedFile file(path, false);
  file.write_all(csv);
  file.publish();
}

void print_json(const TraceSet& set, const TraceStats& stats) {
  nlohmann::json out;
  out["schema_version"] = kJsonSchemaVersion;
  out["trace"] = set.description;
  out["ranks"] = stats.rank_count;
  out["point_to_point"] = traffic_json(stats.sent);
  out["by_call"] = nlohmann::json::object();
  for (const auto& [call, t] : stats.sent_by_call) out["by_call"][call] = traffic_json(t);
  out["per_rank"] = nlohmann::json::array();
  for (const RankTraffic& r : stats.ranks) {
    nlohmann::json rank = traffic_json(r.sent);
    rank["rank"] = r.rank;
    rank["records"] = r.records;
    rank["receives_posted"] = r.receives_posted;
    out["per_rank"].push_back(rank);
  }
  out["size_histogram"] = nlohmann::json::array();
  for (const auto& [bound, count] : stats.size_histogram)
    out["size_histogram"].push_back({{"max_bytes", bound}, {"messages", count}});
  out["matrix_bytes"] = stats.matrix_bytes;
  out["unplaced_messages"] = stats.unplaced_messages;
  out["unknown_datatype_messages"] = stats.unknown_datatype_messages;
  std::cout << out.dump(2) << '\n';
}

void print_tables(const TraceSet& set, const TraceStats& stats) {
  std::cout << fmt::format("trace: {}  ranks: {}\n", set.description, stats.rank_count);
  std::cout << fmt::format("point-to-point sent: {} messages, {} bytes\n\n", stats.sent.messages, stats.sent.bytes);
  std::cout << fmt::format("{:>6} {:>10} {:>14} {:>16} {:>10}\n", "rank", "records", "messages", "bytes", "recvs");
  for (const RankTraffic& r : stats.ranks)
    std::cout << fmt::format("{:>6} {:>10} {:>14} {:>16} {:>10}\n", r.rank, r.records, r.sent.messages, r.sent.bytes,
                             r.receives_posted);
  std::cout << fmt::format("\n{:<20} {:>14} {:>16}\n", "call", "messages", "bytes");
  for (const auto& [call, t] : stats.sent_by_call)
    std::cout << fmt::format("{:<20} {:>14} {:>16}\n", call, t.messages, t.bytes);
  std::cout << "\nmessage sizes (bytes <= bound):\n";
  for (const auto& [bound, count] : stats.size_histogram) std::cout << fmt::format("  <= {:>12} : {}\n", bound, count);
  std::cout << "\ncommunication matrix (bytes, row = source rank, column = destination rank):\n";
  for (int s = 0; s < stats.rank_count; ++s) {
    std::string row;
    for (int d = 0; d < stats.rank_count; ++d) row += (d ? "," : "") + std::to_string(stats.matrix_bytes[s][d]);
    std::cout << row << '\n';
  }
  if (stats.unplaced_messages != 0)
    std::cout << fmt::format("({} messages on communicators not equivalent to MPI_COMM_WORLD are not in the matrix)\n",
                             stats.unplaced_messages);
  if (stats.unknown_datatype_messages != 0)
    std::cout << fmt::format("({} messages use a datatype without a size entry; counted as 0 bytes)\n",
                             stats.unknown_datatype_messages);
}

}  // namespace

int run_stats(const std::string& input, bool json, const std::string& matrix_csv_path) {
  TraceSet set = locate_trace(input);
  TraceStats stats = compute_trace_stats(set);
  if (!matrix_csv_path.empty()) write_matrix_csv(stats, matrix_csv_path);
  if (json)
    print_json(set, stats);
  else
    print_tables(set, stats);
  return 0;
}

}  // namespace amp::trace::cli
