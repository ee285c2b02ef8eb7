// SPDX-License-Identifier: BSD-3-Clause
// RankEventMapper: the per-call cases. Sends are placed at the call's start, receives and
// completions at its end (as Score-P records them), all inside the call's Enter/Leave; times never
// go backwards on a location (records of several threads are clamped to the previous event).
#include <amp/trace/otf2/event_mapping.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include <amp/trace/format/dumpi_format.hpp>

namespace amp::trace::otf2 {

namespace {

std::uint64_t nanoseconds(const ClockTime& t) {
  return t.sec < 0 ? 0 : static_cast<std::uint64_t>(t.sec) * 1000000000ull + t.nsec;
}

std::uint32_t as_u32(std::int64_t v) { return static_cast<std::uint32_t>(v); }  // -1 -> OTF2_UNDEFINED_UINT32

// Bytes of a message as sent: count x datatype size, 0 when the size is unknown.
std::uint64_t sent_bytes(const MessageEnd& m) { return m.bytes > 0 ? static_cast<std::uint64_t>(m.bytes) : 0; }

// A receive's sender and tag come from its arguments, or from the status for wildcards (the stream
// applied it); its size from the status (what arrived) when that fits the buffer, else the buffer's size.
struct Received {
  std::uint32_t sender, tag;
  std::uint64_t bytes;
};
std::optional<Received> received(const MessageEnd& m) {
  if (m.comm_peer < 0) return std::nullopt;  // MPI_PROC_NULL, or MPI_ANY_SOURCE without a status
  const std::uint64_t capacity = sent_bytes(m);
  const bool fits = m.received_bytes >= 0 && static_cast<std::uint64_t>(m.received_bytes) <= capacity;
  return Received{as_u32(m.comm_peer), as_u32(m.tag), fits ? static_cast<std::uint64_t>(m.received_bytes) : capacity};
}

bool completes_requests(std::uint16_t function) {
  switch (function) {
    case kWait:
    case kTest:
    case kWaitany:
    case kTestany:
    case kWaitall:
    case kTestall:
    case kWaitsome:
    case kTestsome:
      return true;
    default:
      return false;
  }
}

}  // namespace

RankEventMapper::RankEventMapper(const TraceFile& file, int world_rank, CommunicatorTable& comms,
                                 RegionCatalog& regions, EventSink& sink, MappingSummary& summary)
    : world_rank_(world_rank), comms_(comms), regions_(regions), sink_(sink), summary_(summary) {
  for (const FunctionAddress& a : file.addresses()) function_names_[a.address] = a.name;
}

CommIndex RankEventMapper::comm_of(const MessageEnd& m) { return comms_.comm(m.comm, world_rank_, m.comm_id); }

void RankEventMapper::blocking_send(std::uint64_t time, const MessageEnd& m) {
  if (m.peer == MessageEnd::kPeerNone) return;  // MPI_PROC_NULL: no message
  const std::uint64_t bytes = sent_bytes(m);
  sink_.send(time, as_u32(m.comm_peer), comm_of(m), as_u32(m.tag), bytes);
  ++summary_.messages_sent;
  summary_.bytes_sent += bytes;
}

void RankEventMapper::blocking_receive(std::uint64_t time, const MessageEnd& m) {
  std::optional<Received> got = received(m);
  if (!got) {
    ++summary_.receives_without_source;
    return;
  }
  sink_.recv(time, got->sender, comm_of(m), got->tag, got->bytes);
  ++summary_.messages_received;
  summary_.bytes_received += got->bytes;
}

void RankEventMapper::start_nonblocking(std::uint64_t time, const MessageEnd& m) {
  if (!m.is_send) {
    sink_.irecv_request(time, m.operation);
  } else if (m.peer != MessageEnd::kPeerNone) {
    const std::uint64_t bytes = sent_bytes(m);
    sink_.isend(time, as_u32(m.comm_peer), comm_of(m), as_u32(m.tag), bytes, m.operation);
    ++summary_.messages_sent;
    summary_.bytes_sent += bytes;
  }
}

void RankEventMapper::complete(std::uint64_t time, const MessageEnd& m) {
  if (m.is_send) {
    if (m.peer != MessageEnd::kPeerNone) sink_.isend_complete(time, m.operation);
    return;
  }
  std::optional<Received> got = received(m);
  if (!got || m.cancelled) {
    if (!got) ++summary_.receives_without_source;
    sink_.request_cancelled(time, m.operation);
    return;
  }
  sink_.irecv(time, got->sender, comm_of(m), got->tag, got->bytes, m.operation);
  ++summary_.messages_received;
  summary_.bytes_received += got->bytes;
}

// Request_free of an active operation: it is never completed by a Wait later, so it closes here.
void RankEventMapper::freed(std::uint64_t time, const MessageEnd& m) {
  if (m.is_send && m.peer != MessageEnd::kPeerNone) sink_.isend_complete(time, m.operation);
  if (!m.is_send) sink_.request_cancelled(time, m.operation);
}

// Sends at the call's start, receives and completions at its end (Sendrecv: its send first).
void RankEventMapper::point_to_point(const ResolvedCall& call, std::uint64_t start, std::uint64_t stop) {
  for (const MessageEnd& m : call.started) {
    if (!m.blocking)
      start_nonblocking(start, m);
    else if (m.is_send)
      blocking_send(start, m);
  }
  for (const MessageEnd& m : call.started)
    if (m.blocking && !m.is_send) blocking_receive(stop, m);
  for (const MessageEnd& m : call.completed) complete(stop, m);
  for (const MessageEnd& m : call.freed) freed(stop, m);
  if (completes_requests(call.record->function))
    for (std::int32_t id : call.unknown_requests)
      if (id != dumpi_request::kError) ++summary_.unmatched_completions;
}

void RankEventMapper::collective(const ResolvedCall& call, std::uint64_t start, std::uint64_t stop) {
  const Record& r = *call.record;
  const CommIndex comm = comms_.comm(call.collective->comm, world_rank_, r.scalar("comm"));
  std::optional<CollectiveCall> event =
      collective_call(r, *call.collective, comms_.size_of(comm), comms_.rank_in(comm, world_rank_));
  if (!event) return;
  sink_.collective_begin(start);
  sink_.collective_end(stop, *event, comm);
  ++summary_.collectives;
}

void RankEventMapper::user_function(const Record& r, std::uint64_t time) {
  const std::uint64_t address = static_cast<std::uint64_t>(r.scalar("fn"));
  auto named = function_names_.find(address);
  const RegionIndex region =
      regions_.user_function(named != function_names_.end() ? named->second : fmt::format("function 0x{:x}", address));
  if (r.function == kFunctionEnter) {
    sink_.enter(time, region);
    open_user_regions_.push_back(region);
  } else if (!open_user_regions_.empty() && open_user_regions_.back() == region) {
    sink_.leave(time, region);
    open_user_regions_.pop_back();
  } else {
    ++summary_.unmatched_function_exits;
  }
}

void RankEventMapper::map(const ResolvedCall& call) {
  const Record& r = *call.record;
  ++summary_.records;
  const bool wall = (r.mask & kMaskWallTime) != 0, cpu = (r.mask & kMaskCpuTime) != 0;
  const std::uint64_t start = std::max(last_time_, wall  ? nanoseconds(r.wall_start)
                                                   : cpu ? nanoseconds(r.cpu_start)
                                                         : last_time_);
  const std::uint64_t stop = std::max(start, wall ? nanoseconds(r.wall_stop) : cpu ? nanoseconds(r.cpu_stop) : start);
  last_time_ = stop;

  const bool annotation = pcontrol_level(r).has_value();
  if ((r.function == kFunctionEnter || r.function == kFunctionExit) && !annotation) {
    user_function(r, start);
    return;
  }
  const RegionIndex region = regions_.mpi_function(annotation ? std::uint16_t{kPcontrol} : r.function);
  sink_.enter(start, region);
  if (call.collective)
    collective(call, start, stop);
  else
    point_to_point(call, start, stop);
  sink_.leave(stop, region);
}

void RankEventMapper::finish(std::uint64_t operations_open) {
  while (!open_user_regions_.empty()) {
    sink_.leave(last_time_, open_user_regions_.back());
    open_user_regions_.pop_back();
  }
  summary_.never_completed += operations_open;
}

}  // namespace amp::trace::otf2
