// MPI_* wrappers for communicator queries and creation (rank, size, dup, split, free) and derived
// datatypes (contiguous, vector, commit, free); creation calls give the new handle a fresh id.
#include <mpi.h>

#include "call_record.hpp"

using namespace amp::trace;

extern "C" {

int MPI_Comm_rank(MPI_Comm comm, int* rank) {
  if (!Tracer::recording()) {
    note_unrecorded(kCommRank);
    return PMPI_Comm_rank(comm, rank);
  }
  CallRecord call(kCommRank);
  int rc = PMPI_Comm_rank(comm, rank);
  call.begin();
  call.comm(comm);
  call.i32(*rank);
  return rc;
}

int MPI_Comm_size(MPI_Comm comm, int* size) {
  if (!Tracer::recording()) {
    note_unrecorded(kCommSize);
    return PMPI_Comm_size(comm, size);
  }
  CallRecord call(kCommSize);
  int rc = PMPI_Comm_size(comm, size);
  call.begin();
  call.comm(comm);
  call.i32(*size);
  return rc;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  if (!Tracer::records_object_lifecycle()) {
    note_unrecorded(kCommDup);
    return PMPI_Comm_dup(comm, newcomm);
  }
  CallRecord call(kCommDup);
  int rc = PMPI_Comm_dup(comm, newcomm);
  call.begin();
  call.comm(comm);
  call.tracer().out().put16(call.tracer().handles().new_comm(*newcomm));
  return rc;
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  if (!Tracer::records_object_lifecycle()) {
    note_unrecorded(kCommSplit);
    return PMPI_Comm_split(comm, color, key, newcomm);
  }
  CallRecord call(kCommSplit);
  int rc = PMPI_Comm_split(comm, color, key, newcomm);
  call.begin();
  call.comm(comm);
  call.i32(color);
  call.i32(key);
  call.tracer().out().put16(call.tracer().handles().new_comm(*newcomm));
  return rc;
}

int MPI_Comm_free(MPI_Comm* comm) {
  if (!Tracer::records_object_lifecycle()) {
    note_unrecorded(kCommFree);
    return PMPI_Comm_free(comm);
  }
  CallRecord call(kCommFree);
  MPI_Comm before = *comm;
  int rc = PMPI_Comm_free(comm);
  call.begin();
  call.comm(before);
  call.tracer().handles().forget_comm(before);
  return rc;
}

int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  if (!Tracer::records_object_lifecycle()) {
    note_unrecorded(kTypeContiguous);
    return PMPI_Type_contiguous(count, oldtype, newtype);
  }
  CallRecord call(kTypeContiguous);
  int rc = PMPI_Type_contiguous(count, oldtype, newtype);
  call.begin();
  call.i32(count);
  call.datatype(oldtype);
  call.tracer().out().put16(call.tracer().handles().new_datatype(*newtype));
  return rc;
}

int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  if (!Tracer::records_object_lifecycle()) {
    note_unrecorded(kTypeVector);
    return PMPI_Type_vector(count, blocklength, stride, oldtype, newtype);
  }
  CallRecord call(kTypeVector);
  int rc = PMPI_Type_vector(count, blocklength, stride, oldtype, newtype);
  call.begin();
  call.i32(count);
  call.i32(blocklength);
  call.i32(stride);
  call.datatype(oldtype);
  call.tracer().out().put16(call.tracer().handles().new_datatype(*newtype));
  return rc;
}

int MPI_Type_commit(MPI_Datatype* type) {
  if (!Tracer::records_object_lifecycle()) {
    note_unrecorded(kTypeCommit);
    return PMPI_Type_commit(type);
  }
  CallRecord call(kTypeCommit);
  int rc = PMPI_Type_commit(type);
  call.begin();
  call.datatype(*type);
  return rc;
}

int MPI_Type_free(MPI_Datatype* type) {
  if (!Tracer::records_object_lifecycle()) {
    note_unrecorded(kTypeFree);
    return PMPI_Type_free(type);
  }
  CallRecord call(kTypeFree);
  MPI_Datatype before = *type;
  std::uint16_t id;
  {
    auto lock = call.tracer().guard();
    id = call.tracer().handles().datatype(before);  // size must be taken while the type exists
  }
  int rc = PMPI_Type_free(type);
  call.begin();
  call.tracer().out().put16(id);
  call.tracer().handles().forget_datatype(before);
  return rc;
}

}  // extern "C"
