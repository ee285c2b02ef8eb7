// SPDX-License-Identifier: BSD-3-Clause
// MPI_* wrappers for collectives: Barrier, Bcast, Reduce, Allreduce, Scan, Gather, Scatter,
// Allgather(v), Alltoall(v), with libdumpi's argument layouts (rank-dependent for Gather/Scatter).
#include <mpi.h>

#include <amp/trace/writer/call_record.hpp>

using namespace amp::trace;

namespace {

// With MPI_IN_PLACE the send count/type are ignored by MPI and may be garbage: store NULL.
void send_type(CallRecord& call, const void* sendbuf, MPI_Datatype type) {
  if (sendbuf == MPI_IN_PLACE)
    call.tracer().out().put16(amp::trace::dumpi_datatype::kNull);
  else
    call.datatype(type);
}

int comm_size(MPI_Comm comm) {
  int size = 0;
  backend::Comm_size(comm, &size);
  return size;
}

int comm_rank(MPI_Comm comm) {
  int rank = 0;
  backend::Comm_rank(comm, &rank);
  return rank;
}

// Allreduce and Scan: count, dt, op, comm.
int reduction_to_all(std::uint16_t function, int (*pmpi)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm),
                     const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  if (unrecorded_call(function)) return pmpi(sendbuf, recvbuf, count, type, op, comm);
  CallRecord call(function);
  int rc = pmpi(sendbuf, recvbuf, count, type, op, comm);
  call.begin();
  call.i32(count);
  call.datatype(type);
  call.op(op);
  call.comm(comm);
  return rc;
}

// Allgather and Alltoall: sendcount, sendtype (NULL with MPI_IN_PLACE), recvcount, recvtype, comm.
int every_rank_to_all(std::uint16_t function,
                      int (*pmpi)(const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm),
                      const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm) {
  if (unrecorded_call(function)) return pmpi(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  CallRecord call(function);
  int rc = pmpi(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  call.begin();
  call.i32(sendcount);
  send_type(call, sendbuf, sendtype);
  call.i32(recvcount);
  call.datatype(recvtype);
  call.comm(comm);
  return rc;
}

}  // namespace

extern "C" {

int MPI_Barrier(MPI_Comm comm) {
  if (unrecorded_call(kBarrier)) return backend::Barrier(comm);
  CallRecord call(kBarrier);
  int rc = backend::Barrier(comm);
  call.begin();
  call.comm(comm);
  return rc;
}

int MPI_Bcast(void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  if (unrecorded_call(kBcast)) return backend::Bcast(buffer, count, type, root, comm);
  CallRecord call(kBcast);
  int rc = backend::Bcast(buffer, count, type, root, comm);
  call.begin();
  call.i32(count);
  call.datatype(type);
  call.i32(root);
  call.comm(comm);
  return rc;
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
  if (unrecorded_call(kReduce)) return backend::Reduce(sendbuf, recvbuf, count, type, op, root, comm);
  CallRecord call(kReduce);
  int rc = backend::Reduce(sendbuf, recvbuf, count, type, op, root, comm);
  call.begin();
  call.i32(count);
  call.datatype(type);
  call.op(op);
  call.i32(root);
  call.comm(comm);
  return rc;
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return reduction_to_all(kAllreduce, backend::Allreduce, sendbuf, recvbuf, count, type, op, comm);
}

int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return reduction_to_all(kScan, backend::Scan, sendbuf, recvbuf, count, type, op, comm);
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  if (unrecorded_call(kGather))
    return backend::Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  CallRecord call(kGather);
  int rc = backend::Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  int rank = comm_rank(comm);
  call.begin();
  call.i32(rank);
  call.i32(sendcount);
  send_type(call, sendbuf, sendtype);
  call.i32(root);
  call.comm(comm);
  if (rank == root) {
    call.i32(recvcount);
    call.datatype(recvtype);
  }
  return rc;
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  if (unrecorded_call(kScatter))
    return backend::Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  CallRecord call(kScatter);
  int rc = backend::Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  int rank = comm_rank(comm);
  call.begin();
  call.i32(rank);
  call.i32(recvcount);
  if (recvbuf == MPI_IN_PLACE)
    call.tracer().out().put16(dumpi_datatype::kNull);
  else
    call.datatype(recvtype);
  call.i32(root);
  call.comm(comm);
  if (rank == root) {
    call.i32(sendcount);
    call.datatype(sendtype);
  }
  return rc;
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  return every_rank_to_all(kAllgather, backend::Allgather, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                           comm);
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  if (unrecorded_call(kAllgatherv))
    return backend::Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  CallRecord call(kAllgatherv);
  int rc = backend::Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  int size = comm_size(comm);
  call.begin();
  call.i32(size);
  call.i32(sendcount);
  send_type(call, sendbuf, sendtype);
  call.int_array(recvcounts, size);
  call.int_array(displs, size);
  call.datatype(recvtype);
  call.comm(comm);
  return rc;
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  return every_rank_to_all(kAlltoall, backend::Alltoall, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                           comm);
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  if (unrecorded_call(kAlltoallv))
    return backend::Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  CallRecord call(kAlltoallv);
  int rc = backend::Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  int size = comm_size(comm);
  call.begin();
  call.i32(size);
  if (sendbuf == MPI_IN_PLACE) {  // send counts and displacements are ignored (and may be null)
    call.int_array(recvcounts, size);
    call.int_array(rdispls, size);
  } else {
    call.int_array(sendcounts, size);
    call.int_array(sdispls, size);
  }
  send_type(call, sendbuf, sendtype);
  call.int_array(recvcounts, size);
  call.int_array(rdispls, size);
  call.datatype(recvtype);
  call.comm(comm);
  return rc;
}

}  // extern "C"
