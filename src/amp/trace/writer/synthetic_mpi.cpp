// SPDX-License-Identifier: BSD-3-Clause
// The synthesized rank's stand-ins for the MPI calls that communicate: handles from a counter,
// completion at once with the status the call's own arguments promise, no data moved.
#include <amp/trace/writer/synthetic_mpi.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <amp/trace/writer/handle_key.hpp>

namespace amp::trace {

SyntheticMpi& SyntheticMpi::instance() {
  static SyntheticMpi* mpi = new SyntheticMpi();  // never destroyed, like the Tracer
  return *mpi;
}

void SyntheticMpi::begin_rank(int rank, int size) {
  end_rank();
  rank_ = rank;
  size_ = size;
  comms[handle_key(MPI_COMM_WORLD)] = {rank, size};
  active_ = true;
}

void SyntheticMpi::end_rank() {
  active_ = false;
  requests.clear();
  comms.clear();
  groups.clear();
}

template <class H>
H SyntheticMpi::new_handle() {
  static_assert(sizeof(H) == 4 || sizeof(H) == 8, "MPI handles are ints or pointers");
  next_handle_ = (next_handle_ + 1) & 0xFFFFFFu;
  if (next_handle_ == 0) next_handle_ = 1;
  // A high tag keeps the values apart from the null handles and, for pointers, from real objects.
  const std::uint64_t value = sizeof(H) == 4 ? (0x7A000000ull | next_handle_) : (0x7A00000000000000ull | next_handle_);
  H handle;
  std::memcpy(&handle, &value, sizeof(H));
  return handle;
}

namespace synthetic {

namespace {

SyntheticMpi& mpi() { return SyntheticMpi::instance(); }

SyntheticMpi::Comm* find_comm(MPI_Comm comm) {
  auto found = mpi().comms.find(handle_key(comm));
  return found == mpi().comms.end() ? nullptr : &found->second;
}

const SyntheticMpi::Comm& known_comm(MPI_Comm comm, const char* call) {
  const SyntheticMpi::Comm* c = find_comm(comm);
  if (c == nullptr) refuse(call);
  return *c;
}

const SyntheticMpi::Group& known_group(MPI_Group group, const char* call) {
  auto found = mpi().groups.find(handle_key(group));
  if (found == mpi().groups.end()) refuse(call);
  return found->second;
}

int type_size(MPI_Datatype type) {
  int size = 0;
  PMPI_Type_size(type, &size);
  return size;
}

// The status MPI gives a completed operation: a receive's source, tag and byte count; a send's or a
// null request's is the empty status.
void fill_status(MPI_Status* status, const SyntheticMpi::Request* request) {
  if (status == MPI_STATUS_IGNORE) return;
  const bool receive = request != nullptr && request->receive;
  status->MPI_SOURCE = receive ? request->peer : MPI_ANY_SOURCE;
  status->MPI_TAG = receive ? request->tag : MPI_ANY_TAG;
  status->MPI_ERROR = MPI_SUCCESS;
  PMPI_Status_set_elements(status, MPI_BYTE, receive ? request->bytes : 0);
  PMPI_Status_set_cancelled(status, 0);
}

int new_request(bool receive, bool persistent, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm,
                MPI_Request* request, const char* call) {
  known_comm(comm, call);
  if (receive && (peer == MPI_ANY_SOURCE || tag == MPI_ANY_TAG)) refuse(call);  // the sender is unknown
  *request = mpi().new_handle<MPI_Request>();
  SyntheticMpi::Request r;
  r.receive = receive;
  r.persistent = persistent;
  r.started = !persistent;
  r.peer = peer;
  r.tag = tag;
  r.bytes = count * type_size(type);
  mpi().requests[handle_key(*request)] = r;
  return MPI_SUCCESS;
}

// Completes one request as Wait does; returns false for a null or inactive one.
bool complete(MPI_Request* request, MPI_Status* status) {
  auto found = *request == MPI_REQUEST_NULL ? mpi().requests.end() : mpi().requests.find(handle_key(*request));
  if (found == mpi().requests.end() || !found->second.started) {
    if (found == mpi().requests.end() && *request != MPI_REQUEST_NULL) refuse("a completion call on a foreign request");
    fill_status(status, nullptr);
    return false;
  }
  fill_status(status, &found->second);
  if (found->second.persistent) {
    found->second.started = false;
  } else {
    mpi().requests.erase(found);
    *request = MPI_REQUEST_NULL;
  }
  return true;
}

MPI_Status* status_at(MPI_Status statuses[], int i) {
  return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

int complete_all(int count, MPI_Request requests[], MPI_Status statuses[]) {
  for (int i = 0; i < count; ++i) complete(&requests[i], status_at(statuses, i));
  return MPI_SUCCESS;
}

int complete_first(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  *index = MPI_UNDEFINED;
  for (int i = 0; i < count; ++i) {
    if (complete(&requests[i], status)) {
      *index = i;
      return MPI_SUCCESS;
    }
  }
  fill_status(status, nullptr);
  return MPI_SUCCESS;
}

int complete_some(int count, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  *outcount = 0;
  bool any_active = false;
  for (int i = 0; i < count; ++i) {
    if (complete(&requests[i], status_at(statuses, *outcount))) {
      indices[(*outcount)++] = i;
      any_active = true;
    }
  }
  if (!any_active) *outcount = MPI_UNDEFINED;
  return MPI_SUCCESS;
}

// A reduction's result on this rank: its own contribution (the others' are not known here).
void keep_own(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type) {
  if (sendbuf == MPI_IN_PLACE || count <= 0) return;
  MPI_Aint lower = 0, extent = 0;
  PMPI_Type_get_extent(type, &lower, &extent);
  std::memmove(recvbuf, sendbuf, static_cast<std::size_t>(extent) * static_cast<std::size_t>(count));
}

}  // namespace

void refuse(const char* call) {
  std::fprintf(stderr,
               "amp_dumpi: synthesis: %s has no synthetic form (one process plays each rank in turn, so it "
               "cannot answer for the others)\n",
               call);
  std::fflush(stderr);
  std::_Exit(2);
}

int Comm_rank(MPI_Comm comm, int* rank) {
  const SyntheticMpi::Comm* c = find_comm(comm);
  if (c == nullptr) return PMPI_Comm_rank(comm, rank);  // MPI_COMM_SELF
  *rank = c->rank;
  return MPI_SUCCESS;
}

int Comm_size(MPI_Comm comm, int* size) {
  const SyntheticMpi::Comm* c = find_comm(comm);
  if (c == nullptr) return PMPI_Comm_size(comm, size);
  *size = c->size;
  return MPI_SUCCESS;
}

int Comm_split_type(MPI_Comm comm, int split_type, int /*key*/, MPI_Info /*info*/, MPI_Comm* newcomm) {
  const SyntheticMpi::Comm parent = known_comm(comm, "MPI_Comm_split_type");
  if (split_type == MPI_UNDEFINED) {
    *newcomm = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  *newcomm = mpi().new_handle<MPI_Comm>();
  mpi().comms[handle_key(*newcomm)] = parent;  // one node holds every rank
  return MPI_SUCCESS;
}

int Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  const SyntheticMpi::Comm parent = known_comm(comm, "MPI_Comm_dup");
  *newcomm = mpi().new_handle<MPI_Comm>();
  mpi().comms[handle_key(*newcomm)] = parent;
  return MPI_SUCCESS;
}

int Comm_free(MPI_Comm* comm) {
  if (mpi().comms.erase(handle_key(*comm)) == 0) refuse("MPI_Comm_free of a foreign communicator");
  *comm = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

int Comm_group(MPI_Comm comm, MPI_Group* group) {
  const SyntheticMpi::Comm& c = known_comm(comm, "MPI_Comm_group");
  *group = mpi().new_handle<MPI_Group>();
  SyntheticMpi::Group g;
  g.all = true;
  g.size = c.size;
  mpi().groups[handle_key(*group)] = std::move(g);
  return MPI_SUCCESS;
}

int Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  SyntheticMpi::Group g;
  {
    const SyntheticMpi::Group& parent = known_group(group, "MPI_Group_incl");
    g.size = n;
    for (int i = 0; i < n; ++i) g.members.push_back(parent.member(ranks[i]));
  }
  *newgroup = mpi().new_handle<MPI_Group>();
  mpi().groups[handle_key(*newgroup)] = std::move(g);
  return MPI_SUCCESS;
}

int Group_free(MPI_Group* group) {
  if (mpi().groups.erase(handle_key(*group)) == 0) refuse("MPI_Group_free of a foreign group");
  *group = MPI_GROUP_NULL;
  return MPI_SUCCESS;
}

int Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]) {
  const SyntheticMpi::Group& from = known_group(group1, "MPI_Group_translate_ranks");
  const SyntheticMpi::Group& to = known_group(group2, "MPI_Group_translate_ranks");
  for (int i = 0; i < n; ++i) {
    const int world = from.member(ranks1[i]);
    ranks2[i] = MPI_UNDEFINED;
    if (to.all) {
      if (world < to.size) ranks2[i] = world;
      continue;
    }
    for (int j = 0; j < to.size; ++j)
      if (to.members[static_cast<std::size_t>(j)] == world) ranks2[i] = j;
  }
  return MPI_SUCCESS;
}

int Isend(const void*, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return new_request(false, false, count, type, dest, tag, comm, request, "MPI_Isend");
}

int Irecv(void*, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request) {
  return new_request(true, false, count, type, source, tag, comm, request, "MPI_Irecv");
}

int Send(const void*, int, MPI_Datatype, int, int, MPI_Comm comm) {
  known_comm(comm, "MPI_Send");
  return MPI_SUCCESS;
}

int Recv(void*, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  known_comm(comm, "MPI_Recv");
  if (source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG) refuse("MPI_Recv from MPI_ANY_SOURCE or with MPI_ANY_TAG");
  SyntheticMpi::Request r;
  r.receive = true;
  r.peer = source;
  r.tag = tag;
  r.bytes = count * type_size(type);
  fill_status(status, &r);
  return MPI_SUCCESS;
}

int Send_init(const void*, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return new_request(false, true, count, type, dest, tag, comm, request, "MPI_Send_init");
}

int Recv_init(void*, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request) {
  return new_request(true, true, count, type, source, tag, comm, request, "MPI_Recv_init");
}

int Start(MPI_Request* request) {
  auto found = mpi().requests.find(handle_key(*request));
  if (found == mpi().requests.end() || !found->second.persistent) refuse("MPI_Start of a foreign request");
  found->second.started = true;
  return MPI_SUCCESS;
}

int Startall(int count, MPI_Request requests[]) {
  for (int i = 0; i < count; ++i) Start(&requests[i]);
  return MPI_SUCCESS;
}

int Wait(MPI_Request* request, MPI_Status* status) {
  complete(request, status);
  return MPI_SUCCESS;
}

int Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  return complete_all(count, requests, statuses);
}

int Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  return complete_first(count, requests, index, status);
}

int Waitsome(int count, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  return complete_some(count, requests, outcount, indices, statuses);
}

int Test(MPI_Request* request, int* flag, MPI_Status* status) {
  complete(request, status);
  *flag = 1;
  return MPI_SUCCESS;
}

int Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  *flag = 1;
  return complete_all(count, requests, statuses);
}

int Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  *flag = 1;
  return complete_first(count, requests, index, status);
}

int Testsome(int count, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  return complete_some(count, requests, outcount, indices, statuses);
}

int Request_free(MPI_Request* request) {
  if (mpi().requests.erase(handle_key(*request)) == 0) refuse("MPI_Request_free of a foreign request");
  *request = MPI_REQUEST_NULL;
  return MPI_SUCCESS;
}

int Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op, MPI_Comm comm) {
  known_comm(comm, "MPI_Allreduce");
  keep_own(sendbuf, recvbuf, count, type);
  return MPI_SUCCESS;
}

int Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op, int root, MPI_Comm comm) {
  if (known_comm(comm, "MPI_Reduce").rank == root) keep_own(sendbuf, recvbuf, count, type);
  return MPI_SUCCESS;
}

int Bcast(void*, int, MPI_Datatype, int, MPI_Comm comm) {
  known_comm(comm, "MPI_Bcast");
  return MPI_SUCCESS;
}

