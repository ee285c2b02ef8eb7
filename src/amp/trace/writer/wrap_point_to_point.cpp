// SPDX-License-Identifier: BSD-3-Clause
// MPI_* wrappers for point-to-point calls: blocking, nonblocking, combined and persistent sends
// and receives, Start/Startall and Request_free (argument layouts: format doc §5).
#include <mpi.h>

#include <amp/trace/writer/call_record.hpp>
#include <amp/trace/writer/unrecorded_requests.hpp>

#include <type_traits>

using namespace amp::trace;

namespace {

// Send, Bsend, Ssend, Rsend: count, dt, dest, tag, comm.
int blocking_send(std::uint16_t function, int (*pmpi)(const void*, int, MPI_Datatype, int, int, MPI_Comm),
                  const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  if (unrecorded_call(function)) return pmpi(buf, count, type, dest, tag, comm);
  CallRecord call(function);
  int rc = pmpi(buf, count, type, dest, tag, comm);
  call.begin();
  call.i32(count);
  call.datatype(type);
  call.dest(dest);
  call.tag(tag);
  call.comm(comm);
  return rc;
}

// Isend, Ibsend, Issend, Irsend, Irecv and the *_init calls: count, dt, peer, tag, comm, request. A send
// (a const buffer) stores its destination and tag raw, as libdumpi does; a receive its source and tag in
// DUMPI's encoding (wildcards -1).
template <class Buffer>
int nonblocking(std::uint16_t function, bool persistent,
                int (*pmpi)(Buffer*, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request*), Buffer* buf, int count,
                MPI_Datatype type, int peer, int tag, MPI_Comm comm, MPI_Request* request) {
  if (persistent ? unrecorded_lifecycle_call(function) : unrecorded_call(function))
    return pmpi(buf, count, type, peer, tag, comm, request);
  CallRecord call(function);
  int rc = pmpi(buf, count, type, peer, tag, comm, request);
  call.begin();
  std::int32_t id = call.request_created(request, persistent);
  call.i32(count);
  call.datatype(type);
  if constexpr (std::is_const_v<Buffer>) {
    call.dest(peer);
    call.i32(tag);
  } else {
    call.source(peer);
    call.tag(tag);
  }
  call.comm(comm);
  call.i32(id);
  return rc;
}

// The status a receive records: the program's, or for a wildcard receive whose status the program
// ignores, `own`, which the library passes to MPI instead, so that the trace still says which
// source and tag matched (what a replay needs; the program sees nothing of it). `own` starts zeroed:
// MPI leaves its MPI_ERROR alone in a single completion.
MPI_Status* recorded_status(MPI_Status* given, MPI_Status& own, int source, int tag) {
  const bool wildcard = source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG;
  return given == MPI_STATUS_IGNORE && wildcard ? &own : given;
}

}  // namespace

extern "C" {

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return blocking_send(kSend, backend::Send, buf, count, type, dest, tag, comm);
}
int MPI_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return blocking_send(kBsend, backend::Bsend, buf, count, type, dest, tag, comm);
}
int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return blocking_send(kSsend, backend::Ssend, buf, count, type, dest, tag, comm);
}
int MPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return blocking_send(kRsend, backend::Rsend, buf, count, type, dest, tag, comm);
}

int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  if (unrecorded_call(kRecv)) return backend::Recv(buf, count, type, source, tag, comm, status);
  CallRecord call(kRecv);
  MPI_Status own{};
  status = recorded_status(status, own, source, tag);
  int rc = backend::Recv(buf, count, type, source, tag, comm, status);
  call.begin();
  call.i32(count);
  call.datatype(type);
  call.source(source);
  call.tag(tag);
  call.comm(comm);
  call.status(status);
  return rc;
}

int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return nonblocking(kIsend, false, backend::Isend, buf, count, type, dest, tag, comm, request);
}
int MPI_Ibsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return nonblocking(kIbsend, false, backend::Ibsend, buf, count, type, dest, tag, comm, request);
}
int MPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return nonblocking(kIssend, false, backend::Issend, buf, count, type, dest, tag, comm, request);
}
int MPI_Irsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return nonblocking(kIrsend, false, backend::Irsend, buf, count, type, dest, tag, comm, request);
}
int MPI_Send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                  MPI_Request* request) {
  return nonblocking(kSendInit, true, backend::Send_init, buf, count, type, dest, tag, comm, request);
}
int MPI_Bsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  return nonblocking(kBsendInit, true, backend::Bsend_init, buf, count, type, dest, tag, comm, request);
}
int MPI_Ssend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  return nonblocking(kSsendInit, true, backend::Ssend_init, buf, count, type, dest, tag, comm, request);
}
int MPI_Rsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  return nonblocking(kRsendInit, true, backend::Rsend_init, buf, count, type, dest, tag, comm, request);
}

