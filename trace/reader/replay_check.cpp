// check_replay: a k-way merge of all ranks' record streams, replaying every point-to-point call
// through one MessageMatcher and one CommRegistry, and collecting findings as they appear.
//
// Ordering assumption: records are processed in order of their wall-clock start time (ties: lower
// rank first). All ranks of a run share one clock when they run on one machine (libdumpi and
// libamp_dumpi use CLOCK_MONOTONIC; SST-macro's replay assumes the same). Matching does not depend
// on that order for receives naming their source and tag — per channel, the n-th send matches the
// n-th receive in each rank's program order, as in MPI — only wildcard receives without a recorded
// status and the memory held (messages in flight) do. Blocking receives and Sendrecv use their
// recorded status to turn MPI_ANY_SOURCE / MPI_ANY_TAG into the source and tag that matched. A
// receive is complete when the call completing it (Wait*, Test* with flag, Recv, Sendrecv) returns:
// its wall stop time, applied between records in time order; channel_size_change depends on that.
// A receive from -1 whose status says source -1 was from MPI_PROC_NULL (MPICH writes PROC_NULL as
// -1, the value DUMPI uses for ANY_SOURCE), so it is not a receive: dropped, or withdrawn when its
// request completes.
#include "replay_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "../format/dumpi_format.hpp"
#include "../format/function_names.hpp"
#include "comm_registry.hpp"
#include "message_matching.hpp"
#include "replay_support.hpp"
#include "trace_file.hpp"

namespace amp::trace {

const char* finding_kind_name(FindingKind kind) {
  switch (kind) {
    case FindingKind::kSmallReceive: return "small_receive";
    case FindingKind::kChannelSizeChange: return "channel_size_change";
    case FindingKind::kUnmatchedSend: return "unmatched_send";
    case FindingKind::kUnmatchedReceive: return "unmatched_receive";
    case FindingKind::kUnknownRequest: return "unknown_request";
    case FindingKind::kUndefinedCommunicator: return "undefined_communicator";
    case FindingKind::kUndefinedDatatype: return "undefined_datatype";
    case FindingKind::kUnreplayableCall: return "unreplayable_call";
  }
  return "unknown";
}

namespace {

// A request a rank created: what Start does with a persistent one, what a completion withdraws.
struct RequestInfo {
  bool persistent = false;
  bool is_send = false;
  std::int64_t count = 0, datatype = 0, peer = 0, tag = 0, comm = 0;
  int posted_comm = -1;            // active receive: its registry communicator and serial
  std::uint64_t posted_serial = 0;
  bool from_minus_one = false;     // receive from -1: MPI_ANY_SOURCE or MPI_PROC_NULL
};

struct RankState {
  int rank = 0;
  TraceFile file;
  std::optional<TraceFile::Cursor> cursor;
  std::optional<Record> next;
  std::uint64_t record_number = 0;  // of `next`
  std::unordered_map<std::int32_t, RequestInfo> requests;
  std::unordered_set<std::int64_t> user_types;
  std::set<std::int64_t> reported_comms, reported_types;
  std::set<unsigned> reported_calls;

