// SPDX-License-Identifier: BSD-3-Clause
// Otf2Archive: serial libotf2 use (one process writes every location), buffers flushed when full,
// and the MPI definitions in the layout Score-P writes: a COMM_LOCATIONS group indexed by world
// rank, COMM_GROUP groups of world ranks per communicator, a COMM_SELF group for MPI_COMM_SELF.
#include <amp/trace/otf2/otf2_archive.hpp>

#include <cstdarg>
#include <cstdio>
#include <map>
#include <stdexcept>

#include <amp/trace/reader/trace_error.hpp>

namespace amp::trace::otf2 {

namespace {

// The first error libotf2 reported since the archive was opened. libotf2 reports some failures only
// through its callback (a buffer it could not write is "closed" with OTF2_SUCCESS), so every check
// looks here too. Its POSIX codes describe themselves as strerror does ("No space left on device").
struct FirstError {
  OTF2_ErrorCode code = OTF2_SUCCESS;
  std::string text;
};
thread_local FirstError first_error;

OTF2_ErrorCode remember_error(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code, const char* format,
                              va_list arguments) {
  if (code <= OTF2_SUCCESS || first_error.code != OTF2_SUCCESS) return code;  // warnings; later consequences
  char text[512];
  std::vsnprintf(text, sizeof(text), format, arguments);
  first_error = {code, text};
  return code;
}

bool is_system_error(OTF2_ErrorCode code) { return code > OTF2_ERROR_INVALID && code < OTF2_ERROR_END_OF_FUNCTION; }

// Throws when `code` or an earlier callback says something failed: OutputWriteError with the system's
// reason when the disk refused (a full disk, an I/O error), else std::runtime_error.
void check(OTF2_ErrorCode code, const char* what) {
  if (code == OTF2_SUCCESS && first_error.code == OTF2_SUCCESS) return;
  const FirstError cause = first_error.code != OTF2_SUCCESS ? first_error : FirstError{code, ""};
  first_error = {};
  const std::string prefix = std::string("cannot write the OTF2 archive: ") + what + ": ";
  if (is_system_error(cause.code)) throw OutputWriteError(prefix + OTF2_Error_GetDescription(cause.code));
  throw std::runtime_error(prefix + (cause.text.empty() ? OTF2_Error_GetDescription(cause.code) : cause.text));
}

OTF2_FlushType flush_when_full(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }

// String definitions, each written once, on first use.
class StringTable {
 public:
  explicit StringTable(OTF2_GlobalDefWriter* defs) : defs_(defs) {}
  OTF2_StringRef operator()(const std::string& text) {
    auto found = ids_.find(text);
    if (found != ids_.end()) return found->second;
    const auto id = static_cast<OTF2_StringRef>(ids_.size());
    check(OTF2_GlobalDefWriter_WriteString(defs_, id, text.c_str()), "string definition");
    ids_.emplace(text, id);
    return id;
  }

