// SPDX-License-Identifier: BSD-3-Clause
// MPI_* wrappers for completion calls (Wait, Test and their any/all/some forms): request ids are
// resolved from the handles before the call, and completed operations are retired after it.
// Requests made by calls with no DUMPI record are handled as unrecorded_requests.hpp says.
#include <mpi.h>

#include <amp/trace/writer/call_record.hpp>
#include <amp/trace/writer/unrecorded_requests.hpp>

using namespace amp::trace;

namespace {

std::vector<MPI_Request>& scratch_handles() {
  thread_local std::vector<MPI_Request> handles;
  return handles;
}

// The handles as they were before the call, unrecorded ones included (scratch_handles() has those
// replaced by MPI_REQUEST_NULL).
std::vector<MPI_Request>& scratch_originals() {
  thread_local std::vector<MPI_Request> handles;
  return handles;
}

// Copies the handles as they are before the call and resolves their ids under the lock; the
// requests marked as made by unrecorded calls resolve to MPI_REQUEST_NULL.
std::vector<std::int32_t>& resolve_before(CallRecord& call, const MPI_Request* requests, int count,
                                          const std::vector<char>& marks, int marked) {
  std::vector<MPI_Request>& before = scratch_handles();
  before.assign(requests, requests + count);
  if (marked != 0) {
    scratch_originals().assign(requests, requests + count);
    for (int i = 0; i < count; ++i)
      if (marks[static_cast<std::size_t>(i)]) before[static_cast<std::size_t>(i)] = MPI_REQUEST_NULL;
  }
  std::vector<std::int32_t>& ids = scratch_request_ids();
  auto lock = call.tracer().guard();
  call.tracer().requests().resolve(before.data(), count, ids, current_thread_number(), requests);
  return ids;
}

void retire(CallRecord& call, const std::vector<std::int32_t>& ids, int index) {
  call.tracer().requests().completed(scratch_handles().data(), ids, index);
}

// After a call that mixed recorded and unrecorded requests: forgets the unrecorded ones it completed.
void retire_marked(const MPI_Request* after, int count, const std::vector<char>& marks, int marked) {
  if (marked != 0) retire_unrecorded_requests(scratch_originals().data(), after, count, marks);
}

// A call on unrecorded requests only: counted, run, its completed requests forgotten; not written.
template <typename Pmpi>
int counted_not_written(Unrecorded which, MPI_Request* requests, int count, const std::vector<char>& marks, Pmpi pmpi) {
  std::vector<MPI_Request>& before = scratch_originals();
  before.assign(requests, requests + count);
  count_unrecorded_call(which);
  int rc = pmpi();
  retire_unrecorded_requests(before.data(), requests, count, marks);
  return rc;
}

}  // namespace

extern "C" {

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  if (unrecorded_call(kWait)) return backend::Wait(request, status);
  std::vector<char>& marks = scratch_unrecorded_marks();
  if (mark_unrecorded_requests(request, 1, marks) != 0)
    return counted_not_written(Unrecorded::kWait, request, 1, marks, [&] { return backend::Wait(request, status); });
  CallRecord call(kWait);
  MPI_Request before = *request;
  std::int32_t id;
  {
    auto lock = call.tracer().guard();
    id = call.tracer().requests().resolve_one(before, current_thread_number(), request);
  }
  int rc = backend::Wait(request, status);
  call.begin();
  call.tracer().requests().completed_one(before, id);
  call.i32(id);
  call.status(status);
  return rc;
}

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  if (unrecorded_call(kTest)) return backend::Test(request, flag, status);
  std::vector<char>& marks = scratch_unrecorded_marks();
  if (mark_unrecorded_requests(request, 1, marks) != 0)
    return counted_not_written(Unrecorded::kTest, request, 1, marks,
                               [&] { return backend::Test(request, flag, status); });
  CallRecord call(kTest);
  MPI_Request before = *request;
  std::int32_t id;
  {
    auto lock = call.tracer().guard();
    id = call.tracer().requests().resolve_one(before, current_thread_number(), request);
  }
  int rc = backend::Test(request, flag, status);
  call.begin();
  if (*flag) call.tracer().requests().completed_one(before, id);
  call.i32(id);
  call.i32(*flag);
  call.status(status, *flag != 0);
  return rc;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  if (unrecorded_call(kWaitall)) return backend::Waitall(count, requests, statuses);
  std::vector<char>& marks = scratch_unrecorded_marks();
  const int marked = mark_unrecorded_requests(requests, count, marks);
  if (only_unrecorded_requests(requests, count, marked))
    return counted_not_written(Unrecorded::kWaitall, requests, count, marks,
                               [&] { return backend::Waitall(count, requests, statuses); });
  CallRecord call(kWaitall);
  std::vector<std::int32_t>& ids = resolve_before(call, requests, count, marks, marked);
  int rc = backend::Waitall(count, requests, statuses);
  retire_marked(requests, count, marks, marked);
  call.begin();
  for (int i = 0; i < count; ++i) retire(call, ids, i);
  call.i32(count);
  call.request_ids(ids);
  call.statuses(statuses, count);
  return rc;
}

