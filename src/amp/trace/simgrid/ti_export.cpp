// SPDX-License-Identifier: BSD-3-Clause
// export_time_independent: each resolved call of the RecordStream becomes SimGrid TI actions on its
// rank's file. The recorded time between two calls becomes `compute` (seconds x host speed). TI
// replay keys requests by (source, destination, tag), so every channel (sender, receiver,
// communicator, tag) is renumbered: its k-th message gets tag index x 1024 + k mod 1024 on both
// sides (MPI's non-overtaking order makes the k-th send match the k-th receive). Creating a communicator
// from MPI_COMM_WORLD (or a copy) sends what real MPI and SST-macro send to agree on it: Comm_dup and
// Comm_create an allreduce of one int (the new id), Comm_split an allgather of 3 ints (id, color, key).
// What a proxy did not trace (MPI_Pcontrol(0) to (1)) is left out; a region's measured time covers what its
// compute covers: to its last action, and nothing for a region with none (a proxy resumes only to record
// MPI_Finalize, where it waits for a peer's tear-down). Files are written aside (<out>.partial-<pid>) with
// bounded per-rank buffers, then renamed into place.
#include <amp/trace/simgrid/ti_export.hpp>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include <amp/trace/format/dumpi_format.hpp>
#include <amp/trace/format/function_names.hpp>
#include <amp/trace/reader/file_output.hpp>
#include <amp/trace/reader/record_stream.hpp>
#include <amp/trace/reader/staged_directory.hpp>
#include <amp/trace/reader/trace_set.hpp>
#include <amp/trace/simgrid/replay_settings.hpp>
#include <amp/trace/format/json_schema_version.hpp>

namespace amp::trace::simgrid {

namespace fs = std::filesystem;

namespace {

constexpr int kTagSlots = 1024;                 // outstanding messages one channel may have at once
constexpr std::size_t kFlushBytes = 16 * 1024;  // per-rank buffer before it is appended to its file

// One rank's action file: lines gathered in a bounded buffer, appended to the file when it fills
// (the file is opened only then: thousands of ranks never hold thousands of descriptors).
class RankFile {
 public:
  RankFile(fs::path path, std::string shown_as) : path_(std::move(path)), shown_as_(std::move(shown_as)) {}
  template <class... Args>
  void add(fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(buffer_), format, std::forward<Args>(args)...);
    buffer_ += '\n';
    if (buffer_.size() >= kFlushBytes) flush();
  }
  void flush() {
    append_to_file(path_.string(), buffer_, shown_as_);
    buffer_.clear();
  }

 private:
  fs::path path_;
  std::string shown_as_;  // the name in messages: the output's, not the hidden staging folder's
  std::string buffer_;
};

class Exporter {
 public:
  Exporter(const TraceSet& set, const StagedDirectory& staged, const TiExportOptions& options)
      : set_(set), directory_(staged.partial()), shown_as_(staged.output()), options_(options), stream_(set) {
    result_.world_size = stream_.world_size();
    result_.ranks = stream_.ranks();
    result_.per_rank.resize(stream_.ranks().size());
    for (std::size_t i = 0; i < stream_.ranks().size(); ++i) {
      const int rank = stream_.ranks()[i];
      index_of_[rank] = i;
      const std::string name = fmt::format("rank-{}.txt", rank);
      files_.emplace_back(directory_ / name, (shown_as_ / name).string());
    }
    state_.resize(stream_.ranks().size());
    auto synthesized = set.meta.find("amp_synthesized_ranks");
    result_.synthesized = synthesized != set.meta.end() && synthesized->second != "0";
  }

  TiExportResult run() {
    if (static_cast<int>(stream_.ranks().size()) != stream_.world_size())
      throw std::runtime_error(fmt::format("{}: holds the files of {} of its {} ranks; a replay needs every rank",
                                           set_.description, stream_.ranks().size(), stream_.world_size()));
    refuse_unrecorded_calls();
    for (std::size_t i = 0; i < files_.size(); ++i) emit(i, "{} init", stream_.ranks()[i]);
    stream_.run([this](const ResolvedCall& call) { handle(call); });
    for (std::size_t i = 0; i < files_.size(); ++i) {
      emit(i, "{} finalize", stream_.ranks()[i]);
      files_[i].flush();
      RankState& s = state_[i];
      if (s.seen && !s.paused) s.regions.emplace_back(s.region_start, s.acted ? s.last : s.region_start);
      for (const auto& [begin, end] : s.regions) result_.per_rank[i].recorded_seconds += end - begin;
    }
    std::string list;
    for (int rank : stream_.ranks()) list += fmt::format("rank-{}.txt\n", rank);
    write_file("ranks.txt", list);
    result_.recorded_seconds = recorded_seconds();
    result_.retagged_channels = channels_.size();
    write_summary();
    return std::move(result_);
  }

