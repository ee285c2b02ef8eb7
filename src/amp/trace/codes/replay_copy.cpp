// SPDX-License-Identifier: BSD-3-Clause
// write_replay_copy: each resolved call of the one RecordStream becomes the records of its rank's copy.
// Time: CODES turns the gap between two records into compute, so each record is written at one instant
// of the copy's clock, which advances by the recorded time between the end of the rank's last call that
// became records and the start of this one: the compute the SimGrid export writes (ti_export.cpp), with
// the same pauses (MPI_Pcontrol(0) to (1): no compute), the replay starting where MPI_Init returned and
// ending where MPI_Finalize starts. Matching: CODES matches a receive by (source, tag) on any
// communicator and in arrival order, so every channel (sender, receiver, communicator, tag) gets its own
// tags: its k-th message tag index x 1024 + k mod 1024 on both sides, as in the SimGrid export. Requests:
// MPICH recycles handles and CODES keeps a completed request until a wait names it, so each operation
// gets a fresh id. Completions: a Wait, Test*, Waitany or Waitsome that completed messages becomes a
// Wait or Waitall of exactly those. Collectives, and the agreement on a new communicator that SST-macro
// and the SimGrid export model (an allreduce of one int for Comm_dup and Comm_create, an allgather of
// three for Comm_split), become collective_rounds' messages among the communicator's world ranks.
#include <amp/trace/codes/replay_copy.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include <amp/trace/codes/collective_rounds.hpp>
#include <amp/trace/codes/rank_file.hpp>
#include <amp/trace/format/dumpi_format.hpp>
#include <amp/trace/format/function_names.hpp>
#include <amp/trace/reader/file_output.hpp>
#include <amp/trace/reader/record_stream.hpp>
#include <amp/trace/reader/staged_directory.hpp>
#include <amp/trace/reader/trace_set.hpp>

namespace amp::trace::codes {

namespace fs = std::filesystem;

namespace {

constexpr int kTagSlots = 1024;                     // outstanding messages one channel may have at once
constexpr std::size_t kMostWaited = 1024;           // requests in one Waitall (CODES holds fewer than 2048)
constexpr std::int64_t kCollectiveTag = 1ll << 40;  // the channel key of collective traffic: no MPI tag
constexpr std::int64_t kIntBytes = 4;

std::int64_t nanoseconds(const ClockTime& t) { return t.sec * 1000000000 + t.nsec; }

class Copier {
 public:
  Copier(const TraceSet& set, const StagedDirectory& staged) : set_(set), stream_(set) {
    auto prefix = set.meta.find("fileprefix");
    prefix_ = prefix != set.meta.end() && !prefix->second.empty() && prefix->second.find('/') == std::string::npos
                  ? prefix->second
                  : fs::path(set.meta_path).stem().string();
    result_.world_size = stream_.world_size();
    for (std::size_t i = 0; i < stream_.ranks().size(); ++i) {
      const int rank = stream_.ranks()[i];
      index_of_[rank] = i;
      const std::string name = fmt::format("{}-{:04d}.bin", prefix_, rank);
      files_.emplace_back(staged.partial() / name, (staged.output() / name).string());
      files_.back().init(0);
    }
    state_.resize(stream_.ranks().size());
    result_.workload_prefix = (staged.output() / (prefix_ + "-")).string();
  }

  ReplayCopyResult run() {
    if (static_cast<int>(stream_.ranks().size()) != stream_.world_size())
      throw std::runtime_error(fmt::format("{}: holds the files of {} of its {} ranks; a replay needs every rank",
                                           set_.description, stream_.ranks().size(), stream_.world_size()));
    const std::string unrecorded = unrecorded_calls(set_);
    if (!unrecorded.empty())
      throw std::runtime_error(
          fmt::format("{}: the trace's .meta counts calls DUMPI could not record ({}): a "
                      "replay without them is not the run",
                      set_.description, unrecorded));
    stream_.run([this](const ResolvedCall& call) {
      ++result_.records_read;
      handle(call);
    });
    for (std::size_t i = 0; i < files_.size(); ++i) {
      if (!state_[i].finalized) files_[i].finalize(state_[i].clock);
      const TraceFile& original = stream_.file(stream_.ranks()[i]);
      TraceHeader header;
      header.start_time_epoch = original.header().start_time;
      header.hostname = original.header().hostname;
      header.username = original.header().username;
      files_[i].finish(header, original.datatype_sizes());
      result_.records += files_[i].records();
      result_.paused_seconds.push_back(static_cast<double>(state_[i].paused_ns) * 1e-9);
    }
    return std::move(result_);
  }

