// SPDX-License-Identifier: BSD-3-Clause
// How the Start/Wait/Test/Request_free wrappers treat requests made by calls with no DUMPI record
// (MPI_Psend_init, MPI_Precv_init, MPI_Ineighbor_alltoallv):
//  * a call whose non-null requests are all such requests is counted (UnrecordedCalls), not written;
//  * in a call that mixes them with recorded requests they are written as MPI_REQUEST_NULL (1), so
//    the positions (Waitany's index, Waitsome's indices, the statuses) stay right; MPI_Startall
//    instead lists only the recorded requests (a replayer cannot start MPI_REQUEST_NULL).
// A request a recorded call creates is dropped from the set (MPI recycles handle values).
#pragma once

#include <mpi.h>

#include <vector>

#include <amp/trace/writer/tracer.hpp>

namespace amp::trace {

// Marks (marks[i] = 1) the handles made by unrecorded calls; returns how many. No lock and no work
// while no such request exists.
inline int mark_unrecorded_requests(const MPI_Request* handles, int count, std::vector<char>& marks) {
  marks.assign(static_cast<std::size_t>(count), 0);
  Tracer& tracer = Tracer::instance();
  auto lock = tracer.guard();
  if (!tracer.unrecorded().has_requests()) return 0;
  int marked = 0;
  for (int i = 0; i < count; ++i) {
    if (tracer.unrecorded().is_request(handles[i])) {
      marks[static_cast<std::size_t>(i)] = 1;
      ++marked;
    }
  }
  return marked;
}

// True when `marked` covers every non-null handle (and is not 0): the call is counted, not written.
inline bool only_unrecorded_requests(const MPI_Request* handles, int count, int marked) {
  if (marked == 0) return false;
  int non_null = 0;
  for (int i = 0; i < count; ++i) non_null += handles[i] != MPI_REQUEST_NULL;
  return marked == non_null;
}

inline void count_unrecorded_call(Unrecorded call) {
  Tracer& tracer = Tracer::instance();
  auto lock = tracer.guard();
  tracer.unrecorded().count(call);
}

// After a completion call: forgets the marked non-persistent requests MPI completed (set to NULL).
inline void retire_unrecorded_requests(const MPI_Request* before, const MPI_Request* after, int count,
                                       const std::vector<char>& marks) {
  Tracer& tracer = Tracer::instance();
  auto lock = tracer.guard();
  for (int i = 0; i < count; ++i)
    if (marks[static_cast<std::size_t>(i)] && after[i] == MPI_REQUEST_NULL) tracer.unrecorded().completed(before[i]);
}

inline std::vector<char>& scratch_unrecorded_marks() {
  thread_local std::vector<char> marks;
  return marks;
}

}  // namespace amp::trace