 private:
  struct RankState {
    bool seen = false;
    bool paused = false;      // between MPI_Pcontrol(0) and MPI_Pcontrol(1): not traced, not replayed
    double region_start = 0;  // where the current traced region began (MPI_Init's return, a resume)
    std::vector<std::pair<double, double>> regions;  // traced regions already ended: (begin, end)
    double last = 0;                                 // end of the last record
    double busy_until = 0;  // end of the last call that became an action (compute starts there)
    bool acted = false;     // a call became an action since the current region began
  };
  struct Channel {
    int index = 0;  // within its (sender, receiver) pair
    std::uint64_t sent = 0, received = 0;
  };

  // The run's traced time as a replay sees it: region by region, from the last rank to enter it (the
  // replay starts every rank there; a rank that entered earlier only waited for the others) to the last
  // rank to leave it. Ranks with different numbers of regions: the longest rank's own total.
  double recorded_seconds() const {
    std::size_t regions = 0;
    bool same = true;
    for (const RankState& s : state_) {
      if (!s.seen) continue;
      same = same && (regions == 0 || s.regions.size() == regions);
      regions = std::max(regions, s.regions.size());
    }
    double total = 0;
    if (!same)
      for (const TiRankSummary& r : result_.per_rank) total = std::max(total, r.recorded_seconds);
    for (std::size_t k = 0; same && k < regions; ++k) {
      double begin = 0, end = 0;
      for (const RankState& s : state_)
        if (s.seen) {
          begin = std::max(begin, s.regions[k].first);
          end = std::max(end, s.regions[k].second);
        }
      total += std::max(0.0, end - begin);
    }
    return total;
  }

  // export.json: what `./amp simulate` needs besides the action files (speed, recorded time, counts).
  void write_summary() {
    nlohmann::json j;
    j["schema_version"] = kJsonSchemaVersion;
    j["source"] = set_.description;
    j["host_speed_flops"] = options_.host_speed_flops;
    j["smpirun_cfg"] = std::vector<std::string>(kReplaySettings.begin(), kReplaySettings.end());
    j["world_size"] = result_.world_size;
    j["ranks"] = result_.ranks;
    j["actions"] = result_.actions;
    j["messages"] = result_.messages;
    j["bytes"] = result_.bytes;
    j["collectives"] = result_.collectives;
    j["retagged_channels"] = channels_.size();
    j["recorded_seconds"] = result_.recorded_seconds;
    j["synthesized"] = result_.synthesized;
    for (const TiRankSummary& r : result_.per_rank)
      j["per_rank"].push_back({{"messages_sent", r.messages_sent},
                               {"bytes_sent", r.bytes_sent},
                               {"receives", r.receives},
                               {"actions", r.actions},
                               {"compute_seconds", r.compute_seconds},
                               {"recorded_seconds", r.recorded_seconds}});
    write_file("export.json", j.dump(1) + "\n");
  }

  void write_file(const std::string& name, const std::string& text) const {
    append_to_file((directory_ / name).string(), text, (shown_as_ / name).string());
  }

  // The .meta counts calls DUMPI has no record for (partitioned, neighbourhood, ...): none has a TI form.
  void refuse_unrecorded_calls() {
    const std::string calls = unrecorded_calls(set_);
    if (!calls.empty())
      throw std::runtime_error(
          fmt::format("{}: the trace's .meta counts calls DUMPI could not record ({}; ranks not "
                      "recorded): they have no SimGrid time-independent form",
                      set_.description, calls));
  }

  [[noreturn]] void refuse(const ResolvedCall& call, const std::string& why) const {
    throw std::runtime_error(fmt::format("rank {} record {} {}: {}", call.rank, call.record_number,
                                         function_name(call.record->function), why));
  }

  template <class... Args>
  void emit(std::size_t index, fmt::format_string<Args...> format, Args&&... args) {
    files_[index].add(format, std::forward<Args>(args)...);
    ++result_.per_rank[index].actions;
    ++result_.actions;
  }