int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request) {
  return nonblocking(kIrecv, false, backend::Irecv, buf, count, type, source, tag, comm, request);
}

int MPI_Recv_init(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request) {
  return nonblocking(kRecvInit, true, backend::Recv_init, buf, count, type, source, tag, comm, request);
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  if (unrecorded_call(kSendrecv))
    return backend::Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                             comm, status);
  CallRecord call(kSendrecv);
  MPI_Status own{};
  status = recorded_status(status, own, source, recvtag);
  int rc = backend::Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                             comm, status);
  call.begin();
  call.i32(sendcount);
  call.datatype(sendtype);
  call.dest(dest);
  call.tag(sendtag);
  call.i32(recvcount);
  call.datatype(recvtype);
  call.source(source);
  call.tag(recvtag);
  call.comm(comm);
  call.status(status);
  return rc;
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                         MPI_Comm comm, MPI_Status* status) {
  if (unrecorded_call(kSendrecvReplace))
    return backend::Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status);
  CallRecord call(kSendrecvReplace);
  MPI_Status own{};
  status = recorded_status(status, own, source, recvtag);
  int rc = backend::Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status);
  call.begin();
  call.i32(count);
  call.datatype(type);
  call.dest(dest);
  call.tag(sendtag);
  call.source(source);
  call.tag(recvtag);
  call.comm(comm);
  call.status(status);
  return rc;
}

int MPI_Start(MPI_Request* request) {
  if (unrecorded_call(kStart)) return backend::Start(request);
  std::vector<char>& marks = scratch_unrecorded_marks();
  if (mark_unrecorded_requests(request, 1, marks) != 0) {
    count_unrecorded_call(Unrecorded::kStart);
    return backend::Start(request);
  }
  CallRecord call(kStart);
  int rc = backend::Start(request);
  call.begin();
  call.i32(call.tracer().requests().resolve_one(*request, current_thread_number()));
  return rc;
}

// Startall lists only the requests the trace knows (unrecorded_requests.hpp).
int MPI_Startall(int count, MPI_Request requests[]) {
  if (unrecorded_call(kStartall)) return backend::Startall(count, requests);
  std::vector<char>& marks = scratch_unrecorded_marks();
  const int marked = mark_unrecorded_requests(requests, count, marks);
  if (only_unrecorded_requests(requests, count, marked)) {
    count_unrecorded_call(Unrecorded::kStartall);
    return backend::Startall(count, requests);
  }
  CallRecord call(kStartall);
  int rc = backend::Startall(count, requests);
  call.begin();
  std::vector<std::int32_t>& ids = scratch_request_ids();
  if (marked == 0) {
    call.tracer().requests().resolve(requests, count, ids, current_thread_number());
  } else {
    thread_local std::vector<MPI_Request> recorded;
    recorded.clear();
    for (int i = 0; i < count; ++i)
      if (!marks[static_cast<std::size_t>(i)]) recorded.push_back(requests[i]);
    call.tracer().requests().resolve(recorded.data(), static_cast<int>(recorded.size()), ids, current_thread_number());
  }
  call.i32(static_cast<int>(ids.size()));
  call.request_ids(ids);
  return rc;
}

int MPI_Request_free(MPI_Request* request) {
  if (unrecorded_lifecycle_call(kRequestFree)) return backend::Request_free(request);
  std::vector<char>& marks = scratch_unrecorded_marks();
  if (mark_unrecorded_requests(request, 1, marks) != 0) {
    MPI_Request before = *request;
    int rc = backend::Request_free(request);
    Tracer& tracer = Tracer::instance();
    auto lock = tracer.guard();
    tracer.unrecorded().count(Unrecorded::kRequestFree);
    tracer.unrecorded().freed(before);
    return rc;
  }
  CallRecord call(kRequestFree);
  MPI_Request before = *request;
  std::int32_t id;
  {
    auto lock = call.tracer().guard();
    id = call.tracer().requests().resolve_one(before, current_thread_number(), request);
  }
  int rc = backend::Request_free(request);
  call.begin();
  call.tracer().requests().freed(before, id);
  call.i32(id);
  return rc;
}

}  // extern "C"
