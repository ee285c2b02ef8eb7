// SPDX-License-Identifier: BSD-3-Clause
// MPI_* wrappers for one-sided communication: Win_create/fence/free, Put, Get, Accumulate and PSCW
// synchronisation (Win_post/start/complete/wait) (target displacement stored as 32 bits, fence, post
// and start assertions as libdumpi encodes them).
// MPI_Win_allocate (MPI-3, no DUMPI record) is recorded as the MPI_Win_create it amounts to, so that
// the window its Puts and Gets name is defined in the trace.
#include <mpi.h>

#include <amp/trace/writer/call_record.hpp>

using namespace amp::trace;

namespace {

// libdumpi: one known flag -> its code; 0 or several flags -> MODE_ERROR (0xFF).
std::uint8_t fence_assertion(int assertion) {
  switch (assertion) {
    case MPI_MODE_NOCHECK:
      return 1;
    case MPI_MODE_NOSTORE:
      return 2;
    case MPI_MODE_NOPUT:
      return 4;
    case MPI_MODE_NOPRECEDE:
      return 8;
    case MPI_MODE_NOSUCCEED:
      return 16;
    default:
      return kWinFenceModeError;
  }
}

// Put and Get: origincount, origintype, targetrank, targetdisp, targetcount, targettype, win.
int transfer(int rc_of_call, CallRecord& call, int origin_count, MPI_Datatype origin_type, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Win win) {
  call.begin();
  call.i32(origin_count);
  call.datatype(origin_type);
  call.i32(target_rank);
  call.i32(static_cast<int>(target_disp));
  call.i32(target_count);
  call.datatype(target_type);
  call.win(win);
  return rc_of_call;
}

// Win_create's record: size (32 bits), dispunit, info, comm, the new window.
int window_created(int rc_of_call, CallRecord& call, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                   MPI_Win win) {
  call.begin();
  call.i32(static_cast<int>(size));
  call.i32(disp_unit);
  call.info(info);
  call.comm(comm);
  call.tracer().out().put16(call.tracer().handles().new_win(win));
  return rc_of_call;
}

// Win_post and Win_start: group, assertion (as fence's), win.
int group_synchronisation(std::uint16_t function, int (*pmpi)(MPI_Group, int, MPI_Win), MPI_Group group, int assertion,
                          MPI_Win win) {
  if (unrecorded_call(function)) return pmpi(group, assertion, win);
  CallRecord call(function);
  int rc = pmpi(group, assertion, win);
  call.begin();
  call.group(group);
  call.tracer().out().put8(fence_assertion(assertion));
  call.win(win);
  return rc;
}

// Win_complete and Win_wait: win.
int window_synchronisation(std::uint16_t function, int (*pmpi)(MPI_Win), MPI_Win win) {
  if (unrecorded_call(function)) return pmpi(win);
  CallRecord call(function);
  int rc = pmpi(win);
  call.begin();
  call.win(win);
  return rc;
}

}  // namespace

extern "C" {

int MPI_Win_create(void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win* win) {
  if (unrecorded_lifecycle_call(kWinCreate)) return backend::Win_create(base, size, disp_unit, info, comm, win);
  CallRecord call(kWinCreate);
  int rc = backend::Win_create(base, size, disp_unit, info, comm, win);
  return window_created(rc, call, size, disp_unit, info, comm, *win);
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win) {
  if (unrecorded_lifecycle_call(kWinCreate)) return backend::Win_allocate(size, disp_unit, info, comm, baseptr, win);
  CallRecord call(kWinCreate);
  int rc = backend::Win_allocate(size, disp_unit, info, comm, baseptr, win);
  return window_created(rc, call, size, disp_unit, info, comm, *win);
}

int MPI_Win_fence(int assertion, MPI_Win win) {
  if (unrecorded_call(kWinFence)) return backend::Win_fence(assertion, win);
  CallRecord call(kWinFence);
  int rc = backend::Win_fence(assertion, win);
  call.begin();
  call.tracer().out().put8(fence_assertion(assertion));
  call.win(win);
  return rc;
}

int MPI_Win_post(MPI_Group group, int assertion, MPI_Win win) {
  return group_synchronisation(kWinPost, backend::Win_post, group, assertion, win);
}

int MPI_Win_start(MPI_Group group, int assertion, MPI_Win win) {
  return group_synchronisation(kWinStart, backend::Win_start, group, assertion, win);
}

int MPI_Win_complete(MPI_Win win) { return window_synchronisation(kWinComplete, backend::Win_complete, win); }

int MPI_Win_wait(MPI_Win win) { return window_synchronisation(kWinWait, backend::Win_wait, win); }

int MPI_Win_free(MPI_Win* win) {
  if (unrecorded_lifecycle_call(kWinFree)) return backend::Win_free(win);
  CallRecord call(kWinFree);
  MPI_Win before = *win;
  int rc = backend::Win_free(win);
  call.begin();
  call.win(before);
  call.tracer().handles().forget_win(before);
  return rc;
}

int MPI_Put(const void* origin, int origin_count, MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
            int target_count, MPI_Datatype target_type, MPI_Win win) {
  if (unrecorded_call(kPut))
    return backend::Put(origin, origin_count, origin_type, target_rank, target_disp, target_count, target_type, win);
  CallRecord call(kPut);
  int rc = backend::Put(origin, origin_count, origin_type, target_rank, target_disp, target_count, target_type, win);
  return transfer(rc, call, origin_count, origin_type, target_rank, target_disp, target_count, target_type, win);
}

int MPI_Get(void* origin, int origin_count, MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
            int target_count, MPI_Datatype target_type, MPI_Win win) {
  if (unrecorded_call(kGet))
    return backend::Get(origin, origin_count, origin_type, target_rank, target_disp, target_count, target_type, win);
  CallRecord call(kGet);
  int rc = backend::Get(origin, origin_count, origin_type, target_rank, target_disp, target_count, target_type, win);
  return transfer(rc, call, origin_count, origin_type, target_rank, target_disp, target_count, target_type, win);
}

int MPI_Accumulate(const void* origin, int origin_count, MPI_Datatype origin_type, int target_rank,
                   MPI_Aint target_disp, int target_count, MPI_Datatype target_type, MPI_Op op, MPI_Win win) {
  if (unrecorded_call(kAccumulate))
    return backend::Accumulate(origin, origin_count, origin_type, target_rank, target_disp, target_count, target_type,
                               op, win);
  CallRecord call(kAccumulate);
  int rc = backend::Accumulate(origin, origin_count, origin_type, target_rank, target_disp, target_count, target_type,
                               op, win);
  call.begin();
  call.i32(origin_count);
  call.datatype(origin_type);
  call.i32(target_rank);
  call.i32(static_cast<int>(target_disp));
  call.i32(target_count);
  call.datatype(target_type);
  call.op(op);
  call.win(win);
  return rc;
}

}  // extern "C"