  RankState(int r, TraceFile f) : rank(r), file(std::move(f)) {}
  void advance() {
    next = cursor->next();
    if (next) ++record_number;
  }
};

std::string comm_text(std::int64_t id) {
  if (id == dumpi_comm::kWorld) return "MPI_COMM_WORLD";
  if (id == dumpi_comm::kSelf) return "MPI_COMM_SELF";
  return fmt::format("communicator {}", id);
}

std::string bytes_text(std::int64_t bytes) { return bytes < 0 ? "?" : std::to_string(bytes); }

// MPI_COMM_WORLD holds ranks 0..n-1 for the highest rank n-1 whose file the set holds.
int world_size(const TraceSet& set) {
  int highest = -1;
  for (int rank : set.ranks) highest = std::max(highest, rank);
  return highest + 1;
}

// Why an uncreated datatype id breaks a replay, or nothing when replayers substitute it.
std::optional<std::string> undefined_datatype_problem(std::int64_t id, const std::vector<std::int32_t>& sizes) {
  std::string text = fmt::format("uses datatype {}, which no recorded MPI_Type_* call on this rank created", id);
  if (id < 0 || static_cast<std::size_t>(id) >= sizes.size())
    return text + " and the sizes block does not list; SST-macro assumes MPI_DOUBLE, other replayers fail";
  const std::int32_t size = sizes[static_cast<std::size_t>(id)];
  if (replayers_substitute_datatype_of_size(size)) return std::nullopt;
  return text + fmt::format("; SST-macro has no {}-byte built-in to replay it as and aborts (unknown type id)", size);
}

std::string site_text(const CallSite& site) {
  return fmt::format("rank {} record {} {}", site.rank, site.record, function_name(site.function));
}

class ReplayChecker {
 public:
  ReplayChecker(const TraceSet& set, const ReplayCheckOptions& options)
      : options_(options), registry_(world_size(set)) {
    report_.ranks = static_cast<int>(set.bin_paths.size());
    for (std::size_t i = 0; i < set.bin_paths.size(); ++i) {
      auto state = std::make_unique<RankState>(set.ranks[i], TraceFile::open_streaming(set.bin_paths[i]));
      state->cursor.emplace(state->file.records());
      ranks_.push_back(std::move(state));
    }
  }

  ReplayCheckReport run() {
    using Entry = std::tuple<std::int64_t, std::uint32_t, int, std::size_t>;  // wall start, rank, index
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> order;
    for (std::size_t i = 0; i < ranks_.size(); ++i) {
      RankState& r = *ranks_[i];
      r.advance();
      if (r.next) order.emplace(r.next->wall_start.sec, r.next->wall_start.nsec, r.rank, i);
    }
    while (!order.empty()) {
      const std::size_t index = std::get<3>(order.top());
      RankState& r = *ranks_[index];
      complete_receives_until(r.next->wall_start);
      order.pop();
      ++report_.records;
      handle(r, *r.next);
      report_.peak_in_flight = std::max(report_.peak_in_flight, matcher_.in_flight());
      r.advance();
      if (r.next) order.emplace(r.next->wall_start.sec, r.next->wall_start.nsec, r.rank, index);
    }
    complete_receives_until({std::numeric_limits<std::int64_t>::max(), 0});
    report_unmatched();
    std::stable_sort(report_.findings.begin(), report_.findings.end(), [](const ReplayFinding& a, const ReplayFinding& b) {
      return std::tie(a.kind, a.rank, a.record) < std::tie(b.kind, b.rank, b.record);
    });
    return std::move(report_);
  }

 private:
  // Every finding is counted; `keep` false counts it without keeping its text (a channel's later
  // size changes: the summary's "... and N more" says how many).
  void add(FindingKind kind, const CallSite& site, std::string message, bool keep = true) {
    const auto k = static_cast<std::size_t>(kind);
    ++report_.counts[k];
    if (keep && kept_[k]++ < options_.keep_per_kind)
      report_.findings.push_back(
          {kind, site.rank, site.record, site.offset, std::string(function_name(site.function)), std::move(message)});
  }

  static CallSite site_of(const RankState& r, const Record& record) {
    return {r.rank, r.record_number, record.offset, record.function};
  }

  std::int64_t message_bytes(const RankState& r, std::int64_t count, std::int64_t datatype) const {
    const std::int64_t size = r.file.datatype_size(datatype).value_or(-1);
    return count < 0 || size < 0 ? -1 : count * size;
  }

