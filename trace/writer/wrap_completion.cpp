// MPI_* wrappers for completion calls (Wait, Test and their any/all/some forms): request ids are
// resolved from the handles before the call, and completed operations are retired after it.
#include <mpi.h>

#include "call_record.hpp"

using namespace amp::trace;

namespace {

std::vector<MPI_Request>& scratch_handles() {
  thread_local std::vector<MPI_Request> handles;
  return handles;
}

// Copies the handles as they are before the call and resolves their ids under the lock.
std::vector<std::int32_t>& resolve_before(CallRecord& call, const MPI_Request* requests, int count) {
  std::vector<MPI_Request>& before = scratch_handles();
  before.assign(requests, requests + count);
  std::vector<std::int32_t>& ids = scratch_request_ids();
  auto lock = call.tracer().guard();
  call.tracer().requests().resolve(before.data(), count, ids, current_thread_number());
  return ids;
}

void retire(CallRecord& call, const std::vector<std::int32_t>& ids, int index) {
  call.tracer().requests().completed(scratch_handles().data(), ids, index);
}

}  // namespace

extern "C" {

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  if (!Tracer::recording()) {
    note_unrecorded(kWait);
    return PMPI_Wait(request, status);
  }
  CallRecord call(kWait);
  MPI_Request before = *request;
  std::int32_t id;
  {
    auto lock = call.tracer().guard();
    id = call.tracer().requests().resolve_one(before, current_thread_number());
  }
  int rc = PMPI_Wait(request, status);
  call.begin();
  call.tracer().requests().completed_one(before, id);
  call.i32(id);
  call.status(status);
  return rc;
}

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  if (!Tracer::recording()) {
    note_unrecorded(kTest);
    return PMPI_Test(request, flag, status);
  }
  CallRecord call(kTest);
  MPI_Request before = *request;
  std::int32_t id;
  {
    auto lock = call.tracer().guard();
    id = call.tracer().requests().resolve_one(before, current_thread_number());
  }
  int rc = PMPI_Test(request, flag, status);
  call.begin();
  if (*flag) call.tracer().requests().completed_one(before, id);
  call.i32(id);
  call.i32(*flag);
  call.status(status, *flag != 0);
  return rc;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  if (!Tracer::recording()) {
    note_unrecorded(kWaitall);
    return PMPI_Waitall(count, requests, statuses);
  }
  CallRecord call(kWaitall);
  std::vector<std::int32_t>& ids = resolve_before(call, requests, count);
  int rc = PMPI_Waitall(count, requests, statuses);
  call.begin();
  for (int i = 0; i < count; ++i) retire(call, ids, i);
  call.i32(count);
  call.request_ids(ids);
  call.statuses(statuses, count);
  return rc;
}

int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  if (!Tracer::recording()) {
    note_unrecorded(kTestall);
    return PMPI_Testall(count, requests, flag, statuses);
  }
  CallRecord call(kTestall);
  std::vector<std::int32_t>& ids = resolve_before(call, requests, count);
  int rc = PMPI_Testall(count, requests, flag, statuses);
  call.begin();
  if (*flag) {
    for (int i = 0; i < count; ++i) retire(call, ids, i);
  }
  call.i32(count);
  call.request_ids(ids);
  call.i32(*flag);
  call.statuses(statuses, count, *flag != 0);
  return rc;
}

int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  if (!Tracer::recording()) {
    note_unrecorded(kWaitany);
    return PMPI_Waitany(count, requests, index, status);
  }
  CallRecord call(kWaitany);
  std::vector<std::int32_t>& ids = resolve_before(call, requests, count);
  int rc = PMPI_Waitany(count, requests, index, status);
  call.begin();
  bool completed = *index != MPI_UNDEFINED && *index >= 0 && *index < count;
  if (completed) retire(call, ids, *index);
  call.i32(count);
  call.request_ids(ids);
  call.i32(*index);
  call.status(status, completed);
  return rc;
}

int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  if (!Tracer::recording()) {
    note_unrecorded(kTestany);
    return PMPI_Testany(count, requests, index, flag, status);
  }
  CallRecord call(kTestany);
  std::vector<std::int32_t>& ids = resolve_before(call, requests, count);
  int rc = PMPI_Testany(count, requests, index, flag, status);
  call.begin();
  bool completed = *flag && *index != MPI_UNDEFINED && *index >= 0 && *index < count;
  if (completed) retire(call, ids, *index);
  call.i32(count);
  call.request_ids(ids);
  call.i32(*index);
  call.i32(*flag);
  call.status(status, completed);
  return rc;
}

}  // extern "C"

namespace {

// Waitsome and Testsome share a layout: count, requests, outcount, indices, statuses.
int some_completed(std::uint16_t function, int (*pmpi)(int, MPI_Request*, int*, int*, MPI_Status*), int count,
                   MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  if (!Tracer::recording()) {
    note_unrecorded(function);
    return pmpi(count, requests, outcount, indices, statuses);
  }
  CallRecord call(function);
  std::vector<std::int32_t>& ids = resolve_before(call, requests, count);
  int rc = pmpi(count, requests, outcount, indices, statuses);
  call.begin();
  int done = *outcount == MPI_UNDEFINED ? 0 : *outcount;
  for (int i = 0; i < done; ++i) {
    if (indices[i] >= 0 && indices[i] < count) retire(call, ids, indices[i]);
  }
  call.i32(count);
  call.request_ids(ids);
  call.i32(*outcount);
  call.int_array(indices, done);
  call.statuses(statuses, done);
  return rc;
}

}  // namespace

extern "C" {

int MPI_Waitsome(int count, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  return some_completed(kWaitsome, PMPI_Waitsome, count, requests, outcount, indices, statuses);
}

int MPI_Testsome(int count, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  return some_completed(kTestsome, PMPI_Testsome, count, requests, outcount, indices, statuses);
}

}  // extern "C"
