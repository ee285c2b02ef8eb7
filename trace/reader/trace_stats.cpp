// Statistics from call records: message sizes come from count x the datatype-size block entry;
// persistent sends are counted when started, with the arguments of their *_init record.
#include "trace_stats.hpp"

#include <optional>
#include <set>
#include <unordered_map>

#include "../format/function_names.hpp"

namespace amp::trace {

namespace {

std::uint64_t histogram_bin(std::uint64_t bytes) {
  if (bytes == 0) return 0;
  std::uint64_t bound = 1;
  while (bound < bytes) bound <<= 1;
  return bound;
}

struct PersistentRequest {
  bool is_send = false;
  std::int64_t count = 0, datatype = 0, peer = 0, comm = 0;
  std::string call;
};

class RankAnalysis {
 public:
  RankAnalysis(const TraceFile& file, int rank, TraceStats& stats) : file_(file), rank_(rank), stats_(stats) {
    world_like_comms_.insert(dumpi_comm::kWorld);
    traffic_.rank = rank;
  }

  void run() {
    auto cursor = file_.records();
    while (auto record = cursor.next()) handle(*record);
    stats_.ranks.push_back(traffic_);
  }

 private:
  std::uint64_t message_bytes(std::int64_t count, std::int64_t datatype) {
    const std::optional<std::int64_t> listed = file_.datatype_size(datatype);
    if (!listed) {
      ++stats_.unknown_datatype_messages;
      return 0;
    }
    const std::int64_t size = *listed;
    return count > 0 && size > 0 ? static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(size) : 0;
  }

  void sent(const std::string& call, std::int64_t count, std::int64_t datatype, std::int64_t dest, std::int64_t comm) {
    if (dest < 0) return;
    std::uint64_t bytes = message_bytes(count, datatype);
    traffic_.sent.add(bytes);
    traffic_.sent_by_call[call].add(bytes);
    stats_.sent.add(bytes);
    stats_.sent_by_call[call].add(bytes);
    ++stats_.size_histogram[histogram_bin(bytes)];
    const std::size_t n = static_cast<std::size_t>(stats_.rank_count);
    if (world_like_comms_.count(comm) != 0 && static_cast<std::size_t>(dest) < n &&
        static_cast<std::size_t>(rank_) < n) {
      stats_.matrix_bytes[static_cast<std::size_t>(rank_)][static_cast<std::size_t>(dest)] += bytes;
      ++stats_.matrix_messages[static_cast<std::size_t>(rank_)][static_cast<std::size_t>(dest)];
    } else {
      ++stats_.unplaced_messages;
    }
  }

  void started(std::int64_t request_id) {
    auto found = persistent_.find(request_id);
    if (found == persistent_.end()) return;
    const PersistentRequest& p = found->second;
    if (p.is_send) sent(p.call, p.count, p.datatype, p.peer, p.comm);
    else ++traffic_.receives_posted;
  }

  void handle(const Record& r) {
    ++traffic_.records;
    const std::string name(function_name(r.function));
    ++traffic_.calls[name];
    switch (r.function) {
      case kSend: case kBsend: case kSsend: case kRsend:
      case kIsend: case kIbsend: case kIssend: case kIrsend:
        sent(name, r.scalar("count"), r.scalar("datatype"), r.scalar("dest"), r.scalar("comm"));
        break;
      case kSendrecv:
        sent(name, r.scalar("sendcount"), r.scalar("sendtype"), r.scalar("dest"), r.scalar("comm"));
        ++traffic_.receives_posted;
        break;
      case kSendrecvReplace:
        sent(name, r.scalar("count"), r.scalar("datatype"), r.scalar("dest"), r.scalar("comm"));
        ++traffic_.receives_posted;
        break;
      case kRecv: case kIrecv: ++traffic_.receives_posted; break;
      case kSendInit: case kBsendInit: case kSsendInit: case kRsendInit:
        persistent_[r.scalar("request")] = {true, r.scalar("count"), r.scalar("datatype"), r.scalar("dest"),
                                            r.scalar("comm"), name};
        break;
      case kRecvInit:
        persistent_[r.scalar("request")] = {false, r.scalar("count"), r.scalar("datatype"), r.scalar("source"),
                                            r.scalar("comm"), name};
        break;
      case kStart: started(r.scalar("request")); break;
      case kStartall:
        if (const Field* ids = r.field("requests")) {
          for (std::int32_t id : ids->values) started(id);
        }
        break;
      case kRequestFree: persistent_.erase(r.scalar("request")); break;
      case kCommDup:
        if (world_like_comms_.count(r.scalar("oldcomm")) != 0) world_like_comms_.insert(r.scalar("newcomm"));
        break;
      case kCommFree: world_like_comms_.erase(r.scalar("comm")); break;
      default: break;
    }
  }

  const TraceFile& file_;
  int rank_;
  TraceStats& stats_;
  RankTraffic traffic_;
  std::set<std::int64_t> world_like_comms_;
  std::unordered_map<std::int64_t, PersistentRequest> persistent_;
};

}  // namespace

void add_rank_traffic(const TraceFile& file, int rank, TraceStats& stats) { RankAnalysis(file, rank, stats).run(); }

TraceStats compute_trace_stats(const TraceSet& set) {
  TraceStats stats;
  int highest = 0;
  for (int rank : set.ranks) highest = std::max(highest, rank);
  stats.rank_count = set.meta.count("numprocs") ? std::max(highest + 1, std::stoi(set.meta.at("numprocs"))) : highest + 1;
  stats.matrix_bytes.assign(static_cast<std::size_t>(stats.rank_count),
                            std::vector<std::uint64_t>(static_cast<std::size_t>(stats.rank_count), 0));
  stats.matrix_messages = stats.matrix_bytes;
  for (std::size_t i = 0; i < set.bin_paths.size(); ++i)
    add_rank_traffic(TraceFile::open(set.bin_paths[i]), set.ranks[i], stats);
  return stats;
}

}  // namespace amp::trace