  const std::string& prefix() const { return prefix_; }

 private:
  struct RankState {
    bool paused = false;  // between MPI_Pcontrol(0) and MPI_Pcontrol(1): no compute
    bool acted = false;   // a call became records since the current region began
    bool finalized = false;
    std::int64_t paused_at = 0;    // start of the MPI_Pcontrol(0) that paused the rank
    std::int64_t paused_ns = 0;    // paused wall time so far
    std::int64_t busy_until = -1;  // recorded end of the last call that became records (ns; -1: none yet)
    std::int64_t clock = 0;        // the copy's clock (ns)
    std::int32_t next_request = dumpi_request::kFirstUser;
  };
  struct Keyed {
    int peer, tag;
    std::int64_t bytes;
  };
  struct ChannelKey {
    std::uint64_t ranks;  // (sender, receiver)
    std::int64_t comm, tag;
    bool operator==(const ChannelKey& o) const { return ranks == o.ranks && comm == o.comm && tag == o.tag; }
  };
  struct ChannelHash {
    std::size_t operator()(const ChannelKey& k) const {
      return std::hash<std::uint64_t>()(k.ranks * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(k.comm) * 31 ^
                                        static_cast<std::uint64_t>(k.tag));
    }
  };
  struct Channel {
    int index = 0;
    std::uint64_t sent = 0, received = 0;
  };

  [[noreturn]] void refuse(const ResolvedCall& call, const std::string& why) const {
    throw std::runtime_error(fmt::format("rank {} record {} {}: {}", call.rank, call.record_number,
                                         function_name(call.record->function), why));
  }

  static std::uint64_t pair_key(int a, int b) {
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32 | static_cast<std::uint32_t>(b);
  }

  // The tag of the next message on channel (sender, receiver, comm, tag) as the sender or the receiver sees it.
  int retag(int sender, int receiver, std::int64_t comm, std::int64_t tag, bool sending) {
    auto [it, fresh] = channels_.try_emplace(ChannelKey{pair_key(sender, receiver), comm, tag});
    if (fresh) it->second.index = pair_channels_[pair_key(sender, receiver)]++;
    Channel& channel = it->second;
    const std::uint64_t k = sending ? channel.sent++ : channel.received++;
    const std::int64_t retagged =
        static_cast<std::int64_t>(channel.index) * kTagSlots + static_cast<std::int64_t>(k % kTagSlots);
    if (retagged > 2147483647)
      throw std::runtime_error("too many distinct channels between one pair of ranks to renumber");
    return static_cast<int>(retagged);
  }

  // Where this call's records go on the copy's clock: after the compute since the rank's last records.
  std::int64_t compute_before(RankState& s, const ResolvedCall& call) {
    if (s.finalized && call.record->function != kFinalize)
      refuse(call, "moves data after MPI_Finalize, where CODES' replay of the rank has ended");
    const std::int64_t start = nanoseconds(call.record->wall_start);
    if (!s.paused && s.busy_until >= 0 && start > s.busy_until) s.clock += start - s.busy_until;
    s.acted = true;
    s.busy_until = nanoseconds(call.record->wall_stop);
    return s.clock;
  }

  static void begin_region(RankState& s, std::int64_t at) {
    s.busy_until = at;
    s.acted = false;
  }

  void handle(const ResolvedCall& call) {
    const std::size_t index = index_of_.at(call.rank);
    RankState& s = state_[index];
    const Record& record = *call.record;
    const std::uint16_t f = record.function;
    if (f == kInit || f == kInitThread) return begin_region(s, nanoseconds(record.wall_stop));
    if (const std::optional<std::uint32_t> level = pcontrol_level(record)) {
      const bool resume = *level != 0;
      if (!resume && !s.paused) {
        s.paused = true;
        s.paused_at = nanoseconds(record.wall_start);
      } else if (resume && s.paused) {
        s.paused = false;
        s.paused_ns += nanoseconds(record.wall_stop) - s.paused_at;
        begin_region(s, nanoseconds(record.wall_stop));
      }
      return;
    }
    if (f == kFinalize) {
      files_[index].finalize(s.acted ? compute_before(s, call) : s.clock);
      s.finalized = true;
      return;
    }
    if (!call.unknown_requests.empty() && f != kRequestFree)
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
      case kRequestFree:
        return;  // completed nothing (null or inactive requests, a failed test), set up or let go: compute
      default:
        break;
    }
    if (moves_no_data(function_name(f))) return;
    refuse(call,
           "has no form in the copy for CODES (one-sided, partitioned, neighbourhood, nonblocking "
           "collective and I/O calls are not copied)");
  }

