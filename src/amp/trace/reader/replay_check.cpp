// SPDX-License-Identifier: BSD-3-Clause
// check_replay: the one RecordStream (all ranks merged; communicators, requests and bytes resolved
// there), every point-to-point message replayed through one MessageMatcher, findings collected as
// they appear.
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
#include <amp/trace/reader/replay_check.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <queue>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include <amp/trace/format/dumpi_format.hpp>
#include <amp/trace/format/function_names.hpp>
#include <amp/trace/reader/message_matching.hpp>
#include <amp/trace/reader/record_stream.hpp>
#include <amp/trace/reader/replay_support.hpp>
#include <amp/trace/reader/trace_file.hpp>

namespace amp::trace {

const char* finding_kind_name(FindingKind kind) {
  switch (kind) {
    case FindingKind::kSmallReceive:
      return "small_receive";
    case FindingKind::kChannelSizeChange:
      return "channel_size_change";
    case FindingKind::kUnmatchedSend:
      return "unmatched_send";
    case FindingKind::kUnmatchedReceive:
      return "unmatched_receive";
    case FindingKind::kUnknownRequest:
      return "unknown_request";
    case FindingKind::kUndefinedCommunicator:
      return "undefined_communicator";
    case FindingKind::kUndefinedDatatype:
      return "undefined_datatype";
    case FindingKind::kUnreplayableCall:
      return "unreplayable_call";
  }
  return "unknown";
}

namespace {

// What the check remembers of one rank besides what the stream resolves: the datatypes it created
// and what it has already reported (each undefined handle and unreplayable call once per rank).
struct RankState {
  std::unordered_set<std::int64_t> user_types;
  std::set<std::int64_t> reported_comms, reported_types;
  std::set<unsigned> reported_calls;
};

// A nonblocking receive posted to the matcher, until the call completing it returns.
struct PostedOperation {
  int comm = 0;
  std::uint64_t serial = 0;
  bool from_minus_one = false;  // posted from -1: MPI_ANY_SOURCE, or MPI_PROC_NULL as MPICH writes it
};

std::string comm_text(std::int64_t id) {
  if (id == dumpi_comm::kWorld) return "MPI_COMM_WORLD";
  if (id == dumpi_comm::kSelf) return "MPI_COMM_SELF";
  return fmt::format("communicator {}", id);
}

std::string bytes_text(std::int64_t bytes) { return bytes < 0 ? "?" : std::to_string(bytes); }

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
  ReplayChecker(const TraceSet& set, const ReplayCheckOptions& options) : options_(options), stream_(set) {
    report_.ranks = static_cast<int>(stream_.ranks().size());
  }