int Barrier(MPI_Comm comm) {
  known_comm(comm, "MPI_Barrier");
  return MPI_SUCCESS;
}

int Win_create(void*, MPI_Aint, int, MPI_Info, MPI_Comm comm, MPI_Win* win) {
  known_comm(comm, "MPI_Win_create");
  *win = mpi().new_handle<MPI_Win>();
  return MPI_SUCCESS;
}

int Win_free(MPI_Win* win) {
  *win = MPI_WIN_NULL;
  return MPI_SUCCESS;
}

int Win_post(MPI_Group group, int, MPI_Win) {
  known_group(group, "MPI_Win_post");
  return MPI_SUCCESS;
}

int Win_start(MPI_Group group, int, MPI_Win) {
  known_group(group, "MPI_Win_start");
  return MPI_SUCCESS;
}

int Win_complete(MPI_Win) { return MPI_SUCCESS; }
int Win_wait(MPI_Win) { return MPI_SUCCESS; }
int Win_fence(int, MPI_Win) { return MPI_SUCCESS; }

int Put(const void*, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Win) { return MPI_SUCCESS; }
int Get(void*, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Win) { return MPI_SUCCESS; }
int Accumulate(const void*, int, MPI_Datatype, int, MPI_Aint, int, MPI_Datatype, MPI_Op, MPI_Win) {
  return MPI_SUCCESS;
}

}  // namespace synthetic

}  // namespace amp::trace