  std::optional<Keyed> key_of(const ResolvedCall& call, const MessageEnd& m) {
    if (m.peer == MessageEnd::kPeerNone) return std::nullopt;  // MPI_PROC_NULL
    if (m.comm < 0 || m.peer == MessageEnd::kPeerUnknown)
      refuse(call, fmt::format("communicator {} was created by no recorded call (or its members are unknown), so "
                               "its ranks have no world rank",
                               m.comm_id));
    if (m.peer == MessageEnd::kPeerAny)
      refuse(call, "a receive from MPI_ANY_SOURCE names no source when it is posted; the copy needs it");
    if (!m.is_send && m.tag < 0) refuse(call, "a receive with MPI_ANY_TAG names no tag when it is posted");
    if (m.bytes < 0) refuse(call, "the message's datatype size is not in the trace's sizes block");
    const int sender = m.is_send ? call.rank : m.peer, receiver = m.is_send ? m.peer : call.rank;
    return Keyed{m.peer, retag(sender, receiver, m.comm, m.tag, m.is_send), m.bytes};
  }

  std::int32_t fresh_request(RankState& s, const ResolvedCall& call) {
    if (s.next_request == 2147483647) refuse(call, "the rank starts more than 2^31 nonblocking operations");
    return s.next_request++;
  }

  void wait_for(RankFile& file, std::int64_t at, const std::vector<std::int32_t>& requests) {
    if (requests.size() == 1) return file.wait(at, requests.front());
    for (std::size_t i = 0; i < requests.size(); i += kMostWaited)
      file.waitall(at, std::vector<std::int32_t>(
                           requests.begin() + static_cast<std::ptrdiff_t>(i),
                           requests.begin() + static_cast<std::ptrdiff_t>(std::min(requests.size(), i + kMostWaited))));
  }

  // The call's sends and receives, then the waits for what it completed: Sendrecv's two messages start
  // nonblocking and are waited for together, each completed request by its fresh id.
  void point_to_point(std::size_t index, const ResolvedCall& call) {
    RankState& s = state_[index];
    struct Start {
      const MessageEnd* message;
      Keyed key;
      bool blocking;
      std::int32_t request;
    };
    std::vector<Start> starts;
    std::vector<std::int32_t> waits;
    for (const MessageEnd& m : call.started) {
      const std::optional<Keyed> keyed = key_of(call, m);
      if (!keyed) continue;
      const bool sendrecv = m.function == kSendrecv || m.function == kSendrecvReplace;
      const bool blocking = m.blocking && !sendrecv;
      const std::int32_t request = blocking ? 0 : fresh_request(s, call);
      starts.push_back({&m, *keyed, blocking, request});
      if (sendrecv)
        waits.push_back(request);
      else if (!blocking)
        pending_[pair_key(call.rank, m.request)] = request;
      if (m.is_send) {
        ++result_.messages;
        result_.bytes += static_cast<std::uint64_t>(keyed->bytes);
      }
    }
    for (const MessageEnd& m : call.completed) {
      auto it = pending_.find(pair_key(call.rank, m.request));
      if (it == pending_.end()) continue;  // never a message (MPI_PROC_NULL)
      waits.push_back(it->second);
      pending_.erase(it);
    }
    if (starts.empty() && waits.empty()) return;
    const std::int64_t at = compute_before(s, call);
    RankFile& file = files_[index];
    for (const Start& start : starts) {
      if (start.message->is_send)
        file.send(start.blocking, at, start.key.bytes, start.key.peer, start.key.tag, start.request);
      else
        file.receive(start.blocking, at, start.key.bytes, start.key.peer, start.key.tag, start.request);
    }
    if (!waits.empty()) wait_for(file, at, waits);
  }

  // A collective's rounds among the communicator's members, each round's messages started together and
  // waited for together.
  void lowered(std::size_t index, const ResolvedCall& call, int comm, const CollectiveShape& shape) {
    const std::optional<std::vector<Round>> rounds = collective_rounds(shape);
    if (!rounds)
      refuse(call,
             "the copy for CODES has no point-to-point form of this collective (Allgatherv, "
             "Alltoallv, Scan and the nonblocking ones are not lowered)");
    RankState& s = state_[index];
    const CommGroup& group = stream_.communicators().comm(comm);
    const std::int64_t at = compute_before(s, call);
    RankFile& file = files_[index];
    for (const Round& round : *rounds) {
      std::vector<std::int32_t> requests;
      for (const Transfer& t : round.sends) {
        const int peer = group.world_rank(t.peer);
        requests.push_back(fresh_request(s, call));
        file.send(false, at, t.bytes, peer, retag(call.rank, peer, comm, kCollectiveTag, true), requests.back());
        ++result_.collective_messages;
        result_.collective_bytes += static_cast<std::uint64_t>(t.bytes);
      }
      for (const Transfer& t : round.receives) {
        const int peer = group.world_rank(t.peer);
        requests.push_back(fresh_request(s, call));
        file.receive(false, at, t.bytes, peer, retag(peer, call.rank, comm, kCollectiveTag, false), requests.back());
      }
      if (!requests.empty()) wait_for(file, at, requests);
    }
    ++result_.collectives;
  }

