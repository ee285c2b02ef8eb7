// SPDX-License-Identifier: BSD-3-Clause
// Traffic statistics of a traced run: point-to-point messages and bytes sent, per rank and per
// call, message-size histogram and the rank-to-rank matrix (world ranks, through every communicator
// whose members are known), read from the one RecordStream.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <amp/trace/reader/trace_file.hpp>
#include <amp/trace/reader/trace_set.hpp>

namespace amp::trace {

struct Traffic {
  std::uint64_t messages = 0;
  std::uint64_t bytes = 0;
  void add(std::uint64_t message_bytes) {
    ++messages;
    bytes += message_bytes;
  }
};

struct RankTraffic {
  int rank = 0;
  std::uint64_t records = 0;
  Traffic sent;                       // point-to-point messages started by this rank
  std::uint64_t receives_posted = 0;  // Recv, Irecv, Sendrecv, started persistent receives
  std::map<std::string, Traffic> sent_by_call;
  std::map<std::string, std::uint64_t> calls;  // records per function name
};

struct TraceStats {
  int rank_count = 0;
  std::vector<RankTraffic> ranks;
  Traffic sent;
  std::map<std::string, Traffic> sent_by_call;
  std::map<std::uint64_t, std::uint64_t> size_histogram;  // upper bound (power of two, 0 for empty) -> messages
  std::vector<std::vector<std::uint64_t>> matrix_bytes;   // [source world rank][destination world rank]
  std::vector<std::vector<std::uint64_t>> matrix_messages;
  std::uint64_t unplaced_messages = 0;          // on communicators whose members the trace does not tell
  std::uint64_t unknown_datatype_messages = 0;  // datatype id missing from the sizes block (0 bytes counted)
};

// Reads every rank's file of the set. Throws TraceFormatError on unreadable input.
TraceStats compute_trace_stats(const TraceSet& set);

// Sends counted: Send, Bsend, Ssend, Rsend, Isend, Ibsend, Issend, Irsend, the send side of
// Sendrecv(_replace), and Start/Startall of requests made by a *send_init call. Sends to a negative
// rank (MPI_PROC_NULL) are not messages.
void add_rank_traffic(const TraceFile& file, int rank, TraceStats& stats);

}  // namespace amp::trace