  void handle(RankState& r, const Record& record) {
    const CallSite site = site_of(r, record);
    returns_at_ = record.wall_stop;
    if (auto reason = unreplayable_reason(record.function); reason && r.reported_calls.insert(record.function).second) {
      std::string message(*reason);
      if (r.file.footer().present)
        message += fmt::format("; {} call(s) of it in this rank's trace", r.file.footer().call_counts[record.function]);
      add(FindingKind::kUnreplayableCall, site, std::move(message));
    }
    check_handles(r, record, site);
    const auto s = [&record](const char* name) { return record.scalar(name); };
    switch (record.function) {
      case kSend: case kBsend: case kSsend: case kRsend:
        send(r, site, s("count"), s("datatype"), s("dest"), s("tag"), s("comm"));
        break;
      case kIsend: case kIbsend: case kIssend: case kIrsend:
        r.requests[static_cast<std::int32_t>(s("request"))] = RequestInfo{false, true};
        send(r, site, s("count"), s("datatype"), s("dest"), s("tag"), s("comm"));
        break;
      case kRecv:
        receive(r, site, s("count"), s("datatype"), s("source"), s("tag"), s("comm"), status_of(record, 0), nullptr);
        break;
      case kIrecv: {
        RequestInfo& info = r.requests[static_cast<std::int32_t>(s("request"))] = RequestInfo{false, false};
        receive(r, site, s("count"), s("datatype"), s("source"), s("tag"), s("comm"), nullptr, &info);
        break;
      }
      case kSendInit: case kBsendInit: case kSsendInit: case kRsendInit: case kRecvInit:
        r.requests[static_cast<std::int32_t>(s("request"))] =
            RequestInfo{true, record.function != kRecvInit, s("count"), s("datatype"),
                        record.function == kRecvInit ? s("source") : s("dest"), s("tag"), s("comm")};
        break;
      case kStart: start(r, site, static_cast<std::int32_t>(s("request"))); break;
      case kStartall:
        for (std::int32_t id : record.field("requests")->values) start(r, site, id);
        break;
      case kSendrecv:
        receive(r, site, s("recvcount"), s("recvtype"), s("source"), s("recvtag"), s("comm"), status_of(record, 0), nullptr);
        send(r, site, s("sendcount"), s("sendtype"), s("dest"), s("sendtag"), s("comm"));
        break;
      case kSendrecvReplace:
        receive(r, site, s("count"), s("datatype"), s("source"), s("recvtag"), s("comm"), status_of(record, 0), nullptr);
        send(r, site, s("count"), s("datatype"), s("dest"), s("sendtag"), s("comm"));
        break;
      case kWait: case kTest: case kRequestFree: {
        const std::int32_t id = static_cast<std::int32_t>(s("request"));
        if (!known_requests(r, site, {id})) break;
        if (record.function == kWait || (record.function == kTest && s("flag") != 0)) complete(r, id, status_of(record, 0));
        break;
      }
      case kWaitany: case kTestany: {
        const auto& ids = record.field("requests")->values;
        if (!known_requests(r, site, ids)) break;
        const std::int64_t index = s("index");
        const bool done = record.function == kWaitany || s("flag") != 0;
        if (done && index >= 0 && static_cast<std::size_t>(index) < ids.size())
          complete(r, ids[static_cast<std::size_t>(index)], status_of(record, 0));
        break;
      }
      case kWaitall: case kTestall: {
        const auto& ids = record.field("requests")->values;
        if (!known_requests(r, site, ids)) break;
        if (record.function == kWaitall || s("flag") != 0)
          for (std::size_t i = 0; i < ids.size(); ++i) complete(r, ids[i], status_of(record, i));
        break;
      }
      case kWaitsome: case kTestsome: {
        const auto& ids = record.field("requests")->values;
        if (!known_requests(r, site, ids)) break;
        const auto& indices = record.field("indices")->values;
        for (std::size_t i = 0; i < indices.size(); ++i)
          if (indices[i] >= 0 && static_cast<std::size_t>(indices[i]) < ids.size())
            complete(r, ids[static_cast<std::size_t>(indices[i])], status_of(record, i));
        break;
      }
      case kTypeContiguous: case kTypeVector: case kTypeHvector: case kTypeIndexed: case kTypeHindexed:
      case kTypeStruct: case kTypeCreateHindexed: case kTypeCreateHvector: case kTypeCreateIndexedBlock:
      case kTypeCreateResized: case kTypeCreateStruct:
        r.user_types.insert(s("newtype"));
        break;
      case kCommDup: registry_.created(r.rank, static_cast<int>(s("oldcomm")), 0, 0, static_cast<int>(s("newcomm"))); break;
      case kCommSplit:
        registry_.created(r.rank, static_cast<int>(s("oldcomm")), static_cast<int>(s("color")),
                          static_cast<int>(s("key")), static_cast<int>(s("newcomm")));
        break;
      case kCommCreate: case kCartCreate:  // members in parent-rank order (no reordering, as MPICH)
        registry_.created(r.rank, static_cast<int>(s("oldcomm")), 0, 0, static_cast<int>(s("newcomm")));
        break;
      default: break;
    }
  }