 private:
  OTF2_GlobalDefWriter* defs_;
  std::map<std::string, OTF2_StringRef> ids_;
};

}  // namespace

Otf2Archive::Otf2Archive(const std::string& directory, const std::string& name) {
  OTF2_Error_RegisterCallback(remember_error, nullptr);
  first_error = {};
  archive_ = OTF2_Archive_Open(directory.c_str(), name.c_str(), OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                               OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (archive_ == nullptr) check(OTF2_ERROR_FILE_CAN_NOT_OPEN, "opening the archive");
  static const OTF2_FlushCallbacks flush = {flush_when_full, nullptr};
  check(OTF2_Archive_SetFlushCallbacks(archive_, &flush, nullptr), "flush callbacks");
  check(OTF2_Archive_SetSerialCollectiveCallbacks(archive_), "collective callbacks");
  check(OTF2_Archive_SetCreator(archive_, "amp-trace otf2 (AMP, from a DUMPI trace)"), "creator");
  check(OTF2_Archive_OpenEvtFiles(archive_), "opening the event files");
}

Otf2Archive::~Otf2Archive() {
  if (archive_ != nullptr) OTF2_Archive_Close(archive_);  // only after a failure; errors ignored
}

std::unique_ptr<Otf2Archive::LocationWriter> Otf2Archive::open_location(int world_rank) {
  return std::make_unique<LocationWriter>(archive_, world_rank, first_time_, last_time_);
}

void Otf2Archive::finish(const std::vector<LocationInfo>& locations, const RegionCatalog& regions,
                         CommunicatorTable& comms) {
  check(OTF2_Archive_CloseEvtFiles(archive_), "closing the event files");
  check(OTF2_Archive_OpenDefFiles(archive_), "opening the local definition files");
  for (const LocationInfo& l : locations) {  // empty local definitions: all definitions are global
    OTF2_DefWriter* local = OTF2_Archive_GetDefWriter(archive_, static_cast<OTF2_LocationRef>(l.world_rank));
    if (local == nullptr) check(OTF2_ERROR_INVALID_CALL, "local definition writer");
    check(OTF2_Archive_CloseDefWriter(archive_, local), "closing a local definition writer");
  }
  check(OTF2_Archive_CloseDefFiles(archive_), "closing the local definition files");
  OTF2_GlobalDefWriter* defs = OTF2_Archive_GetGlobalDefWriter(archive_);
  if (defs == nullptr) check(OTF2_ERROR_INVALID_CALL, "global definition writer");
  write_definitions(defs, locations, regions, comms);
  OTF2_Archive* archive = archive_;
  archive_ = nullptr;
  check(OTF2_Archive_Close(archive), "closing the archive");
}

void Otf2Archive::write_definitions(OTF2_GlobalDefWriter* defs, const std::vector<LocationInfo>& locations,
                                    const RegionCatalog& regions, CommunicatorTable& comms) {
  if (first_time_ > last_time_) first_time_ = last_time_ = 0;  // no events at all
  check(OTF2_GlobalDefWriter_WriteClockProperties(defs, 1000000000ull, first_time_, last_time_ - first_time_,
                                                  OTF2_UNDEFINED_TIMESTAMP),
        "clock properties");
  StringTable str(defs);
  check(OTF2_GlobalDefWriter_WriteParadigm(defs, OTF2_PARADIGM_MPI, str("MPI"), OTF2_PARADIGM_CLASS_PROCESS),
        "MPI paradigm");

  // System tree: one machine, one node per host name, one process (location group) per rank.
  check(OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, 0, str("machine"), str("machine"),
                                                 OTF2_UNDEFINED_SYSTEM_TREE_NODE),
        "system tree root");
  std::map<std::string, OTF2_SystemTreeNodeRef> nodes;
  for (const LocationInfo& l : locations) {
    const std::string host = l.hostname.empty() ? "unknown host" : l.hostname;
    auto [node, is_new] = nodes.emplace(host, static_cast<OTF2_SystemTreeNodeRef>(nodes.size() + 1));
    if (is_new)
      check(OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, node->second, str(host), str("node"), 0),
            "system tree node");
    const std::string rank = std::to_string(l.world_rank);
    check(OTF2_GlobalDefWriter_WriteLocationGroup(defs, static_cast<OTF2_LocationGroupRef>(l.world_rank),
                                                  str("MPI Rank " + rank), OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                                  node->second, OTF2_UNDEFINED_LOCATION_GROUP),
          "location group");
    check(OTF2_GlobalDefWriter_WriteLocation(
              defs, static_cast<OTF2_LocationRef>(l.world_rank),
              str(l.hostname.empty() ? "rank " + rank + " (no trace file)" : "Master thread"),
              OTF2_LOCATION_TYPE_CPU_THREAD, l.events, static_cast<OTF2_LocationGroupRef>(l.world_rank)),
          "location");
  }

  const OTF2_StringRef no_text = str("");
  for (RegionIndex i = 0; i < regions.regions().size(); ++i) {
    const Region& r = regions.regions()[i];
    check(OTF2_GlobalDefWriter_WriteRegion(defs, i, str(r.name), str(r.name), no_text, r.role, r.paradigm,
                                           OTF2_REGION_FLAG_NONE, no_text, 0, 0),
          "region");
  }

