// SPDX-License-Identifier: BSD-3-Clause
// MPI_* wrappers for the group calls one-sided PSCW synchronisation needs: Comm_group, Group_incl,
// Group_free (ids 72, 76, 80). Groups are numbered as DUMPI does: 1 MPI_GROUP_NULL, 2 MPI_GROUP_EMPTY,
// user groups from 3 in creation order. Recorded even while paused, like every object creator.
#include <mpi.h>

#include <amp/trace/writer/call_record.hpp>

using namespace amp::trace;

extern "C" {

int MPI_Comm_group(MPI_Comm comm, MPI_Group* group) {
  if (unrecorded_lifecycle_call(kCommGroup)) return backend::Comm_group(comm, group);
  CallRecord call(kCommGroup);
  int rc = backend::Comm_group(comm, group);
  call.begin();
  call.comm(comm);
  call.tracer().out().put16(call.tracer().handles().new_group(*group));
  return rc;
}

int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  if (unrecorded_lifecycle_call(kGroupIncl)) return backend::Group_incl(group, n, ranks, newgroup);
  CallRecord call(kGroupIncl);
  int rc = backend::Group_incl(group, n, ranks, newgroup);
  call.begin();
  call.group(group);
  call.i32(n);
  call.int_array(ranks, n);
  call.tracer().out().put16(call.tracer().handles().new_group(*newgroup));
  return rc;
}

int MPI_Group_free(MPI_Group* group) {
  if (unrecorded_lifecycle_call(kGroupFree)) return backend::Group_free(group);
  CallRecord call(kGroupFree);
  MPI_Group before = *group;
  int rc = backend::Group_free(group);
  call.begin();
  call.group(before);
  call.tracer().handles().forget_group(before);
  return rc;
}

}  // extern "C"