  void collective(std::size_t index, const ResolvedCall& call) {
    const CollectiveCall& c = *call.collective;
    if (c.comm < 0)
      refuse(call,
             "its communicator was created by no recorded call (or its members are unknown), so its ranks "
             "have no world rank");
    const CommGroup& group = stream_.communicators().comm(c.comm);
    CollectiveShape shape;
    shape.function = c.function;
    shape.size = group.size();
    shape.me = group.comm_rank(call.rank);
    shape.root = c.root_world >= 0 ? group.comm_rank(c.root_world) : 0;
    if (shape.me < 0 || shape.root < 0) refuse(call, "the rank or the root is not a member of the communicator");
    const bool root = shape.me == shape.root;
    const auto known = [&](std::int64_t bytes) {
      if (bytes < 0) refuse(call, "the collective's datatype size is not in the trace's sizes block");
      return bytes;
    };
    switch (c.function) {  // only the blocks this member's part moves need to be known
      case kBarrier:
        break;
      case kBcast:
      case kReduce:
      case kAllreduce:
        shape.bytes = known(c.bytes);
        break;
      case kGather:
        (root ? shape.recv_bytes : shape.bytes) = known(root ? c.recv_bytes : c.bytes);
        break;
      case kScatter:
        (root ? shape.bytes : shape.recv_bytes) = known(root ? c.bytes : c.recv_bytes);
        break;
      case kAllgather:
      case kAlltoall:
        shape.bytes = known(c.bytes);
        shape.recv_bytes = known(c.recv_bytes);
        break;
      default:
        break;  // refused by lowered()
    }
    lowered(index, call, c.comm, shape);
  }

  void communicator_creation(std::size_t index, const ResolvedCall& call) {
    if (call.created_from < 0) return;  // from a communicator of unknown members: nothing to agree among
    const CommGroup& parent = stream_.communicators().comm(call.created_from);
    CollectiveShape shape;
    shape.size = parent.size();
    shape.me = parent.comm_rank(call.rank);
    if (call.record->function == kCommSplit) {
      shape.function = kAllgather;
      shape.bytes = shape.recv_bytes = 3 * kIntBytes;
    } else {
      shape.function = kAllreduce;
      shape.bytes = kIntBytes;
    }
    if (shape.me < 0) refuse(call, "the rank is not a member of the communicator it creates from");
    lowered(index, call, call.created_from, shape);
  }

  const TraceSet& set_;
  RecordStream stream_;
  std::string prefix_;
  ReplayCopyResult result_;
  std::vector<RankFile> files_;
  std::vector<RankState> state_;
  std::unordered_map<int, std::size_t> index_of_;
  std::unordered_map<ChannelKey, Channel, ChannelHash> channels_;
  std::unordered_map<std::uint64_t, int> pair_channels_;     // (sender, receiver) -> channels so far
  std::unordered_map<std::uint64_t, std::int32_t> pending_;  // (rank, recorded request) -> the copy's request
};

}  // namespace

ReplayCopyResult write_replay_copy(const std::string& input, const std::string& output_directory) {
  StagedDirectory staged(output_directory);  // written aside, then renamed: a failed copy leaves nothing
  const TraceSet set = locate_trace(input);
  if (set.meta_path.empty())
    throw std::runtime_error("a copy for CODES needs the whole trace (a .meta file, its prefix or its directory)");
  staged.create();
  Copier copier(set, staged);
  {
    std::ifstream meta(set.meta_path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(meta)), std::istreambuf_iterator<char>());
    if (!meta && !meta.eof()) throw std::runtime_error(set.meta_path + ": cannot be read");
    const std::string name = copier.prefix() + ".meta";
    append_to_file((staged.partial() / name).string(), text, (staged.output() / name).string());
  }
  ReplayCopyResult result = copier.run();
  staged.publish();
  result.directory = staged.output().string();
  return result;
}

}  // namespace amp::trace::codes