  static const StatusEntry* status_of(const Record& record, std::size_t i) {
    for (const Field& f : record.fields)
      if ((f.spec->kind == FieldKind::kStatus || f.spec->kind == FieldKind::kStatusArray) && f.present &&
          i < f.statuses.size())
        return &f.statuses[i];
    return nullptr;
  }

  // Communicators and datatypes a call uses must have been defined (built in, or created by a
  // recorded call on this rank). The ids a call creates (newcomm, newtype) are not uses.
  void check_handles(RankState& r, const Record& record, const CallSite& site) {
    for (const Field& f : record.fields) {
      if (!f.present) continue;
      const std::string_view name = f.spec->name;
      if (f.spec->kind == FieldKind::kComm && name != "newcomm" && f.value >= dumpi_comm::kFirstUser &&
          registry_.resolve(r.rank, static_cast<int>(f.value)) == CommRegistry::kUndefined &&
          r.reported_comms.insert(f.value).second) {
        add(FindingKind::kUndefinedCommunicator, site,
            fmt::format("uses communicator {}, which no recorded call on this rank created (MPI_Comm_dup, "
                        "MPI_Comm_split, MPI_Comm_create or MPI_Cart_create); a replay aborts with \"could not "
                        "find mpi communicator {}\"",
                        f.value, f.value));
      }
      const bool is_type = f.spec->kind == FieldKind::kDatatype || f.spec->kind == FieldKind::kDatatypeIfRoot;
      if (is_type && name != "newtype" && f.value >= dumpi_datatype::kFirstUser && r.user_types.count(f.value) == 0 &&
          r.reported_types.insert(f.value).second) {
        if (auto problem = undefined_datatype_problem(f.value, r.file.datatype_sizes()))
          add(FindingKind::kUndefinedDatatype, site, std::move(*problem));
      }
    }
  }

  bool known_requests(RankState& r, const CallSite& site, const std::vector<std::int32_t>& ids) {
    std::string unknown;
    for (std::int32_t id : ids)
      if (id != dumpi_request::kNull && r.requests.count(id) == 0) unknown += (unknown.empty() ? "" : ", ") + std::to_string(id);
    if (unknown.empty()) return true;
    add(FindingKind::kUnknownRequest, site,
        fmt::format("completes request {} that no call in this rank's trace created", unknown));
    return false;
  }

  void start(RankState& r, const CallSite& site, std::int32_t id) {
    auto it = r.requests.find(id);
    if (it == r.requests.end()) {
      known_requests(r, site, {id});
      return;
    }
    RequestInfo& info = it->second;
    if (!info.persistent) return;
    if (info.is_send) send(r, site, info.count, info.datatype, info.peer, info.tag, info.comm);
    else receive(r, site, info.count, info.datatype, info.peer, info.tag, info.comm, nullptr, &info);
  }

  void complete(RankState& r, std::int32_t id, const StatusEntry* status) {
    auto it = r.requests.find(id);
    if (it == r.requests.end()) return;
    RequestInfo& info = it->second;
    if (info.is_send || info.posted_serial == 0) return;
    // A receive from -1 that completes with source -1 was a receive from MPI_PROC_NULL: no message.
    const bool from_proc_null = info.from_minus_one && status != nullptr && status->source == -1 &&
                                matcher_.withdraw(r.rank, info.posted_comm, info.posted_serial);
    if (!from_proc_null) schedule_completion(info.posted_serial);
    info.posted_serial = 0;
  }

