// The OTF2 events of one rank's DUMPI records: each record becomes Enter/Leave of its MPI function's
// region at its wall-clock start/stop, with the point-to-point, request and collective events of
// the call in between; nonblocking operations complete at the Wait/Test that reports them.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "../reader/trace_file.hpp"
#include "communicator_table.hpp"
#include "event_sink.hpp"
#include "region_catalog.hpp"
#include "request_tracker.hpp"

namespace amp::trace::otf2 {

struct MappingSummary {
  std::uint64_t records = 0;
  std::uint64_t messages_sent = 0, bytes_sent = 0;          // MpiSend + MpiIsend
  std::uint64_t messages_received = 0, bytes_received = 0;  // MpiRecv + MpiIrecv
  std::uint64_t collectives = 0;
  std::uint64_t unmatched_completions = 0;  // a Wait/Test for a request no recorded call started
  std::uint64_t never_completed = 0;        // started, still open at the end of the trace
  std::uint64_t receives_without_source = 0;  // MPI_PROC_NULL, or MPI_ANY_SOURCE without a status
  std::uint64_t unmatched_function_exits = 0;
};

class RankEventMapper {
 public:
  // comms must be at this rank's replay (CommunicatorTable::replay_rank) when records arrive.
  RankEventMapper(const TraceFile& file, int world_rank, CommunicatorTable& comms, RegionCatalog& regions,
                  EventSink& sink, MappingSummary& summary);
  void map(const Record& record);
  // Closes user regions left open and counts the requests never completed.
  void finish();

 private:
  std::uint64_t message_bytes(std::int64_t count, std::int64_t datatype) const;
  PointToPoint message(const Record& r, bool is_send, const char* count, const char* datatype, const char* peer,
                       const char* tag) const;
  void start_nonblocking(std::uint64_t time, std::int32_t dumpi_request, const PointToPoint& m);
  void blocking_send(std::uint64_t time, const PointToPoint& m);
  void blocking_receive(std::uint64_t time, const PointToPoint& m, const StatusEntry* status);
  void complete(std::uint64_t time, std::int32_t dumpi_request, const StatusEntry* status);
  void completions(const Record& r, std::uint64_t time);
  void collective(const Record& r, std::uint64_t start, std::uint64_t stop);
  void user_function(const Record& r, std::uint64_t time);

  const TraceFile& file_;
  int world_rank_;
  CommunicatorTable& comms_;
  RegionCatalog& regions_;
  EventSink& sink_;
  MappingSummary& summary_;
  RequestTracker requests_;
  std::unordered_map<std::uint64_t, std::string> function_names_;  // address block of the file
  std::vector<RegionIndex> open_user_regions_;
  std::uint64_t last_time_ = 0;
};

}  // namespace amp::trace::otf2
