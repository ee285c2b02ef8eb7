// SPDX-License-Identifier: BSD-3-Clause
// Statistics from the one RecordStream: message sizes are count x the datatype-size block entry;
// persistent sends are counted when started, under the *_init call that made them; the matrix places
// every message whose communicator's members the stream resolved (world, dups, splits, creates).
#include <amp/trace/reader/trace_stats.hpp>

#include <algorithm>
#include <unordered_map>

#include <amp/trace/format/function_names.hpp>
#include <amp/trace/reader/record_stream.hpp>

namespace amp::trace {

namespace {

std::uint64_t histogram_bin(std::uint64_t bytes) {
  if (bytes == 0) return 0;
  std::uint64_t bound = 1;
  while (bound < bytes) bound <<= 1;
  return bound;
}

// Adds what one resolved call means to its rank's traffic and the run's totals.
void add_call(const ResolvedCall& call, RankTraffic& traffic, TraceStats& stats) {
  ++traffic.records;
  ++traffic.calls[std::string(function_name(call.record->function))];
  for (const MessageEnd& m : call.started) {
    if (!m.is_send) {
      ++traffic.receives_posted;
      continue;
    }
    if (m.peer == MessageEnd::kPeerNone) continue;  // MPI_PROC_NULL: no message
    std::uint64_t bytes = 0;
    if (m.bytes < 0)
      ++stats.unknown_datatype_messages;  // counted with 0 bytes
    else
      bytes = static_cast<std::uint64_t>(m.bytes);
    const std::string name(function_name(m.origin));
    traffic.sent.add(bytes);
    traffic.sent_by_call[name].add(bytes);
    stats.sent.add(bytes);
    stats.sent_by_call[name].add(bytes);
    ++stats.size_histogram[histogram_bin(bytes)];
    const auto n = static_cast<std::size_t>(stats.rank_count);
    const auto from = static_cast<std::size_t>(call.rank), to = static_cast<std::size_t>(m.peer);
    if (m.peer >= 0 && from < n && to < n) {
      stats.matrix_bytes[from][to] += bytes;
      ++stats.matrix_messages[from][to];
    } else {
      ++stats.unplaced_messages;
    }
  }
}

void count_stream(RecordStream& stream, TraceStats& stats) {
  std::unordered_map<int, std::size_t> index;
  for (int rank : stream.ranks()) {
    index[rank] = stats.ranks.size();
    stats.ranks.push_back(RankTraffic{});
    stats.ranks.back().rank = rank;
  }
  stream.run([&](const ResolvedCall& call) { add_call(call, stats.ranks[index.at(call.rank)], stats); });
}

}  // namespace

void add_rank_traffic(const TraceFile& file, int rank, TraceStats& stats) {
  RecordStream stream(file, rank, std::max(stats.rank_count, rank + 1));
  count_stream(stream, stats);
}

TraceStats compute_trace_stats(const TraceSet& set) {
  RecordStream stream(set);
  TraceStats stats;
  stats.rank_count = stream.world_size();
  stats.matrix_bytes.assign(static_cast<std::size_t>(stats.rank_count),
                            std::vector<std::uint64_t>(static_cast<std::size_t>(stats.rank_count), 0));
  stats.matrix_messages = stats.matrix_bytes;
  count_stream(stream, stats);
  std::sort(stats.ranks.begin(), stats.ranks.end(),
            [](const RankTraffic& a, const RankTraffic& b) { return a.rank < b.rank; });
  return stats;
}

}  // namespace amp::trace
