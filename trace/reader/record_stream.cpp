// RecordStream: a k-way merge of the ranks' streamed files by wall start time; each record is
// resolved against the rank's request table (what Isend/Irecv/*_init/Start made, what Wait* ends)
// and the run's CommRegistry (Comm_dup, Comm_split, Comm_create, Cart_create of all ranks).
#include "record_stream.hpp"

#include <algorithm>
#include <optional>
#include <queue>
#include <tuple>
#include <unordered_map>

#include "../format/dumpi_format.hpp"
#include "trace_file.hpp"

namespace amp::trace {

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

namespace {

// A request the rank created: the arguments of a persistent one, the message in flight of any.
struct RequestState {
  bool persistent = false;
  MessageEnd arguments;                // persistent: what each Start starts
  std::optional<MessageEnd> active;    // started, not yet completed
};

const StatusEntry* status_of(const Record& record, std::size_t i) {
  for (const Field& f : record.fields)
    if ((f.spec->kind == FieldKind::kStatus || f.spec->kind == FieldKind::kStatusArray) && f.present &&
        i < f.statuses.size())
      return &f.statuses[i];
  return nullptr;
}

}  // namespace

struct RecordStream::Rank {
  int rank;
  TraceFile file;
  std::optional<TraceFile::Cursor> cursor;
  std::optional<Record> next;
  std::uint64_t record_number = 0;
  std::unordered_map<std::int32_t, RequestState> requests;

