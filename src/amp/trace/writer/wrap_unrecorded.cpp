// SPDX-License-Identifier: BSD-3-Clause
// MPI_* wrappers for calls DUMPI has no record for, which the trace counts instead of dropping them
// silently (unrecorded_calls.hpp): MPI-4 partitioned communication (Psend_init, Precv_init, Pready,
// Pready_range, Parrived; MPI_VERSION >= 4 only), the neighbourhood exchange
// (Dist_graph_create_adjacent, Ineighbor_alltoallv) and MPI-3 passive-target synchronisation
// (Win_lock_all, Win_unlock_all, Win_flush, Win_sync; the window and its Puts are recorded). The
// requests and communicators they make are remembered, so the recorded calls leave them out of the
// trace. Creators are counted while tracing is paused too (like the recorded object creators), the
// others only while recording.
#include <mpi.h>

#include <amp/trace/writer/call_record.hpp>

using namespace amp::trace;

namespace {

// Counts `which` (creators: whenever tracing is on) and remembers what it made; under the lock.
void note(Unrecorded which, bool creator, const MPI_Request* request = nullptr, bool persistent = false,
          const MPI_Comm* comm = nullptr) {
  if (!Tracer::active()) return;
  Tracer& tracer = Tracer::instance();
  auto lock = tracer.guard();
  if (creator || Tracer::recording()) tracer.unrecorded().count(which);
  if (request != nullptr) tracer.unrecorded().add_request(*request, persistent);
  if (comm != nullptr) tracer.unrecorded().add_comm(*comm);
}

}  // namespace

extern "C" {

#if MPI_VERSION >= 4
int MPI_Psend_init(const void* buf, int partitions, MPI_Count count, MPI_Datatype type, int dest, int tag,
                   MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  int rc = backend::Psend_init(buf, partitions, count, type, dest, tag, comm, info, request);
  note(Unrecorded::kPsendInit, true, request, true);
  return rc;
}

int MPI_Precv_init(void* buf, int partitions, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                   MPI_Info info, MPI_Request* request) {
  int rc = backend::Precv_init(buf, partitions, count, type, source, tag, comm, info, request);
  note(Unrecorded::kPrecvInit, true, request, true);
  return rc;
}

int MPI_Pready(int partition, MPI_Request request) {
  int rc = backend::Pready(partition, request);
  note(Unrecorded::kPready, false);
  return rc;
}

int MPI_Pready_range(int partition_low, int partition_high, MPI_Request request) {
  int rc = backend::Pready_range(partition_low, partition_high, request);
  note(Unrecorded::kPreadyRange, false);
  return rc;
}

int MPI_Parrived(MPI_Request request, int partition, int* flag) {
  int rc = backend::Parrived(request, partition, flag);
  note(Unrecorded::kParrived, false);
  return rc;
}
#endif  // MPI_VERSION >= 4

int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[],
                                   int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm* comm_dist_graph) {
  int rc = backend::Dist_graph_create_adjacent(comm_old, indegree, sources, sourceweights, outdegree, destinations,
                                               destweights, info, reorder, comm_dist_graph);
  note(Unrecorded::kDistGraphCreateAdjacent, true, nullptr, false, comm_dist_graph);
  return rc;
}

int MPI_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Request* request) {
  int rc = backend::Ineighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                                        comm, request);
  note(Unrecorded::kIneighborAlltoallv, false, request, false);
  return rc;
}

int MPI_Win_lock_all(int assertion, MPI_Win win) {
  int rc = backend::Win_lock_all(assertion, win);
  note(Unrecorded::kWinLockAll, false);
  return rc;
}

int MPI_Win_unlock_all(MPI_Win win) {
  int rc = backend::Win_unlock_all(win);
  note(Unrecorded::kWinUnlockAll, false);
  return rc;
}

int MPI_Win_flush(int rank, MPI_Win win) {
  int rc = backend::Win_flush(rank, win);
  note(Unrecorded::kWinFlush, false);
  return rc;
}

int MPI_Win_sync(MPI_Win win) {
  int rc = backend::Win_sync(win);
  note(Unrecorded::kWinSync, false);
  return rc;
}

}  // extern "C"