  // The compute since the rank's last action, before the action of this call: every whole
  // nanosecond of it (the trace's clock), in flops at the host speed, written exactly (the shortest
  // decimal that reads back as the same double: `0 compute 1.1e-05` for 11 us at 1 flop/s).
  void compute_before(std::size_t index, const ResolvedCall& call) {
    RankState& s = state_[index];
    const double start = call.record->wall_start.seconds();
    const double nanoseconds = std::round((start - s.busy_until) * 1e9);
    s.acted = true;
    if (!s.paused && s.busy_until > 0 && nanoseconds >= 1) {
      emit(index, "{} compute {}", call.rank, nanoseconds * flops_per_nanosecond_);
      result_.per_rank[index].compute_seconds += nanoseconds / 1e9;
    }
    s.busy_until = call.record->wall_stop.seconds();
  }

  static void begin_region(RankState& s, double at) {
    s.region_start = s.busy_until = at;
    s.acted = false;
  }

  static std::uint64_t pair_key(int a, int b) {
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32 | static_cast<std::uint32_t>(b);
  }

  int retag(int sender, int receiver, const MessageEnd& m, bool sending) {
    auto [it, fresh] = channels_.try_emplace(ChannelKey{pair_key(sender, receiver), pair_key(m.comm, m.tag)});
    if (fresh) it->second.index = pair_channels_[pair_key(sender, receiver)]++;
    Channel& channel = it->second;
    const std::uint64_t k = sending ? channel.sent++ : channel.received++;
    const std::int64_t tag =
        static_cast<std::int64_t>(channel.index) * kTagSlots + static_cast<std::int64_t>(k % kTagSlots);
    if (tag > 2147483647) throw std::runtime_error("too many distinct channels between one pair of ranks to renumber");
    return static_cast<int>(tag);
  }

  // TI keys of an action: (source, destination, new tag).
  struct Keyed {
    int source, dest, tag;
    std::int64_t bytes;
  };

  std::optional<Keyed> key_of(const ResolvedCall& call, const MessageEnd& m) {
    if (m.peer == MessageEnd::kPeerNone) return std::nullopt;  // MPI_PROC_NULL
    if (m.comm < 0 || m.peer == MessageEnd::kPeerUnknown)
      refuse(call,
             fmt::format("communicator {} was created by no recorded call (or its members are unknown)", m.comm_id));
    if (m.peer == MessageEnd::kPeerAny)
      refuse(call,
             "a receive from MPI_ANY_SOURCE (or MPICH's MPI_PROC_NULL) names no source when it is posted; "
             "the TI form needs it");
    if (!m.is_send && m.tag < 0) refuse(call, "a receive with MPI_ANY_TAG names no tag when it is posted");
    if (m.bytes < 0) refuse(call, "the message's datatype size is not in the trace's sizes block");
    const int source = m.is_send ? call.rank : m.peer;
    const int dest = m.is_send ? m.peer : call.rank;
    return Keyed{source, dest, retag(source, dest, m, m.is_send), m.bytes};
  }

  bool world_like(int comm) {
    if (comm == 0) return true;
    auto [it, fresh] = world_like_.try_emplace(comm, false);
    if (fresh) {
      const CommGroup& group = stream_.communicators().comm(comm);
      bool same = group.size() == stream_.world_size();
      for (int r = 0; same && r < group.size(); ++r) same = group.world_rank(r) == r;
      it->second = same;
    }
    return it->second;
  }

