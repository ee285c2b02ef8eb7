// SPDX-License-Identifier: BSD-3-Clause
// MPI_* wrappers for communicator queries and creation (rank, size, dup, split, split_type, free) and
// derived datatypes (contiguous, vector, commit, free); creation calls give the new handle a fresh id.
// MPI_Comm_split_type (MPI-3, no DUMPI record) is recorded as the MPI_Comm_split it amounts to, so
// that replayers know the communicator it makes.
#include <mpi.h>

#include <amp/trace/writer/call_record.hpp>
#include <amp/trace/writer/unrecorded_requests.hpp>

using namespace amp::trace;

extern "C" {

int MPI_Comm_rank(MPI_Comm comm, int* rank) {
  if (unrecorded_call(kCommRank)) return backend::Comm_rank(comm, rank);
  CallRecord call(kCommRank);
  int rc = backend::Comm_rank(comm, rank);
  call.begin();
  call.comm(comm);
  call.i32(*rank);
  return rc;
}

int MPI_Comm_size(MPI_Comm comm, int* size) {
  if (unrecorded_call(kCommSize)) return backend::Comm_size(comm, size);
  CallRecord call(kCommSize);
  int rc = backend::Comm_size(comm, size);
  call.begin();
  call.comm(comm);
  call.i32(*size);
  return rc;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  if (unrecorded_lifecycle_call(kCommDup)) return backend::Comm_dup(comm, newcomm);
  CallRecord call(kCommDup);
  int rc = backend::Comm_dup(comm, newcomm);
  call.begin();
  call.comm(comm);
  call.tracer().out().put16(call.tracer().handles().new_comm(*newcomm));
  return rc;
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  if (unrecorded_lifecycle_call(kCommSplit)) return backend::Comm_split(comm, color, key, newcomm);
  CallRecord call(kCommSplit);
  int rc = backend::Comm_split(comm, color, key, newcomm);
  call.begin();
  call.comm(comm);
  call.i32(color);
  call.i32(key);
  call.tracer().out().put16(call.tracer().handles().new_comm(*newcomm));
  return rc;
}

namespace {

// The colour under which MPI_Comm_split makes the same groups as a split_type that gave `newcomm`:
// the parent rank of newcomm's rank 0 (the same on every member); MPI_UNDEFINED for no communicator.
int equivalent_split_color(MPI_Comm parent, MPI_Comm newcomm) {
  if (newcomm == MPI_COMM_NULL) return MPI_UNDEFINED;
  MPI_Group parent_group, new_group;
  backend::Comm_group(parent, &parent_group);
  backend::Comm_group(newcomm, &new_group);
  int first = 0, in_parent = 0;
  backend::Group_translate_ranks(new_group, 1, &first, parent_group, &in_parent);
  backend::Group_free(&new_group);
  backend::Group_free(&parent_group);
  return in_parent;
}

}  // namespace

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm) {
  if (unrecorded_lifecycle_call(kCommSplit)) return backend::Comm_split_type(comm, split_type, key, info, newcomm);
  CallRecord call(kCommSplit);
  int rc = backend::Comm_split_type(comm, split_type, key, info, newcomm);
  const int color = equivalent_split_color(comm, *newcomm);
  // The rank in newcomm as key gives split's order whatever order split_type chose for equal keys.
  int new_rank = key;
  if (*newcomm != MPI_COMM_NULL) backend::Comm_rank(*newcomm, &new_rank);
  call.begin();
  call.comm(comm);
  call.i32(color);
  call.i32(new_rank);
  call.tracer().out().put16(call.tracer().handles().new_comm(*newcomm));
  return rc;
}

int MPI_Comm_free(MPI_Comm* comm) {
  if (unrecorded_lifecycle_call(kCommFree)) return backend::Comm_free(comm);
  MPI_Comm before = *comm;
  bool unrecorded = false;
  {
    Tracer& tracer = Tracer::instance();
    auto lock = tracer.guard();
    unrecorded = tracer.unrecorded().is_comm(before);
    if (unrecorded) {  // made by a call with no DUMPI record: counted only
      tracer.unrecorded().count(Unrecorded::kCommFree);
      tracer.unrecorded().forget_comm(before);
    }
  }
  if (unrecorded) return backend::Comm_free(comm);
  CallRecord call(kCommFree);
  int rc = backend::Comm_free(comm);
  call.begin();
  call.comm(before);
  call.tracer().handles().forget_comm(before);
  return rc;
}

int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  if (unrecorded_lifecycle_call(kTypeContiguous)) return backend::Type_contiguous(count, oldtype, newtype);
  CallRecord call(kTypeContiguous);
  int rc = backend::Type_contiguous(count, oldtype, newtype);
  call.begin();
  call.i32(count);
  call.datatype(oldtype);
  call.tracer().out().put16(call.tracer().handles().new_datatype(*newtype));
  return rc;
}

int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  if (unrecorded_lifecycle_call(kTypeVector)) return backend::Type_vector(count, blocklength, stride, oldtype, newtype);
  CallRecord call(kTypeVector);
  int rc = backend::Type_vector(count, blocklength, stride, oldtype, newtype);
  call.begin();
  call.i32(count);
  call.i32(blocklength);
  call.i32(stride);
  call.datatype(oldtype);
  call.tracer().out().put16(call.tracer().handles().new_datatype(*newtype));
  return rc;
}

int MPI_Type_commit(MPI_Datatype* type) {
  if (unrecorded_lifecycle_call(kTypeCommit)) return backend::Type_commit(type);
  CallRecord call(kTypeCommit);
  int rc = backend::Type_commit(type);
  call.begin();
  call.datatype(*type);
  return rc;
}

int MPI_Type_free(MPI_Datatype* type) {
  if (unrecorded_lifecycle_call(kTypeFree)) return backend::Type_free(type);
  CallRecord call(kTypeFree);
  MPI_Datatype before = *type;
  std::uint16_t id;
  {
    auto lock = call.tracer().guard();
    id = call.tracer().handles().datatype(before);  // size must be taken while the type exists
  }
  int rc = backend::Type_free(type);
  call.begin();
  call.tracer().out().put16(id);
  call.tracer().handles().forget_datatype(before);
  return rc;
}

}  // extern "C"
