// SPDX-License-Identifier: BSD-3-Clause
// RecordStream: a k-way merge of the ranks' streamed files by wall start time (or one rank's file
// after a merged pass over the creation calls); each record is resolved against the rank's request
// table (what Isend/Irecv/*_init/Start made, what Wait*, Test* and Request_free end) and the run's
// CommRegistry (Comm_dup, Comm_split, Comm_create, Cart_create of all ranks).
#include <amp/trace/reader/record_stream.hpp>

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <queue>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include <amp/trace/format/dumpi_format.hpp>
#include <amp/trace/reader/trace_file.hpp>

namespace amp::trace {

namespace {

// The world size a trace set describes: the highest rank with a file + 1, or the .meta's numprocs.
int world_size_of(const TraceSet& set) {
  int highest = -1;
  for (int rank : set.ranks) highest = std::max(highest, rank);
  int size = highest + 1;
  auto numprocs = set.meta.find("numprocs");
  if (numprocs != set.meta.end()) {
    try {
      size = std::max(size, std::stoi(numprocs->second));
    } catch (const std::exception&) {  // a damaged .meta: the files still say how many ranks ran
    }
  }
  return size;
}

// What one request id of a rank stands for: the arguments of a persistent request, and the operations
// started under it and not yet completed, oldest first (sst-dumpi records MPICH's handle values, which
// are recycled and even shared by operations in flight together; AMP gives each operation its own id).
struct RequestState {
  std::optional<MessageEnd> persistent;  // what each Start starts
  std::vector<MessageEnd> active;        // almost always one: a vector, not a deque's 512-byte block
};

// The request ids a rank's calls created, as runs of consecutive ids: AMP numbers operations in
// order and sst-dumpi reuses a few handle values, so either way this stays small.
class CreatedIds {
 public:
  void insert(std::int32_t id) {
    auto next = runs_.upper_bound(id);  // first run starting after id
    if (next != runs_.begin()) {
      auto run = std::prev(next);
      if (id <= run->second) return;  // already in it
      if (id == run->second + 1) {    // extends it, perhaps up to the next run
        run->second = id;
        if (next != runs_.end() && next->first == id + 1) {
          run->second = next->second;
          runs_.erase(next);
        }
        return;
      }
    }
    if (next != runs_.end() && next->first == id + 1) {
      const std::int32_t last = next->second;
      runs_.erase(next);
      runs_.emplace(id, last);
      return;
    }
    runs_.emplace(id, id);
  }
  bool contains(std::int32_t id) const {
    auto next = runs_.upper_bound(id);
    return next != runs_.begin() && id <= std::prev(next)->second;
  }

 private:
  std::map<std::int32_t, std::int32_t> runs_;  // first id -> last id
};

const StatusEntry* status_of(const Record& record, std::size_t i) {
  for (const Field& f : record.fields)
    if ((f.spec->kind == FieldKind::kStatus || f.spec->kind == FieldKind::kStatusArray) && f.present &&
        i < f.statuses.size())
      return &f.statuses[i];
  return nullptr;
}

bool creates_communicators(const TraceFile& file) {
  const TraceFooter& footer = file.footer();
  return !footer.present || footer.call_counts[kCommDup] != 0 || footer.call_counts[kCommSplit] != 0 ||
         footer.call_counts[kCommCreate] != 0 || footer.call_counts[kCartCreate] != 0;
}

}  // namespace

struct RecordStream::Rank {
  int rank;
  TraceFile file;
  std::unordered_map<std::int32_t, RequestState> requests;
  CreatedIds created;  // every id a call made, completed ones too (those are not unknown)
  std::uint64_t operations_started = 0;

  Rank(int r, TraceFile f) : rank(r), file(std::move(f)) {}
  std::uint64_t operations_open() const {
    std::uint64_t open = 0;
    for (const auto& [id, state] : requests) open += state.active.size();
    return open;
  }
};

// One pass over one rank's records: the record at hand and its 1-based number.
struct RecordStream::Reading {
  Rank* rank;
  TraceFile::Cursor cursor;
  std::optional<Record> next;
  std::uint64_t record_number = 0;