  Rank(int r, TraceFile f) : rank(r), file(std::move(f)) {}
  void advance() {
    next = cursor->next();
    if (next) ++record_number;
  }
};

RecordStream::RecordStream(const TraceSet& set) : world_size_(world_size_of(set)), registry_(world_size_) {
  for (std::size_t i = 0; i < set.bin_paths.size(); ++i) {
    auto rank = std::make_unique<Rank>(set.ranks[i], TraceFile::open_streaming(set.bin_paths[i]));
    rank->cursor.emplace(rank->file.records());
    ranks_.push_back(set.ranks[i]);
    files_.push_back(std::move(rank));
  }
}

RecordStream::RecordStream(TraceFile file, int rank, int world_size) : world_size_(world_size), registry_(world_size) {
  auto one = std::make_unique<Rank>(rank, std::move(file));
  one->cursor.emplace(one->file.records());
  ranks_.push_back(rank);
  files_.push_back(std::move(one));
}

RecordStream::~RecordStream() = default;

void RecordStream::run(const std::function<void(const ResolvedCall&)>& visit) {
  using Entry = std::tuple<std::int64_t, std::uint32_t, int, std::size_t>;  // wall start, rank, index
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> order;
  for (std::size_t i = 0; i < files_.size(); ++i) {
    Rank& r = *files_[i];
    r.advance();
    if (r.next) order.emplace(r.next->wall_start.sec, r.next->wall_start.nsec, r.rank, i);
  }
  while (!order.empty()) {
    const std::size_t index = std::get<3>(order.top());
    order.pop();
    Rank& r = *files_[index];
    ResolvedCall call;
    call.rank = r.rank;
    call.record_number = r.record_number;
    call.record = &*r.next;
    resolve(r, *r.next, call);
    visit(call);
    r.advance();
    if (r.next) order.emplace(r.next->wall_start.sec, r.next->wall_start.nsec, r.rank, index);
  }
}

MessageEnd RecordStream::message(Rank& r, bool is_send, std::int64_t count, std::int64_t datatype, std::int64_t peer,
                                  std::int64_t tag, std::int64_t comm_id, std::uint16_t function) {
  MessageEnd m;
  m.is_send = is_send;
  m.function = m.origin = function;
  m.tag = static_cast<int>(tag);
  m.comm_id = comm_id;
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
  // A receive whose source or tag was a wildcard takes them from the status its completion returned.
  const auto apply_status = [&](MessageEnd& m, const StatusEntry* status) {
    if (m.is_send || status == nullptr) return;
    if (m.peer == MessageEnd::kPeerAny) {
      if (status->source == -1) m.peer = MessageEnd::kPeerNone;  // completed from MPI_PROC_NULL
      else if (status->source >= 0 && m.comm >= 0) m.peer = registry_.comm(m.comm).world_rank(status->source);
    }
    if (m.tag == -1 && status->tag >= 0) m.tag = status->tag;
  };
  const auto complete = [&](std::int32_t id, const StatusEntry* status) {
    if (id == dumpi_request::kNull) return;
    auto it = r.requests.find(id);
    if (it == r.requests.end()) {
      call.unknown_requests.push_back(id);
      return;
    }
    RequestState& state = it->second;
    if (!state.active) return;  // an inactive persistent request, or completed twice
    MessageEnd m = *state.active;
    state.active.reset();
    apply_status(m, status);
    call.completed.push_back(m);
    if (!state.persistent) r.requests.erase(it);
  };
  const auto start = [&](std::int32_t id) {
    auto it = r.requests.find(id);
    if (it == r.requests.end()) {
      call.unknown_requests.push_back(id);
      return;
    }
    MessageEnd m = it->second.arguments;
    m.function = kStart;
    it->second.active = m;
    call.started.push_back(m);
  };
  switch (f) {
    case kSend: case kBsend: case kSsend: case kRsend:
    case kIsend: case kIbsend: case kIssend: case kIrsend: {
      MessageEnd m = message(r, true, s("count"), s("datatype"), s("dest"), s("tag"), s("comm"), f);
      m.blocking = f <= kRsend;
      if (!m.blocking) {
        m.request = static_cast<std::int32_t>(s("request"));
        r.requests[m.request] = RequestState{false, m, m};
      }
      call.started.push_back(m);
      break;
    }
    case kRecv: case kIrecv: {
      MessageEnd m = message(r, false, s("count"), s("datatype"), s("source"), s("tag"), s("comm"), f);
      m.blocking = f == kRecv;
      if (m.blocking) {
        apply_status(m, status_of(record, 0));
      } else {
        m.request = static_cast<std::int32_t>(s("request"));
        r.requests[m.request] = RequestState{false, m, m};
      }
      call.started.push_back(m);
      break;
    }
    case kSendrecv: case kSendrecvReplace: {
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
    case kSendInit: case kBsendInit: case kSsendInit: case kRsendInit: case kRecvInit: {
      const bool is_send = f != kRecvInit;
      MessageEnd m = message(r, is_send, s("count"), s("datatype"), s(is_send ? "dest" : "source"), s("tag"),
                             s("comm"), f);
      m.request = static_cast<std::int32_t>(s("request"));
      r.requests[m.request] = RequestState{true, m, std::nullopt};
      break;
    }
    case kStart: start(static_cast<std::int32_t>(s("request"))); break;
    case kStartall:
      for (std::int32_t id : record.field("requests")->values) start(id);
      break;
    case kRequestFree: {
      auto it = r.requests.find(static_cast<std::int32_t>(s("request")));
      if (it != r.requests.end() && !it->second.active) r.requests.erase(it);
      break;
    }
    case kWait: complete(static_cast<std::int32_t>(s("request")), status_of(record, 0)); break;
    case kTest:
      if (s("flag") != 0) complete(static_cast<std::int32_t>(s("request")), status_of(record, 0));
      break;
    case kWaitany: case kTestany: {
      const auto& ids = record.field("requests")->values;
      const std::int64_t index = s("index");
      if ((f == kWaitany || s("flag") != 0) && index >= 0 && static_cast<std::size_t>(index) < ids.size())
        complete(ids[static_cast<std::size_t>(index)], status_of(record, 0));
      break;
    }
    case kWaitall: case kTestall: {
      const auto& ids = record.field("requests")->values;
      if (f == kWaitall || s("flag") != 0)
        for (std::size_t i = 0; i < ids.size(); ++i) complete(ids[i], status_of(record, i));
      break;
    }
    case kWaitsome: case kTestsome: {
      const auto& ids = record.field("requests")->values;
      const auto& indices = record.field("indices")->values;
      for (std::size_t i = 0; i < indices.size(); ++i)
        if (indices[i] >= 0 && static_cast<std::size_t>(indices[i]) < ids.size())
          complete(ids[static_cast<std::size_t>(indices[i])], status_of(record, i));
      break;
    }
    case kBarrier: case kBcast: case kGather: case kScatter: case kAllgather: case kAllgatherv: case kAlltoall:
    case kAlltoallv: case kReduce: case kAllreduce: case kScan: {
      auto c = std::make_unique<CollectiveCall>();
      c->function = f;
      c->comm = registry_.resolve(r.rank, static_cast<int>(s("comm")));
      if (c->comm >= 0) c->comm_size = registry_.comm(c->comm).size();
      const auto bytes = [&](const char* count, const char* type) -> std::int64_t {
        const Field* n = record.field(count);
        const Field* t = record.field(type);
        if (n == nullptr || t == nullptr || !n->present || !t->present) return -1;
        const std::optional<std::int64_t> size = r.file.datatype_size(t->value);
        return size && n->value >= 0 ? n->value * *size : -1;
      };
      if (const Field* root = record.field("root"); root != nullptr && c->comm >= 0)
        c->root_world = registry_.comm(c->comm).world_rank(static_cast<int>(root->value));
      switch (f) {
        case kBcast: case kReduce: case kAllreduce: case kScan: c->bytes = bytes("count", "datatype"); break;
        case kGather: c->bytes = bytes("sendcount", "sendtype"); c->recv_bytes = bytes("recvcount", "recvtype"); break;
        case kScatter: c->bytes = bytes("sendcount", "sendtype"); c->recv_bytes = bytes("recvcount", "recvtype"); break;
        case kAllgather: case kAlltoall:
          c->bytes = bytes("sendcount", "sendtype");
          c->recv_bytes = bytes("recvcount", "recvtype");
          break;
        default: break;
      }
      call.collective = std::move(c);
      break;
    }
    case kCommDup: registry_.created(r.rank, static_cast<int>(s("oldcomm")), 0, 0, static_cast<int>(s("newcomm"))); break;
    case kCommSplit:
      registry_.created(r.rank, static_cast<int>(s("oldcomm")), static_cast<int>(s("color")), static_cast<int>(s("key")),
                        static_cast<int>(s("newcomm")));
      break;
    case kCommCreate: case kCartCreate:  // members in parent-rank order (no reordering, as MPICH)
      registry_.created(r.rank, static_cast<int>(s("oldcomm")), 0, 0, static_cast<int>(s("newcomm")));
      break;
    default: break;
  }
}

}  // namespace amp::trace