  void handle(const ResolvedCall& call) {
    const std::size_t index = index_of_.at(call.rank);
    RankState& s = state_[index];
    const Record& record = *call.record;
    if (!s.seen) s.region_start = record.wall_start.seconds();
    s.seen = true;
    s.last = std::max(s.last, record.wall_stop.seconds());
    const std::uint16_t f = record.function;
    const std::string_view name = function_name(f);
    if (f == kInit || f == kInitThread) {  // the replay starts every rank where its MPI_Init returned
      begin_region(s, record.wall_stop.seconds());
      return;
    }
    if (const std::optional<std::uint32_t> level = pcontrol_level(record)) {
      const bool resume = *level != 0;
      if (!resume && !s.paused) {  // the region ends with its last action: no compute follows it
        s.paused = true;
        s.regions.emplace_back(s.region_start, s.acted ? s.busy_until : s.region_start);
      } else if (resume && s.paused) {
        s.paused = false;
        begin_region(s, record.wall_stop.seconds());
      }
      return;
    }
    if (f == kFinalize) {  // the replay ends where MPI_Finalize starts (its own teardown is not the run)
      if (s.acted) compute_before(index, call);  // else nothing since the region began: no compute, no time
      s.last = record.wall_start.seconds();
      return;
    }
    if (!call.unknown_requests.empty() && f != kRequestFree)  // freeing an unknown request moves no data
      refuse(call, fmt::format("completes request {} that no recorded call on this rank created",
                               call.unknown_requests.front()));
    if (call.collective) return collective(index, call);
    if (f == kCommDup || f == kCommSplit || f == kCommCreate) return communicator_creation(index, call);
    if (!call.started.empty() || !call.completed.empty()) return point_to_point(index, call);
    switch (f) {
      case kWait:
      case kTest:
      case kWaitany:
      case kTestany:
      case kWaitall:
      case kTestall:
      case kWaitsome:
      case kTestsome:
      case kSendInit:
      case kBsendInit:
      case kSsendInit:
      case kRsendInit:
      case kRecvInit:
        return;  // completed nothing (null or inactive requests, a failed test), or only set up: compute
      default:
        break;
    }
    if (moves_no_data(name)) return;
    refuse(call,
           "has no SimGrid time-independent form (one-sided, partitioned, neighbourhood and I/O calls are "
           "not exported)");
  }

  // The call's sends and receives, then its waits: Sendrecv's two (it becomes irecv + isend) and one per
  // completed request.
  void point_to_point(std::size_t index, const ResolvedCall& call) {
    struct Start {
      const char* verb;  // isend, send, irecv, recv
      Keyed key;
    };
    std::vector<Start> starts;
    std::vector<Keyed> waits;
    const int me = call.rank;
    for (const MessageEnd& m : call.started) {
      auto keyed = key_of(call, m);
      if (!keyed) continue;
      const bool is_sendrecv = m.function == kSendrecv || m.function == kSendrecvReplace;
      const bool nonblocking = !m.blocking || is_sendrecv;
      starts.push_back({m.is_send ? (nonblocking ? "isend" : "send") : (nonblocking ? "irecv" : "recv"), *keyed});
      if (is_sendrecv) waits.push_back(*keyed);
      if (!m.blocking) pending_[pair_key(me, m.request)] = *keyed;
      count(index, m, keyed->bytes);
    }
    for (const MessageEnd& m : call.completed) {
      auto it = pending_.find(pair_key(me, m.request));
      if (it == pending_.end()) continue;  // never a message (MPI_PROC_NULL)
      waits.push_back(it->second);
      pending_.erase(it);
    }
    if (starts.empty() && waits.empty()) return;
    compute_before(index, call);
    for (const Start& s : starts)
      emit(index, "{} {} {} {} {}", me, s.verb, s.key.source == me ? s.key.dest : s.key.source, s.key.tag, s.key.bytes);
    for (const Keyed& k : waits) emit(index, "{} wait {} {} {}", me, k.source, k.dest, k.tag);
  }

  void count(std::size_t index, const MessageEnd& m, std::int64_t bytes) {
    TiRankSummary& summary = result_.per_rank[index];
    if (m.is_send) {
      ++summary.messages_sent;
      summary.bytes_sent += static_cast<std::uint64_t>(bytes);
      ++result_.messages;
      result_.bytes += static_cast<std::uint64_t>(bytes);
    } else {
      ++summary.receives;
    }
  }