  void send(RankState& r, const CallSite& site, std::int64_t count, std::int64_t datatype, std::int64_t dest,
            std::int64_t tag, std::int64_t comm_id) {
    if (dest < 0) return;  // MPI_PROC_NULL
    const int comm = registry_.resolve(r.rank, static_cast<int>(comm_id));
    if (comm < 0) return;  // undefined (reported) or of unknown membership
    const CommGroup& group = registry_.comm(comm);
    const int source = group.comm_rank(r.rank);
    const int dest_world = group.world_rank(static_cast<int>(dest));
    if (source < 0 || dest_world < 0) return;
    SentMessage message{site, comm, static_cast<int>(comm_id), source, static_cast<int>(dest), dest_world,
                        static_cast<int>(tag), message_bytes(r, count, datatype), next_message_serial_++};
    ++report_.messages;
    check_channel(message);
    open_messages_.insert(message.serial);
    if (auto receive = matcher_.send(message)) matched(message, *receive);
  }

  void receive(RankState& r, const CallSite& site, std::int64_t count, std::int64_t datatype, std::int64_t source,
               std::int64_t tag, std::int64_t comm_id, const StatusEntry* status, RequestInfo* request) {
    if (status != nullptr && source == kAnySource && status->source == -1) return;  // from MPI_PROC_NULL
    if (status != nullptr && source == kAnySource && status->source >= 0) source = status->source;
    if (status != nullptr && tag == kAnyTag && status->tag >= 0) tag = status->tag;
    const int comm = registry_.resolve(r.rank, static_cast<int>(comm_id));
    if (comm < 0 || registry_.comm(comm).comm_rank(r.rank) < 0) return;
    PostedReceive posted{site, comm, static_cast<int>(comm_id), static_cast<int>(source), static_cast<int>(tag),
                         message_bytes(r, count, datatype)};
    auto message = matcher_.post(r.rank, posted);
    if (request != nullptr) {
      request->posted_comm = comm;
      request->posted_serial = posted.serial;
      request->from_minus_one = source == kAnySource;
    }
    if (message) matched(*message, posted);
    if (request == nullptr) schedule_completion(posted.serial);  // Recv, Sendrecv: done when the call returns
  }

  void matched(const SentMessage& message, const PostedReceive& receive) {
    ++report_.matched;
    if (completed_unmatched_.erase(receive.serial) != 0) open_messages_.erase(message.serial);
    else message_of_receive_[receive.serial] = message.serial;
    if (message.bytes >= 0 && receive.capacity >= 0 && receive.capacity < message.bytes)
      add(FindingKind::kSmallReceive, receive.site,
          fmt::format("receive of {} bytes is smaller than the {}-byte message from rank {} ({}, tag {}, {})",
                      receive.capacity, message.bytes, message.site.rank, site_text(message.site), message.tag,
                      comm_text(message.comm_id)));
  }

  // Consecutive messages of one channel (communicator, source, destination, tag) must have one size:
  // replayers that do not keep MPI's order within a channel may hand the second to the first's
  // receive ("MPI matching error: incoming message has N bytes, but matches buffer of too small
  // size"). That certainly happens when the second is sent before the receive of the first has
  // returned (its Wait/Test or blocking call ended); with options.every_size_change (the default)
  // a change after that point (e.g. after an AMR regrid that kept its tags) is reported too. Every
  // change is counted; each channel's first is shown, and so is its first while in flight, so the
  // default mode never hides what options.every_size_change = false shows.
  void check_channel(const SentMessage& message) {
    const auto key = std::make_tuple(message.comm, message.source, message.dest, message.tag);
    auto [it, fresh] = channels_.try_emplace(key, Channel{message.bytes, message.site, message.serial, false, false});
    if (fresh) return;
    auto& channel = it->second;
    const bool in_flight = open_messages_.count(channel.last_serial) != 0;
    if (channel.bytes >= 0 && message.bytes >= 0 && channel.bytes != message.bytes &&
        (in_flight || options_.every_size_change)) {
      const bool shown = !channel.shown_any || (in_flight && !channel.shown_in_flight);
      channel.shown_any = true;
      channel.shown_in_flight = channel.shown_in_flight || in_flight;
      add(FindingKind::kChannelSizeChange, message.site,
          shown ? fmt::format("message of {} bytes to rank {} (tag {}, {}) follows a {}-byte message on the same "
                              "channel ({}{}); a replayer that does not keep order within a channel can match it to "
                              "the wrong receive",
                              message.bytes, message.dest_world, message.tag, comm_text(message.comm_id),
                              channel.bytes, site_text(channel.last),
                              in_flight ? ", still in flight" : ", already received")
                : std::string(),
          shown);
    }
    channel.bytes = message.bytes;
    channel.last = message.site;
    channel.last_serial = message.serial;
  }