  // Groups: rank i of MPI_COMM_WORLD is location i; communicators list world ranks.
  std::vector<std::uint64_t> world_locations;
  for (int rank = 0; rank < comms.world_size(); ++rank) world_locations.push_back(static_cast<std::uint64_t>(rank));
  OTF2_GroupRef next_group = 0;
  check(OTF2_GlobalDefWriter_WriteGroup(defs, next_group++, str("MPI_COMM_WORLD locations"),
                                        OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                        static_cast<std::uint32_t>(world_locations.size()), world_locations.data()),
        "MPI locations group");
  const OTF2_GroupRef self_group = next_group++;
  check(OTF2_GlobalDefWriter_WriteGroup(defs, self_group, str("MPI_COMM_SELF group"), OTF2_GROUP_TYPE_COMM_SELF,
                                        OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 0, nullptr),
        "MPI self group");
  std::map<std::vector<int>, OTF2_GroupRef> group_of_members;
  const auto& all = comms.communicators();
  for (CommIndex c = 0; c < all.size(); ++c) {
    const Communicator& comm = all[c];
    OTF2_GroupRef group = self_group;
    if (comm.kind != Communicator::Kind::kSelf) {
      auto [found, is_new] = group_of_members.emplace(comm.members, next_group);
      if (is_new) {
        std::vector<std::uint64_t> members(comm.members.begin(), comm.members.end());
        check(OTF2_GlobalDefWriter_WriteGroup(defs, next_group++, str("group of " + comm.name),
                                              OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                              static_cast<std::uint32_t>(members.size()), members.data()),
              "communicator group");
      }
      group = found->second;
    }
    check(OTF2_GlobalDefWriter_WriteComm(defs, c, str(comm.name), group,
                                         comm.parent ? *comm.parent : OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
          "communicator");
  }
}

Otf2Archive::LocationWriter::LocationWriter(OTF2_Archive* archive, int world_rank, std::uint64_t& first_time,
                                            std::uint64_t& last_time)
    : archive_(archive),
      writer_(OTF2_Archive_GetEvtWriter(archive, static_cast<OTF2_LocationRef>(world_rank))),
      first_time_(first_time),
      last_time_(last_time) {
  if (writer_ == nullptr) check(OTF2_ERROR_INVALID_CALL, "event writer");
}

Otf2Archive::LocationWriter::~LocationWriter() {
  if (writer_ != nullptr) OTF2_Archive_CloseEvtWriter(archive_, writer_);  // only after a failure
}

std::uint64_t Otf2Archive::LocationWriter::close() {
  std::uint64_t events = 0;
  check(OTF2_EvtWriter_GetNumberOfEvents(writer_, &events), "counting events");
  OTF2_EvtWriter* writer = writer_;
  writer_ = nullptr;
  check(OTF2_Archive_CloseEvtWriter(archive_, writer), "closing an event writer");
  return events;
}

void Otf2Archive::LocationWriter::saw(std::uint64_t time) {
  if (time < first_time_) first_time_ = time;
  if (time > last_time_) last_time_ = time;
}

void Otf2Archive::LocationWriter::enter(std::uint64_t time, RegionIndex region) {
  saw(time);
  check(OTF2_EvtWriter_Enter(writer_, nullptr, time, region), "Enter event");
}

void Otf2Archive::LocationWriter::leave(std::uint64_t time, RegionIndex region) {
  saw(time);
  check(OTF2_EvtWriter_Leave(writer_, nullptr, time, region), "Leave event");
}

void Otf2Archive::LocationWriter::send(std::uint64_t time, std::uint32_t peer, CommIndex comm, std::uint32_t tag,
                                       std::uint64_t bytes) {
  check(OTF2_EvtWriter_MpiSend(writer_, nullptr, time, peer, comm, tag, bytes), "MpiSend event");
}

void Otf2Archive::LocationWriter::isend(std::uint64_t time, std::uint32_t peer, CommIndex comm, std::uint32_t tag,
                                        std::uint64_t bytes, std::uint64_t request) {
  check(OTF2_EvtWriter_MpiIsend(writer_, nullptr, time, peer, comm, tag, bytes, request), "MpiIsend event");
}

void Otf2Archive::LocationWriter::isend_complete(std::uint64_t time, std::uint64_t request) {
  check(OTF2_EvtWriter_MpiIsendComplete(writer_, nullptr, time, request), "MpiIsendComplete event");
}

void Otf2Archive::LocationWriter::irecv_request(std::uint64_t time, std::uint64_t request) {
  check(OTF2_EvtWriter_MpiIrecvRequest(writer_, nullptr, time, request), "MpiIrecvRequest event");
}

void Otf2Archive::LocationWriter::recv(std::uint64_t time, std::uint32_t peer, CommIndex comm, std::uint32_t tag,
                                       std::uint64_t bytes) {
  check(OTF2_EvtWriter_MpiRecv(writer_, nullptr, time, peer, comm, tag, bytes), "MpiRecv event");
}

void Otf2Archive::LocationWriter::irecv(std::uint64_t time, std::uint32_t peer, CommIndex comm, std::uint32_t tag,
                                        std::uint64_t bytes, std::uint64_t request) {
  check(OTF2_EvtWriter_MpiIrecv(writer_, nullptr, time, peer, comm, tag, bytes, request), "MpiIrecv event");
}

void Otf2Archive::LocationWriter::request_cancelled(std::uint64_t time, std::uint64_t request) {
  check(OTF2_EvtWriter_MpiRequestCancelled(writer_, nullptr, time, request), "MpiRequestCancelled event");
}

void Otf2Archive::LocationWriter::collective_begin(std::uint64_t time) {
  check(OTF2_EvtWriter_MpiCollectiveBegin(writer_, nullptr, time), "MpiCollectiveBegin event");
}

void Otf2Archive::LocationWriter::collective_end(std::uint64_t time, const CollectiveCall& call, CommIndex comm) {
  const std::uint32_t root =
      call.root && *call.root >= 0 ? static_cast<std::uint32_t>(*call.root) : OTF2_UNDEFINED_UINT32;
  check(OTF2_EvtWriter_MpiCollectiveEnd(writer_, nullptr, time, call.op, comm, root, call.sent, call.received),
        "MpiCollectiveEnd event");
}

}  // namespace amp::trace::otf2
