// SPDX-License-Identifier: BSD-3-Clause
// CallRecord: times one wrapped MPI call and writes its record prefix; the wrapper then appends
// the arguments and the destructor completes the record. Also the argument encoders (§5, §6).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include <amp/trace/writer/mpi_backend.hpp>
#include <amp/trace/writer/tracer.hpp>

namespace amp::trace {

class CallRecord {
 public:
  explicit CallRecord(std::uint16_t function) : tracer_(Tracer::instance()), function_(function) {
    times_.wall_start = wall_now();
    if (tracer_.cpu_times()) times_.cpu_start = cpu_now();
  }
  CallRecord(const CallRecord&) = delete;
  CallRecord& operator=(const CallRecord&) = delete;
  ~CallRecord() {
    if (begun_) tracer_.end_record(function_);
  }

  // After the PMPI call: takes the lock (MPI_THREAD_MULTIPLE only) and writes the prefix.
  ByteSink& begin() {
    times_.wall_stop = wall_now();
    if (tracer_.cpu_times()) times_.cpu_stop = cpu_now();
    lock_ = tracer_.guard();
    tracer_.write_prefix(function_, times_);
    begun_ = true;
    return tracer_.out();
  }

  Tracer& tracer() { return tracer_; }
  const CallTimes& times() const { return times_; }

  // After begin(): the DUMPI id of the request a recorded call made (persistent: Send_init, Recv_init,
  // ...). MPI recycles handle values, so the handle no longer names a request of an unrecorded call.
  std::int32_t request_created(const MPI_Request* request, bool persistent) {
    if (tracer_.unrecorded().has_requests()) tracer_.unrecorded().freed(*request);
    return persistent ? tracer_.requests().persistent_created(*request)
                      : tracer_.requests().started(*request, current_thread_number(), request);
  }

  // Argument encoders, valid after begin().
  void datatype(MPI_Datatype type) { tracer_.out().put16(tracer_.handles().datatype(type)); }
  void comm(MPI_Comm comm) { tracer_.out().put16(tracer_.handles().comm(comm)); }
  void op(MPI_Op op) { tracer_.out().put8(tracer_.handles().op(op)); }
  void win(MPI_Win win) { tracer_.out().put16(tracer_.handles().win(win)); }
  void group(MPI_Group group) { tracer_.out().put16(tracer_.handles().group(group)); }
  // The id of a type constructor's new datatype (its MPI_Type_size goes into the sizes block).
  void new_datatype(MPI_Datatype type) { tracer_.out().put16(tracer_.handles().new_datatype(type)); }
  void info(MPI_Info info) { tracer_.out().put16(tracer_.handles().info(info)); }
  void i32(int value) { tracer_.out().put_i32(value); }
  // Ranks and tags in DUMPI's encoding: ANY_SOURCE -> -1, ROOT -> -2, ANY_TAG -> -1, others raw.
  void source(int rank) { i32(rank == MPI_ANY_SOURCE ? -1 : rank == MPI_ROOT ? -2 : rank); }
  void dest(int rank) { i32(rank == MPI_ROOT ? -2 : rank); }
  void tag(int tag) { i32(tag == MPI_ANY_TAG ? -1 : tag); }
  void int_array(const int* values, int count) {
    ByteSink& out = tracer_.out();
    out.put32(static_cast<std::uint32_t>(count));
    for (int i = 0; i < count; ++i) out.put_i32(values[i]);
  }
  // MPI_Aint displacements as DUMPI's int array: each truncated to 32 bits (libdumpi itself writes the
  // first n 32-bit words of the MPI_Aint array, i.e. low and high halves, which is a bug there).
  void aint_array(const MPI_Aint* values, int count) {
    ByteSink& out = tracer_.out();
    out.put32(static_cast<std::uint32_t>(count));
    for (int i = 0; i < count; ++i) out.put_i32(static_cast<std::int32_t>(values[i]));
  }
  // u32 n + n x u16 datatype ids (MPI_Type_create_struct's oldtypes).
  void datatype_array(const MPI_Datatype* types, int count) {
    ByteSink& out = tracer_.out();
    out.put32(static_cast<std::uint32_t>(count));
    for (int i = 0; i < count; ++i) out.put16(tracer_.handles().datatype(types[i]));
  }
  void request_ids(const std::vector<std::int32_t>& ids) {
    ByteSink& out = tracer_.out();
    out.put32(static_cast<std::uint32_t>(ids.size()));
    for (std::int32_t id : ids) out.put_i32(id);
  }
  // STATUS field: nothing when statuses are off, n = 0 for MPI_STATUS_IGNORE or no completion.
  void status(const MPI_Status* status, bool completed = true) {
    if (!tracer_.statuses()) return;
    if (status == MPI_STATUS_IGNORE || !completed) {
      tracer_.out().put32(0);
      return;
    }
    tracer_.out().put32(1);
    status_entry(*status);
  }
  // STATUS array: entries for the given positions (all when positions is null).
  void statuses(const MPI_Status* statuses, int count, bool completed = true) {
    if (!tracer_.statuses()) return;
    if (statuses == MPI_STATUSES_IGNORE || !completed) {
      tracer_.out().put32(0);
      return;
    }
    tracer_.out().put32(static_cast<std::uint32_t>(count));
    for (int i = 0; i < count; ++i) status_entry(statuses[i]);
  }

 private:
  void status_entry(const MPI_Status& status) {
    int bytes = 0, cancelled = 0;
    backend::Get_count(&status, MPI_CHAR, &bytes);
    backend::Test_cancelled(&status, &cancelled);
    ByteSink& out = tracer_.out();
    out.put_i32(bytes);
    out.put_i32(status.MPI_SOURCE);
    out.put8(static_cast<std::uint8_t>(cancelled));
    out.put8(static_cast<std::uint8_t>(status.MPI_ERROR));
    out.put_i32(status.MPI_TAG);
  }

  Tracer& tracer_;
  std::uint16_t function_;
  CallTimes times_;
  std::unique_lock<std::mutex> lock_;
  bool begun_ = false;
};

// Every wrapper's opening, `if (unrecorded_call(kX)) return backend::X(...);`: true when the call is
// not to be recorded (`recorded` false), after counting it as ignored while tracing is paused; the
// wrapper then only calls PMPI.
inline bool skips_recording(std::uint16_t function, bool recorded) {
  if (!recorded && Tracer::state() == TraceState::kPaused) Tracer::instance().count_ignored(function);
  return !recorded;
}
// A call recorded only while recording (Tracer::recording()).
inline bool unrecorded_call(std::uint16_t function) { return skips_recording(function, Tracer::recording()); }
// A call that makes or frees an MPI object: recorded while paused too (Tracer::records_object_lifecycle()).
inline bool unrecorded_lifecycle_call(std::uint16_t function) {
  return skips_recording(function, Tracer::records_object_lifecycle());
}

// Scratch space for request-id arrays, one per thread (no allocation per call).
inline std::vector<std::int32_t>& scratch_request_ids() {
  thread_local std::vector<std::int32_t> ids;
  return ids;
}

}  // namespace amp::trace