  void report_unmatched() {
    matcher_.for_each_unmatched(
        [this](const SentMessage& m) {
          add(FindingKind::kUnmatchedSend, m.site,
              fmt::format("message of {} bytes to rank {} (tag {}, {}) is never received", bytes_text(m.bytes),
                          m.dest_world, m.tag, comm_text(m.comm_id)));
        },
        [this](const PostedReceive& p) {
          add(FindingKind::kUnmatchedReceive, p.site,
              fmt::format("receive of {} bytes from {} (tag {}, {}) never matches a message", bytes_text(p.capacity),
                          p.source == kAnySource ? std::string("any source")
                                                 : fmt::format("rank {}", registry_.comm(p.comm).world_rank(p.source)),
                          p.tag == kAnyTag ? std::string("any") : std::to_string(p.tag), comm_text(p.comm_id)));
        });
  }

  // A receive is complete when the call that completes it returns (wall stop time); completions are
  // applied in time order between records.
  void schedule_completion(std::uint64_t receive_serial) {
    completions_.emplace(returns_at_.sec, returns_at_.nsec, receive_serial);
  }
  void complete_receives_until(const ClockTime& t) {
    while (!completions_.empty() && std::make_tuple(std::get<0>(completions_.top()), std::get<1>(completions_.top())) <=
                                        std::make_tuple(t.sec, t.nsec)) {
      const std::uint64_t serial = std::get<2>(completions_.top());
      completions_.pop();
      auto it = message_of_receive_.find(serial);
      if (it == message_of_receive_.end()) {
        completed_unmatched_.insert(serial);
      } else {
        open_messages_.erase(it->second);
        message_of_receive_.erase(it);
      }
    }
  }

  ReplayCheckOptions options_;
  ReplayCheckReport report_;
  std::array<std::size_t, kFindingKinds> kept_{};  // findings kept per kind (at most keep_per_kind)
  ClockTime returns_at_;  // wall stop time of the record being handled
  using Completion = std::tuple<std::int64_t, std::uint32_t, std::uint64_t>;  // time, receive serial
  std::priority_queue<Completion, std::vector<Completion>, std::greater<Completion>> completions_;
  std::uint64_t next_message_serial_ = 1;
  std::unordered_set<std::uint64_t> open_messages_;       // sent, and not yet received by a returned call
  std::unordered_map<std::uint64_t, std::uint64_t> message_of_receive_;  // matched, not completed
  std::unordered_set<std::uint64_t> completed_unmatched_;  // receives completed before any match
  std::vector<std::unique_ptr<RankState>> ranks_;
  CommRegistry registry_;
  MessageMatcher matcher_;
  struct Channel {
    std::int64_t bytes;
    CallSite last;
    std::uint64_t last_serial;
    bool shown_any;        // a size change of this channel is among the kept findings
    bool shown_in_flight;  // ... and one made while the earlier message was still in flight
  };
  std::map<std::tuple<int, int, int, int>, Channel> channels_;  // (communicator, source, dest, tag)
};

}  // namespace

ReplayCheckReport check_replay(const TraceSet& set, const ReplayCheckOptions& options) {
  return ReplayChecker(set, options).run();
}

}  // namespace amp::trace