  void collective(std::size_t index, const ResolvedCall& call) {
    const CollectiveCall& c = *call.collective;
    if (c.comm < 0 || !world_like(c.comm))
      refuse(call,
             "a collective on a communicator other than MPI_COMM_WORLD (or a copy of it) has no TI form: "
             "TI replay runs every collective on MPI_COMM_WORLD");
    const auto known = [&](std::int64_t bytes) {
      if (bytes < 0) refuse(call, "the collective's datatype size is not in the trace's sizes block");
      return bytes;
    };
    const int me = call.rank;
    std::string line;
    switch (c.function) {
      case kBarrier:
        line = fmt::format("{} barrier", me);
        break;
      case kBcast:
        line = fmt::format("{} bcast {} {}", me, known(c.bytes), c.root_world);
        break;
      case kReduce:
        line = fmt::format("{} reduce {} 0 {}", me, known(c.bytes), c.root_world);
        break;
      case kAllreduce:
        line = fmt::format("{} allreduce {} 0", me, known(c.bytes));
        break;
      case kAllgather:
        line = fmt::format("{} allgather {} {}", me, known(c.bytes), known(c.recv_bytes));
        break;
      case kAlltoall:
        line = fmt::format("{} alltoall {} {}", me, known(c.bytes), known(c.recv_bytes));
        break;
      case kGather:  // the receive block is recorded at the root only; every rank sends the same block
        line = fmt::format("{} gather {} {} {}", me, known(c.bytes), c.recv_bytes >= 0 ? c.recv_bytes : c.bytes,
                           c.root_world);
        break;
      case kScatter:
        line = fmt::format("{} scatter {} {} {}", me, c.bytes >= 0 ? c.bytes : known(c.recv_bytes), known(c.recv_bytes),
                           c.root_world);
        break;
      default:
        refuse(call,
               "this collective has no TI form in AMP's export (Allgatherv, Alltoallv and Scan are not exported)");
    }
    emit_collective(index, call, line);
  }

  // The traffic that agrees on a new communicator, as SST-macro's MpiCommFactory sends it (Open MPI's
  // ompi_comm_nextcid and MPICH's context-id agreement are allreduces too): Comm_dup and Comm_create,
  // commNewIdAgree's allreduce (MPI_MAX) of one int; Comm_split, commSplit's allgather of (id, color,
  // key). TI replays collectives on MPI_COMM_WORLD only: from any other parent the call stays compute.
  void communicator_creation(std::size_t index, const ResolvedCall& call) {
    if (call.created_from < 0 || !world_like(call.created_from)) return;
    constexpr int kIntBytes = 4;
    const bool split = call.record->function == kCommSplit;
    emit_collective(index, call,
                    split ? fmt::format("{} allgather {} {}", call.rank, 3 * kIntBytes, 3 * kIntBytes)
                          : fmt::format("{} allreduce {} 0", call.rank, kIntBytes));
  }

  // A collective's action after the compute before it; `collectives` in export.json counts these.
  void emit_collective(std::size_t index, const ResolvedCall& call, const std::string& line) {
    compute_before(index, call);
    emit(index, "{}", line);
    ++result_.collectives;
  }

  const TraceSet& set_;
  fs::path directory_;  // where the files are written: the staging folder
  fs::path shown_as_;   // the output's name, for messages
  TiExportOptions options_;
  double flops_per_nanosecond_ = options_.host_speed_flops / 1e9;
  RecordStream stream_;
  TiExportResult result_;
  std::vector<RankFile> files_;
  std::vector<RankState> state_;
  std::unordered_map<int, std::size_t> index_of_;
  struct ChannelKey {
    std::uint64_t ranks, comm_tag;  // (sender, receiver), (communicator, tag)
    bool operator==(const ChannelKey& o) const { return ranks == o.ranks && comm_tag == o.comm_tag; }
  };
  struct ChannelHash {
    std::size_t operator()(const ChannelKey& k) const {
      return std::hash<std::uint64_t>()(k.ranks * 0x9E3779B97F4A7C15ull ^ k.comm_tag);
    }
  };
  std::unordered_map<ChannelKey, Channel, ChannelHash> channels_;
  std::unordered_map<std::uint64_t, int> pair_channels_;  // (sender, receiver) -> channels so far
  std::unordered_map<std::uint64_t, Keyed> pending_;      // (rank, request) -> its action's key
  std::unordered_map<int, bool> world_like_;
};

}  // namespace

TiExportResult export_time_independent(const std::string& input, const std::string& output_directory,
                                       const TiExportOptions& options) {
  if (!(options.host_speed_flops >= kSlowestHostSpeed) || !(options.host_speed_flops <= kFastestHostSpeed))
    throw std::runtime_error(fmt::format(
        "the host speed must be {:g} to {:g} flop/s (got {}): SimGrid ends at once any computation under {:g} "
        "flops, so one nanosecond of compute must be more",
        kSlowestHostSpeed, kFastestHostSpeed, options.host_speed_flops, kSmallestReplayedFlops));
  StagedDirectory staged(output_directory);  // written aside, then renamed: a failed export leaves nothing
  const TraceSet set = locate_trace(input);
  staged.create();
  TiExportResult result = Exporter(set, staged, options).run();
  staged.publish();
  result.directory = staged.output().string();
  return result;
}

}  // namespace amp::trace::simgrid
