// RankEventMapper: the per-call cases. Sends are placed at the call's start, receives and
// completions at its end (as Score-P records them), all inside the call's Enter/Leave; times never
// go backwards on a location (records of several threads are clamped to the previous event).
#include "event_mapping.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "../format/dumpi_format.hpp"

namespace amp::trace::otf2 {

namespace {

std::uint64_t nanoseconds(const ClockTime& t) {
  return t.sec < 0 ? 0 : static_cast<std::uint64_t>(t.sec) * 1000000000ull + t.nsec;
}

// The i-th status of a STATUS or STATUS-array field, when the trace has it.
const StatusEntry* status_at(const Record& r, const char* name, std::size_t i) {
  const Field* f = r.field(name);
  return f != nullptr && f->present && i < f->statuses.size() ? &f->statuses[i] : nullptr;
}

std::uint32_t as_u32(std::int64_t v) { return static_cast<std::uint32_t>(v); }  // -1 -> OTF2_UNDEFINED_UINT32

}  // namespace

RankEventMapper::RankEventMapper(const TraceFile& file, int world_rank, CommunicatorTable& comms,
                                 RegionCatalog& regions, EventSink& sink, MappingSummary& summary)
    : file_(file), world_rank_(world_rank), comms_(comms), regions_(regions), sink_(sink), summary_(summary) {
  for (const FunctionAddress& a : file.addresses()) function_names_[a.address] = a.name;
}

std::uint64_t RankEventMapper::message_bytes(std::int64_t count, std::int64_t datatype) const {
  const std::int64_t size = file_.datatype_size(datatype).value_or(0);
  return count > 0 && size > 0 ? static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(size) : 0;
}

PointToPoint RankEventMapper::message(const Record& r, bool is_send, const char* count, const char* datatype,
                                      const char* peer, const char* tag) const {
  PointToPoint m;
  m.is_send = is_send;
  m.peer = r.scalar(peer);
  m.tag = r.scalar(tag);
  m.comm = comms_.comm(r.scalar("comm"));
  m.bytes = message_bytes(r.scalar(count), r.scalar(datatype));
  return m;
}

void RankEventMapper::blocking_send(std::uint64_t time, const PointToPoint& m) {
  if (m.peer < 0) return;  // MPI_PROC_NULL: no message
  sink_.send(time, as_u32(m.peer), m.comm, as_u32(m.tag), m.bytes);
  ++summary_.messages_sent;
  summary_.bytes_sent += m.bytes;
}

// A receive's sender and tag come from its arguments, or from the status for wildcards; its size
// from the status (what arrived) when that fits the buffer, else the buffer's size.
static std::optional<PointToPoint> received_message(PointToPoint m, const StatusEntry* status) {
  if (m.peer < 0) {
    if (status == nullptr || status->source < 0) return std::nullopt;
    m.peer = status->source;
  }
  if (m.tag < 0 && status != nullptr && status->tag >= 0) m.tag = status->tag;
  if (status != nullptr && status->bytes >= 0 && static_cast<std::uint64_t>(status->bytes) <= m.bytes)
    m.bytes = static_cast<std::uint64_t>(status->bytes);
  return m;
}

void RankEventMapper::blocking_receive(std::uint64_t time, const PointToPoint& m, const StatusEntry* status) {
  std::optional<PointToPoint> got = received_message(m, status);
  if (!got) {
    ++summary_.receives_without_source;
    return;
  }
  sink_.recv(time, as_u32(got->peer), got->comm, as_u32(got->tag), got->bytes);
  ++summary_.messages_received;
  summary_.bytes_received += got->bytes;
}

void RankEventMapper::start_nonblocking(std::uint64_t time, std::int32_t dumpi_request, const PointToPoint& m) {
  const std::uint64_t request = requests_.start(dumpi_request, m);
  if (!m.is_send) {
    sink_.irecv_request(time, request);
  } else if (m.peer >= 0) {
    sink_.isend(time, as_u32(m.peer), m.comm, as_u32(m.tag), m.bytes, request);
    ++summary_.messages_sent;
    summary_.bytes_sent += m.bytes;
  }
}

void RankEventMapper::complete(std::uint64_t time, std::int32_t dumpi_request, const StatusEntry* status) {
  if (dumpi_request == dumpi_request::kNull || dumpi_request == dumpi_request::kError) return;
  std::optional<StartedOperation> done = requests_.complete(dumpi_request);
  if (!done) {
    ++summary_.unmatched_completions;
    return;
  }
  if (done->message.is_send) {
    if (done->message.peer >= 0) sink_.isend_complete(time, done->otf2_request);
    return;
  }
  std::optional<PointToPoint> got = received_message(done->message, status);
  if (!got || (status != nullptr && status->cancelled != 0)) {
    if (!got) ++summary_.receives_without_source;
    sink_.request_cancelled(time, done->otf2_request);
    return;
  }
  sink_.irecv(time, as_u32(got->peer), got->comm, as_u32(got->tag), got->bytes, done->otf2_request);
  ++summary_.messages_received;
  summary_.bytes_received += got->bytes;
}

void RankEventMapper::completions(const Record& r, std::uint64_t time) {
  const Field* ids = r.field("requests");
  auto id_at = [ids](std::int64_t i) {
    return ids != nullptr && i >= 0 && static_cast<std::size_t>(i) < ids->values.size()
               ? ids->values[static_cast<std::size_t>(i)]
               : dumpi_request::kNull;
  };
  switch (r.function) {
    case kWait: complete(time, static_cast<std::int32_t>(r.scalar("request")), status_at(r, "status", 0)); break;
    case kTest:
      if (r.scalar("flag") != 0)
        complete(time, static_cast<std::int32_t>(r.scalar("request")), status_at(r, "status", 0));
      break;
    case kWaitany:
    case kTestany:
      if (r.function == kWaitany || r.scalar("flag") != 0)
        complete(time, id_at(r.scalar("index", -1)), status_at(r, "status", 0));
      break;
    case kWaitall:
    case kTestall:
      if (r.function == kWaitall || r.scalar("flag") != 0)
        for (std::size_t i = 0; ids != nullptr && i < ids->values.size(); ++i)
          complete(time, ids->values[i], status_at(r, "statuses", i));
      break;
    case kWaitsome:
    case kTestsome:
      if (const Field* indices = r.field("indices")) {
        const std::size_t done = std::min<std::size_t>(indices->values.size(),
                                                       static_cast<std::size_t>(std::max<std::int64_t>(0, r.scalar("outcount"))));
        for (std::size_t j = 0; j < done; ++j) complete(time, id_at(indices->values[j]), status_at(r, "statuses", j));
      }
      break;
    case kRequestFree:
      if (std::optional<StartedOperation> freed = requests_.free(static_cast<std::int32_t>(r.scalar("request")))) {
        if (freed->message.is_send && freed->message.peer >= 0) sink_.isend_complete(time, freed->otf2_request);
        if (!freed->message.is_send) sink_.request_cancelled(time, freed->otf2_request);
      }
      break;
    default: break;
  }
}

void RankEventMapper::collective(const Record& r, std::uint64_t start, std::uint64_t stop) {
  const CommIndex comm = comms_.comm(r.scalar("comm"));
  const ByteCounter bytes_of = [this](std::int64_t count, std::int64_t datatype) { return message_bytes(count, datatype); };
  std::optional<CollectiveCall> call = collective_call(r, comms_.size_of(comm), comms_.rank_in(comm, world_rank_), bytes_of);
  if (!call) return;
  sink_.collective_begin(start);
  sink_.collective_end(stop, *call, comm);
  ++summary_.collectives;
}

void RankEventMapper::user_function(const Record& r, std::uint64_t time) {
  const std::uint64_t address = static_cast<std::uint64_t>(r.scalar("fn"));
  auto named = function_names_.find(address);
  const RegionIndex region = regions_.user_function(
      named != function_names_.end() ? named->second : fmt::format("function 0x{:x}", address));
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

void RankEventMapper::map(const Record& r) {
  ++summary_.records;
  const bool wall = (r.mask & kMaskWallTime) != 0, cpu = (r.mask & kMaskCpuTime) != 0;
  const std::uint64_t start =
      std::max(last_time_, wall ? nanoseconds(r.wall_start) : cpu ? nanoseconds(r.cpu_start) : last_time_);
  const std::uint64_t stop =
      std::max(start, wall ? nanoseconds(r.wall_stop) : cpu ? nanoseconds(r.cpu_stop) : start);
  last_time_ = stop;

  const bool annotation = r.function == kFunctionEnter &&
                          (static_cast<std::uint64_t>(r.scalar("fn")) & 0xFFFFFFFF00000000ull) == kPcontrolAnnotationKey;
  if ((r.function == kFunctionEnter || r.function == kFunctionExit) && !annotation) {
    user_function(r, start);
    return;
  }
  const RegionIndex region = regions_.mpi_function(annotation ? std::uint16_t{kPcontrol} : r.function);
  sink_.enter(start, region);
  const auto request = [&r] { return static_cast<std::int32_t>(r.scalar("request")); };
  switch (r.function) {
    case kSend: case kBsend: case kSsend: case kRsend:
      blocking_send(start, message(r, true, "count", "datatype", "dest", "tag"));
      break;
    case kRecv:
      blocking_receive(stop, message(r, false, "count", "datatype", "source", "tag"), status_at(r, "status", 0));
      break;
    case kSendrecv:
      blocking_send(start, message(r, true, "sendcount", "sendtype", "dest", "sendtag"));
      blocking_receive(stop, message(r, false, "recvcount", "recvtype", "source", "recvtag"), status_at(r, "status", 0));
      break;
    case kSendrecvReplace:
      blocking_send(start, message(r, true, "count", "datatype", "dest", "sendtag"));
      blocking_receive(stop, message(r, false, "count", "datatype", "source", "recvtag"), status_at(r, "status", 0));
      break;
    case kIsend: case kIbsend: case kIssend: case kIrsend:
      start_nonblocking(start, request(), message(r, true, "count", "datatype", "dest", "tag"));
      break;
    case kIrecv:
      start_nonblocking(start, request(), message(r, false, "count", "datatype", "source", "tag"));
      break;
    case kSendInit: case kBsendInit: case kSsendInit: case kRsendInit:
      requests_.define_persistent(request(), message(r, true, "count", "datatype", "dest", "tag"));
      break;
    case kRecvInit:
      requests_.define_persistent(request(), message(r, false, "count", "datatype", "source", "tag"));
      break;
    case kStart:
      if (auto p = requests_.persistent(request())) start_nonblocking(start, request(), *p);
      break;
    case kStartall:
      if (const Field* ids = r.field("requests"))
        for (std::int32_t id : ids->values)
          if (auto p = requests_.persistent(id)) start_nonblocking(start, id, *p);
      break;
    case kWait: case kTest: case kWaitany: case kTestany: case kWaitall: case kTestall: case kWaitsome:
    case kTestsome: case kRequestFree:
      completions(r, stop);
      break;
    case kBarrier: case kBcast: case kGather: case kScatter: case kAllgather: case kAllgatherv: case kAlltoall:
    case kAlltoallv: case kReduce: case kAllreduce: case kScan:
      collective(r, start, stop);
      break;
    default: break;
  }
  sink_.leave(stop, region);
  comms_.replay(r);
}

void RankEventMapper::finish() {
  while (!open_user_regions_.empty()) {
    sink_.leave(last_time_, open_user_regions_.back());
    open_user_regions_.pop_back();
  }
  summary_.never_completed += requests_.outstanding();
}

}  // namespace amp::trace::otf2