  explicit Reading(Rank& r) : rank(&r), cursor(r.file.records()) {}
  void advance() {
    next = cursor.next();
    if (next) ++record_number;
  }
};

RecordStream::RecordStream(const TraceSet& set) : world_size_(world_size_of(set)), registry_(world_size_) {
  for (std::size_t i = 0; i < set.bin_paths.size(); ++i) {
    ranks_.push_back(set.ranks[i]);
    files_.push_back(std::make_unique<Rank>(set.ranks[i], TraceFile::open_streaming(set.bin_paths[i])));
  }
}

RecordStream::RecordStream(TraceFile file, int rank, int world_size) : world_size_(world_size), registry_(world_size) {
  ranks_.push_back(rank);
  files_.push_back(std::make_unique<Rank>(rank, std::move(file)));
}

RecordStream::~RecordStream() = default;

void RecordStream::merge(std::vector<Reading>& readings, const std::function<void(Rank&, const Reading&)>& visit) {
  using Entry = std::tuple<std::int64_t, std::uint32_t, int, std::size_t>;  // wall start, rank, index
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> order;
  const auto queue = [&](std::size_t i) {
    const Reading& r = readings[i];
    if (r.next) order.emplace(r.next->wall_start.sec, r.next->wall_start.nsec, r.rank->rank, i);
  };
  for (std::size_t i = 0; i < readings.size(); ++i) {
    readings[i].advance();
    queue(i);
  }
  while (!order.empty()) {
    const std::size_t index = std::get<3>(order.top());
    order.pop();
    Reading& r = readings[index];
    visit(*r.rank, r);
    r.advance();
    queue(index);
  }
}

void RecordStream::run(const std::function<void(const ResolvedCall&)>& visit) {
  std::vector<Reading> readings;
  for (auto& rank : files_) readings.emplace_back(*rank);
  merge(readings, [&](Rank& rank, const Reading& reading) {
    ResolvedCall call;
    call.rank = rank.rank;
    call.record_number = reading.record_number;
    call.record = &*reading.next;
    call.file = &rank.file;
    resolve(rank, *reading.next, call);
    visit(call);
  });
}

// Creation calls pair up across ranks only in a merged order (a rank's use of a new communicator
// comes after every member's creation call), so they are learnt so before any rank is read alone.
void RecordStream::learn_communicators() {
  std::vector<Reading> readings;
  for (auto& rank : files_)
    if (creates_communicators(rank->file)) readings.emplace_back(*rank);
  merge(readings, [&](Rank& rank, const Reading& reading) { creation(rank, *reading.next); });
  registry_.finish_creations();
  communicators_learnt_ = true;
}

std::uint64_t RecordStream::run_rank(int world_rank, const std::function<void(const ResolvedCall&)>& visit) {
  if (!communicators_learnt_) learn_communicators();
  auto found = std::find(ranks_.begin(), ranks_.end(), world_rank);
  Rank& rank = *files_.at(static_cast<std::size_t>(found - ranks_.begin()));
  registry_.begin_replay(world_rank);
  Reading reading(rank);
  for (reading.advance(); reading.next; reading.advance()) {
    ResolvedCall call;
    call.rank = world_rank;
    call.record_number = reading.record_number;
    call.record = &*reading.next;
    call.file = &rank.file;
    resolve(rank, *reading.next, call);
    visit(call);
  }
  const std::uint64_t open = rank.operations_open();
  rank.requests.clear();
  return open;
}

const TraceFile& RecordStream::file(int world_rank) const {
  auto found = std::find(ranks_.begin(), ranks_.end(), world_rank);
  return files_.at(static_cast<std::size_t>(found - ranks_.begin()))->file;
}

void RecordStream::creation(Rank& r, const Record& record) {
  const auto s = [&record](const char* name) { return static_cast<int>(record.scalar(name)); };
  const std::uint16_t f = record.function;
  if (f != kCommDup && f != kCommSplit && f != kCommCreate && f != kCartCreate) return;
  if (communicators_learnt_) return registry_.replay_created(r.rank, s("newcomm"));
  // Comm_create and Cart_create: members in parent-rank order (no reordering, as MPICH)
  const bool split = f == kCommSplit;
  registry_.created(r.rank, f, s("oldcomm"), split ? s("color") : 0, split ? s("key") : 0, s("newcomm"));
}

MessageEnd RecordStream::message(Rank& r, bool is_send, std::int64_t count, std::int64_t datatype, std::int64_t peer,
                                 std::int64_t tag, std::int64_t comm_id, std::uint16_t function) {
  MessageEnd m;
  m.is_send = is_send;
  m.function = m.origin = function;
  m.tag = static_cast<int>(tag);
  m.comm_id = comm_id;
  m.comm_peer = peer;
  m.comm = registry_.resolve(r.rank, static_cast<int>(comm_id));
  const std::optional<std::int64_t> size = r.file.datatype_size(datatype);
  m.bytes = size && count >= 0 && *size >= 0 ? count * *size : -1;
  if (is_send && peer < 0) {
    m.peer = MessageEnd::kPeerNone;
  } else if (peer < 0) {
    m.peer = MessageEnd::kPeerAny;  // -1: MPI_ANY_SOURCE (or MPICH's MPI_PROC_NULL); a status may tell
  } else if (m.comm >= 0) {
    m.peer = registry_.comm(m.comm).world_rank(static_cast<int>(peer));
    if (m.peer < 0) m.peer = MessageEnd::kPeerUnknown;  // beyond the communicator's members
  } else {
    m.peer = MessageEnd::kPeerUnknown;
  }
  return m;
}

void RecordStream::resolve(Rank& r, const Record& record, ResolvedCall& call) {
  const auto s = [&record](const char* name) { return record.scalar(name); };
  const auto f = record.function;
  // Communicators the call uses (not the one it creates) must have been made by a recorded call.
  for (const Field& field : record.fields)
    if (field.present && field.spec->kind == FieldKind::kComm && field.value >= dumpi_comm::kFirstUser &&
        std::string_view(field.spec->name) != "newcomm" &&
        registry_.resolve(r.rank, static_cast<int>(field.value)) == CommRegistry::kUndefined)
      call.undefined_comms.push_back(field.value);
  // A receive whose source or tag was a wildcard takes them from the status its completion returned.
  const auto apply_status = [&](MessageEnd& m, const StatusEntry* status) {
    if (status == nullptr) return;
    m.cancelled = status->cancelled != 0;
    if (m.is_send) return;
    m.received_bytes = status->bytes;
    if (m.peer == MessageEnd::kPeerAny) {
      if (status->source == -1)
        m.peer = MessageEnd::kPeerNone;  // completed from MPI_PROC_NULL
      else if (status->source >= 0 && m.comm >= 0)
        m.peer = registry_.comm(m.comm).world_rank(status->source);
      if (status->source >= 0) m.comm_peer = status->source;
    }
    if (m.tag == -1 && status->tag >= 0) m.tag = status->tag;
  };
  const auto begin = [&](std::int32_t id, MessageEnd m) {
    m.request = id;
    m.operation = ++r.operations_started;
    r.created.insert(id);
    r.requests[id].active.push_back(m);
    call.started.push_back(m);
  };
  // The state of a request the rank made: nothing for one already done with (completed, freed), and
  // nothing, the id noted, for one no recorded call made.
  const auto request_state = [&](std::int32_t id) {
    auto it = r.requests.find(id);
    if (it == r.requests.end() && !r.created.contains(id)) call.unknown_requests.push_back(id);
    return it;
  };
  // The oldest operation started under the id and not completed yet, if any.
  const auto take = [&](std::int32_t id) -> std::optional<MessageEnd> {
    auto it = request_state(id);
    if (it == r.requests.end()) return std::nullopt;
    RequestState& state = it->second;
    if (state.active.empty()) return std::nullopt;  // an inactive persistent request, or completed twice
    MessageEnd m = state.active.front();
    state.active.erase(state.active.begin());
    if (!state.persistent && state.active.empty()) r.requests.erase(it);
    return m;
  };
  const auto complete = [&](std::int32_t id, const StatusEntry* status) {
    if (id == dumpi_request::kNull) return;
    std::optional<MessageEnd> m = take(id);
    if (!m) return;
    apply_status(*m, status);
    call.completed.push_back(*m);
  };
  const auto start = [&](std::int32_t id) {
    auto it = request_state(id);
    if (it == r.requests.end() || !it->second.persistent) return;  // MPI_Start needs a persistent request
    MessageEnd m = *it->second.persistent;
    m.function = kStart;
    begin(id, m);
  };
  const auto release = [&](std::int32_t id) {
    if (id == dumpi_request::kNull) return;
    auto it = request_state(id);
    if (it == r.requests.end()) return;
    if (it->second.persistent) {  // an active operation of it still completes, but no Wait will say so
      it->second.persistent.reset();
      if (it->second.active.empty()) r.requests.erase(it);
    } else if (std::optional<MessageEnd> m = take(id)) {
      call.freed.push_back(*m);
    }
  };
  switch (f) {
    case kSend:
    case kBsend:
    case kSsend:
    case kRsend:
    case kIsend:
    case kIbsend:
    case kIssend:
    case kIrsend: {
      MessageEnd m = message(r, true, s("count"), s("datatype"), s("dest"), s("tag"), s("comm"), f);
      m.blocking = f <= kRsend;
      if (m.blocking)
        call.started.push_back(m);
      else
        begin(static_cast<std::int32_t>(s("request")), m);
      break;
    }
    case kRecv:
    case kIrecv: {
      MessageEnd m = message(r, false, s("count"), s("datatype"), s("source"), s("tag"), s("comm"), f);
      m.blocking = f == kRecv;
      if (m.blocking) {
        apply_status(m, status_of(record, 0));
        call.started.push_back(m);
      } else {
        begin(static_cast<std::int32_t>(s("request")), m);
      }
      break;
    }
    case kSendrecv:
    case kSendrecvReplace: {
      const bool replace = f == kSendrecvReplace;
      MessageEnd in = message(r, false, s(replace ? "count" : "recvcount"), s(replace ? "datatype" : "recvtype"),
                              s("source"), s("recvtag"), s("comm"), f);
      MessageEnd out = message(r, true, s(replace ? "count" : "sendcount"), s(replace ? "datatype" : "sendtype"),
                               s("dest"), s("sendtag"), s("comm"), f);
      in.blocking = out.blocking = true;
      apply_status(in, status_of(record, 0));
      call.started.push_back(in);
      call.started.push_back(out);
      break;
    }
    case kSendInit:
    case kBsendInit:
    case kSsendInit:
    case kRsendInit:
    case kRecvInit: {
      const bool is_send = f != kRecvInit;
      MessageEnd m =
          message(r, is_send, s("count"), s("datatype"), s(is_send ? "dest" : "source"), s("tag"), s("comm"), f);
      m.request = static_cast<std::int32_t>(s("request"));
      r.created.insert(m.request);
      r.requests[m.request].persistent = m;
      break;
    }
    case kStart:
      start(static_cast<std::int32_t>(s("request")));
      break;
    case kStartall:
      for (std::int32_t id : record.field("requests")->values) start(id);
      break;
    case kRequestFree:
      release(static_cast<std::int32_t>(s("request")));
      break;
    case kWait:
      complete(static_cast<std::int32_t>(s("request")), status_of(record, 0));
      break;
    case kTest:
      if (s("flag") != 0) complete(static_cast<std::int32_t>(s("request")), status_of(record, 0));
      break;
    case kWaitany:
    case kTestany: {
      const auto& ids = record.field("requests")->values;
      const std::int64_t index = s("index");
      if ((f == kWaitany || s("flag") != 0) && index >= 0 && static_cast<std::size_t>(index) < ids.size())
        complete(ids[static_cast<std::size_t>(index)], status_of(record, 0));
      break;
    }
    case kWaitall:
    case kTestall: {
      const auto& ids = record.field("requests")->values;
      if (f == kWaitall || s("flag") != 0)
        for (std::size_t i = 0; i < ids.size(); ++i) complete(ids[i], status_of(record, i));
      break;
    }
    case kWaitsome:
    case kTestsome: {
      const auto& ids = record.field("requests")->values;
      const auto& indices = record.field("indices")->values;
      for (std::size_t i = 0; i < indices.size(); ++i)
        if (indices[i] >= 0 && static_cast<std::size_t>(indices[i]) < ids.size())
          complete(ids[static_cast<std::size_t>(indices[i])], status_of(record, i));
      break;
    }
    case kBarrier:
    case kBcast:
    case kGather:
    case kScatter:
    case kAllgather:
    case kAllgatherv:
    case kAlltoall:
    case kAlltoallv:
    case kReduce:
    case kAllreduce:
    case kScan: {
      auto c = std::make_unique<CollectiveCall>();
      c->function = f;
      c->comm = registry_.resolve(r.rank, static_cast<int>(s("comm")));
      if (c->comm >= 0) c->comm_size = registry_.comm(c->comm).size();
      // count x the size of the call's datatype; a counts array: the sum of its positive counts.
      const auto bytes = [&](const char* count, const char* type) -> std::int64_t {
        const Field* n = record.field(count);
        const Field* t = record.field(type);
        if (n == nullptr || t == nullptr || !n->present || !t->present) return -1;
        std::int64_t elements = n->value;
        if (n->spec->kind == FieldKind::kIntArray) {
          elements = 0;
          for (std::int32_t v : n->values) elements += v > 0 ? v : 0;
        }
        const std::optional<std::int64_t> size = r.file.datatype_size(t->value);
        return size && elements >= 0 ? elements * *size : -1;
      };
      if (const Field* root = record.field("root"); root != nullptr && c->comm >= 0)
        c->root_world = registry_.comm(c->comm).world_rank(static_cast<int>(root->value));
      switch (f) {
        case kBcast:
        case kReduce:
        case kAllreduce:
        case kScan:
          c->bytes = bytes("count", "datatype");
          break;
        case kGather:
        case kScatter:
        case kAllgather:
        case kAlltoall:
          c->bytes = bytes("sendcount", "sendtype");
          c->recv_bytes = bytes("recvcount", "recvtype");
          break;
        case kAllgatherv:
          c->bytes = bytes("sendcount", "sendtype");
          c->recv_bytes = bytes("recvcounts", "recvtype");
          break;
        case kAlltoallv:
          c->bytes = bytes("sendcounts", "sendtype");
          c->recv_bytes = bytes("recvcounts", "recvtype");
          break;
        default:
          break;
      }
      call.collective = std::move(c);
      break;
    }
    case kCommDup:
    case kCommSplit:
    case kCommCreate:
    case kCartCreate:
      call.created_from = registry_.resolve(r.rank, static_cast<int>(s("oldcomm")));
      creation(r, record);
      break;
    default:
      break;
  }
}

}  // namespace amp::trace
