// SPDX-License-Identifier: BSD-3-Clause
// The OTF2 events of one rank's calls, as the RecordStream resolved them: each record becomes
// Enter/Leave of its MPI function's region at its wall-clock start/stop, with the point-to-point,
// request and collective events of the call in between; nonblocking operations complete at the
// Wait/Test that reports them.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include <amp/trace/reader/record_stream.hpp>
#include <amp/trace/reader/trace_file.hpp>
#include <amp/trace/otf2/communicator_table.hpp>
#include <amp/trace/otf2/event_sink.hpp>
#include <amp/trace/otf2/region_catalog.hpp>

namespace amp::trace::otf2 {

struct MappingSummary {
  std::uint64_t records = 0;
  std::uint64_t messages_sent = 0, bytes_sent = 0;          // MpiSend + MpiIsend
  std::uint64_t messages_received = 0, bytes_received = 0;  // MpiRecv + MpiIrecv
  std::uint64_t collectives = 0;
  std::uint64_t unmatched_completions = 0;    // a Wait/Test for a request no recorded call started
  std::uint64_t never_completed = 0;          // started, still open at the end of the trace
  std::uint64_t receives_without_source = 0;  // MPI_PROC_NULL, or MPI_ANY_SOURCE without a status
  std::uint64_t unmatched_function_exits = 0;
};

class RankEventMapper {
 public:
  RankEventMapper(const TraceFile& file, int world_rank, CommunicatorTable& comms, RegionCatalog& regions,
                  EventSink& sink, MappingSummary& summary);
  // One call of this rank, in the rank's order.
  void map(const ResolvedCall& call);
  // Closes user regions left open and counts the operations never completed (as the stream says).
  void finish(std::uint64_t operations_open);

 private:
  CommIndex comm_of(const MessageEnd& m);
  void start_nonblocking(std::uint64_t time, const MessageEnd& m);
  void blocking_send(std::uint64_t time, const MessageEnd& m);
  void blocking_receive(std::uint64_t time, const MessageEnd& m);
  void complete(std::uint64_t time, const MessageEnd& m);
  void freed(std::uint64_t time, const MessageEnd& m);
  void point_to_point(const ResolvedCall& call, std::uint64_t start, std::uint64_t stop);
  void collective(const ResolvedCall& call, std::uint64_t start, std::uint64_t stop);
  void user_function(const Record& r, std::uint64_t time);

  int world_rank_;
  CommunicatorTable& comms_;
  RegionCatalog& regions_;
  EventSink& sink_;
  MappingSummary& summary_;
  std::unordered_map<std::uint64_t, std::string> function_names_;  // address block of the file
  std::vector<RegionIndex> open_user_regions_;
  std::uint64_t last_time_ = 0;
};

}  // namespace amp::trace::otf2