  ReplayCheckReport run() {
    stream_.run([this](const ResolvedCall& call) {
      complete_receives_until(call.record->wall_start);
      ++report_.records;
      handle(call);
      report_.peak_in_flight = std::max(report_.peak_in_flight, matcher_.in_flight());
    });
    complete_receives_until({std::numeric_limits<std::int64_t>::max(), 0});
    report_unmatched();
    std::stable_sort(report_.findings.begin(), report_.findings.end(),
                     [](const ReplayFinding& a, const ReplayFinding& b) {
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

  void handle(const ResolvedCall& call) {
    const Record& record = *call.record;
    const CallSite site{call.rank, call.record_number, record.offset, record.function};
    RankState& r = ranks_[call.rank];
    const TraceFile& file = *call.file;
    returns_at_ = record.wall_stop;
    if (auto reason = unreplayable_reason(record.function); reason && r.reported_calls.insert(record.function).second) {
      std::string message(*reason);
      if (file.footer().present)
        message += fmt::format("; {} call(s) of it in this rank's trace", file.footer().call_counts[record.function]);
      add(FindingKind::kUnreplayableCall, site, std::move(message));
    }
    for (std::int64_t id : call.undefined_comms)
      if (r.reported_comms.insert(id).second)
        add(FindingKind::kUndefinedCommunicator, site,
            fmt::format("uses communicator {}, which no recorded call on this rank created (MPI_Comm_dup, "
                        "MPI_Comm_split, MPI_Comm_create or MPI_Cart_create); a replay aborts with \"could not "
                        "find mpi communicator {}\"",
                        id, id));
    check_datatypes(r, file, record, site);
    report_unknown_requests(call, site);
    for (const MessageEnd& m : call.started) {
      if (m.is_send)
        send(call.rank, site, m);
      else
        receive(call.rank, site, m);
    }
    for (const MessageEnd& m : call.completed) complete(call.rank, m);
  }

  // Datatypes a call uses must have been defined (built in, or created by a recorded call on this
  // rank). The ids a call creates (newtype) are not uses.
  void check_datatypes(RankState& r, const TraceFile& file, const Record& record, const CallSite& site) {
    for (const Field& f : record.fields) {
      if (!f.present) continue;
      const std::string_view name = f.spec->name;
      const bool is_type = f.spec->kind == FieldKind::kDatatype || f.spec->kind == FieldKind::kDatatypeIfRoot;
      if (is_type && name != "newtype" && f.value >= dumpi_datatype::kFirstUser && r.user_types.count(f.value) == 0 &&
          r.reported_types.insert(f.value).second) {
        if (auto problem = undefined_datatype_problem(f.value, file.datatype_sizes()))
          add(FindingKind::kUndefinedDatatype, site, std::move(*problem));
      }
    }
    switch (record.function) {
      case kTypeContiguous:
      case kTypeVector:
      case kTypeHvector:
      case kTypeIndexed:
      case kTypeHindexed:
      case kTypeStruct:
      case kTypeCreateHindexed:
      case kTypeCreateHvector:
      case kTypeCreateIndexedBlock:
      case kTypeCreateResized:
      case kTypeCreateStruct:
        r.user_types.insert(record.scalar("newtype"));
        break;
      default:
        break;
    }
  }

  // Each Start of an unknown request is one finding; a completion call's unknown ids are one together.
  void report_unknown_requests(const ResolvedCall& call, const CallSite& site) {
    const auto finding = [&](const std::string& ids) {
      add(FindingKind::kUnknownRequest, site,
          fmt::format("completes request {} that no call in this rank's trace created", ids));
    };
    if (call.record->function == kStart || call.record->function == kStartall) {
      for (std::int32_t id : call.unknown_requests) finding(std::to_string(id));
      return;
    }
    std::string ids;
    for (std::int32_t id : call.unknown_requests) ids += (ids.empty() ? "" : ", ") + std::to_string(id);
    if (!ids.empty()) finding(ids);
  }

  void send(int rank, const CallSite& site, const MessageEnd& m) {
    if (m.peer == MessageEnd::kPeerNone) return;  // MPI_PROC_NULL
    if (m.comm < 0) return;                       // undefined (reported) or of unknown membership
    const int source = stream_.communicators().comm(m.comm).comm_rank(rank);
    if (source < 0 || m.peer < 0) return;
    SentMessage message{site,  m.comm,  static_cast<int>(m.comm_id), source, static_cast<int>(m.comm_peer), m.peer,
                        m.tag, m.bytes, next_message_serial_++};
    ++report_.messages;
    check_channel(message);
    open_messages_.insert(message.serial);
    if (auto receive = matcher_.send(message)) matched(message, *receive);
  }

  // Blocking receives (Recv, Sendrecv) arrive with their status applied: a wildcard's source and tag,
  // or MPI_PROC_NULL; nonblocking ones learn theirs when they complete.
  void receive(int rank, const CallSite& site, const MessageEnd& m) {
    if (m.peer == MessageEnd::kPeerNone) return;  // from MPI_PROC_NULL
    if (m.comm < 0 || stream_.communicators().comm(m.comm).comm_rank(rank) < 0) return;
    PostedReceive posted{site, m.comm, static_cast<int>(m.comm_id), static_cast<int>(m.comm_peer), m.tag, m.bytes};
    auto message = matcher_.post(rank, posted);
    if (!m.blocking) posted_[{rank, m.operation}] = {m.comm, posted.serial, m.comm_peer == kAnySource};
    if (message) matched(*message, posted);
    if (m.blocking) schedule_completion(posted.serial);  // done when the call returns
  }

  void complete(int rank, const MessageEnd& m) {
    if (m.is_send) return;
    auto it = posted_.find({rank, m.operation});
    if (it == posted_.end()) return;
    const PostedOperation posted = it->second;
    posted_.erase(it);
    // A receive from -1 that completes with source -1 was a receive from MPI_PROC_NULL: no message.
    const bool from_proc_null =
        posted.from_minus_one && m.peer == MessageEnd::kPeerNone && matcher_.withdraw(rank, posted.comm, posted.serial);
    if (!from_proc_null) schedule_completion(posted.serial);
  }

  void matched(const SentMessage& message, const PostedReceive& receive) {
    ++report_.matched;
    if (completed_unmatched_.erase(receive.serial) != 0)
      open_messages_.erase(message.serial);
    else
      message_of_receive_[receive.serial] = message.serial;
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
                              message.bytes, message.dest_world, message.tag, comm_text(message.comm_id), channel.bytes,
                              site_text(channel.last), in_flight ? ", still in flight" : ", already received")
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
                          p.source == kAnySource
                              ? std::string("any source")
                              : fmt::format("rank {}", stream_.communicators().comm(p.comm).world_rank(p.source)),
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
  ClockTime returns_at_;                           // wall stop time of the record being handled
  using Completion = std::tuple<std::int64_t, std::uint32_t, std::uint64_t>;  // time, receive serial
  std::priority_queue<Completion, std::vector<Completion>, std::greater<Completion>> completions_;
  std::uint64_t next_message_serial_ = 1;
  std::unordered_set<std::uint64_t> open_messages_;  // sent, and not yet received by a returned call
  std::unordered_map<std::uint64_t, std::uint64_t> message_of_receive_;  // matched, not completed
  std::unordered_set<std::uint64_t> completed_unmatched_;                // receives completed before any match
  RecordStream stream_;
  std::unordered_map<int, RankState> ranks_;                         // by world rank
  std::map<std::pair<int, std::uint64_t>, PostedOperation> posted_;  // (rank, stream operation)
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