int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  if (unrecorded_call(kTestall)) return backend::Testall(count, requests, flag, statuses);
  std::vector<char>& marks = scratch_unrecorded_marks();
  const int marked = mark_unrecorded_requests(requests, count, marks);
  if (only_unrecorded_requests(requests, count, marked))
    return counted_not_written(Unrecorded::kTestall, requests, count, marks,
                               [&] { return backend::Testall(count, requests, flag, statuses); });
  CallRecord call(kTestall);
  std::vector<std::int32_t>& ids = resolve_before(call, requests, count, marks, marked);
  int rc = backend::Testall(count, requests, flag, statuses);
  retire_marked(requests, count, marks, marked);
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
  if (unrecorded_call(kWaitany)) return backend::Waitany(count, requests, index, status);
  std::vector<char>& marks = scratch_unrecorded_marks();
  const int marked = mark_unrecorded_requests(requests, count, marks);
  if (only_unrecorded_requests(requests, count, marked))
    return counted_not_written(Unrecorded::kWaitany, requests, count, marks,
                               [&] { return backend::Waitany(count, requests, index, status); });
  CallRecord call(kWaitany);
  std::vector<std::int32_t>& ids = resolve_before(call, requests, count, marks, marked);
  int rc = backend::Waitany(count, requests, index, status);
  retire_marked(requests, count, marks, marked);
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
  if (unrecorded_call(kTestany)) return backend::Testany(count, requests, index, flag, status);
  std::vector<char>& marks = scratch_unrecorded_marks();
  const int marked = mark_unrecorded_requests(requests, count, marks);
  if (only_unrecorded_requests(requests, count, marked))
    return counted_not_written(Unrecorded::kTestany, requests, count, marks,
                               [&] { return backend::Testany(count, requests, index, flag, status); });
  CallRecord call(kTestany);
  std::vector<std::int32_t>& ids = resolve_before(call, requests, count, marks, marked);
  int rc = backend::Testany(count, requests, index, flag, status);
  retire_marked(requests, count, marks, marked);
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
int some_completed(std::uint16_t function, Unrecorded which, int (*pmpi)(int, MPI_Request*, int*, int*, MPI_Status*),
                   int count, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  if (unrecorded_call(function)) return pmpi(count, requests, outcount, indices, statuses);
  std::vector<char>& marks = scratch_unrecorded_marks();
  const int marked = mark_unrecorded_requests(requests, count, marks);
  if (only_unrecorded_requests(requests, count, marked))
    return counted_not_written(which, requests, count, marks,
                               [&] { return pmpi(count, requests, outcount, indices, statuses); });
  CallRecord call(function);
  std::vector<std::int32_t>& ids = resolve_before(call, requests, count, marks, marked);
  int rc = pmpi(count, requests, outcount, indices, statuses);
  retire_marked(requests, count, marks, marked);
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
  return some_completed(kWaitsome, Unrecorded::kWaitsome, backend::Waitsome, count, requests, outcount, indices,
                        statuses);
}

int MPI_Testsome(int count, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  return some_completed(kTestsome, Unrecorded::kTestsome, backend::Testsome, count, requests, outcount, indices,
                        statuses);
}

}  // extern "C"
