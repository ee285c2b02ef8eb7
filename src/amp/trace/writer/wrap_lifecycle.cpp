// SPDX-License-Identifier: BSD-3-Clause
// MPI_* wrappers that start, steer and end tracing: Init/Init_thread (start when AMP_TRACE_DIR or
// amp_dumpi_trace_into gave a directory), Finalize, Pcontrol (0 pauses, 1 resumes), Abort; plus calls
// that are only counted as ignored.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include <amp/trace/writer/amp_dumpi.h>
#include <amp/trace/writer/call_record.hpp>
#include <amp/trace/writer/lifecycle_records.hpp>

using namespace amp::trace;

namespace {

// Settings are read before tracing starts; a malformed value stops every rank with one line, exit 2.
bool settings_or_exit(TraceSettings& settings, bool mpi_initialised) {
  try {
    settings = TraceSettings::from_environment();
    return !settings.directory.empty();
  } catch (const std::exception& error) {
    int rank = 0;
    if (mpi_initialised) backend::Comm_rank(MPI_COMM_WORLD, &rank);
    std::fprintf(stderr, "amp_dumpi: rank %d: %s\n", rank, error.what());
    std::fflush(stderr);
    if (mpi_initialised) backend::Finalize();
    std::_Exit(2);  // a usage error, like every bad setting in AMP
  }
}

void write_init_arguments(Tracer& tracer, const int* argc, char*** argv) {
  ByteSink& out = tracer.out();
  int count = (argc != nullptr && argv != nullptr && *argv != nullptr) ? *argc : 0;
  out.put32(static_cast<std::uint32_t>(count));
  for (int i = 0; i < count; ++i) {
    const char* arg = (*argv)[i];
    out.put_long_string(arg != nullptr ? std::string_view(arg) : std::string_view());
  }
}

// DUMPI's thread levels (sst-dumpi's dumpi_threadlevel: 0 error, 1 single, 2 funneled, 3 serialized,
// 4 multiple), not the MPI library's own values (MPICH's and Open MPI's start at 0 for single).
std::uint8_t dumpi_thread_level(int mpi_level) {
  switch (mpi_level) {
    case MPI_THREAD_SINGLE:
      return 1;
    case MPI_THREAD_FUNNELED:
      return 2;
    case MPI_THREAD_SERIALIZED:
      return 3;
    case MPI_THREAD_MULTIPLE:
      return 4;
    default:
      return 0;
  }
}

}  // namespace

namespace amp::trace {

void start_and_record_init(std::uint16_t function, const TraceSettings& settings, const CallTimes& before, int* argc,
                           char*** argv, bool thread_multiple, int required, int provided,
                           const TraceNames* agreed_names, const std::string& extra_meta_lines) {
  // MPI_Init_thread that gave at most FUNNELED (MPI called from one thread, as after MPI_Init) is
  // recorded as MPI_Init: SST-macro 16.0's DUMPI replay marks a run initialized only at an MPI_Init
  // record and models no compute at all in a trace that opens with MPI_Init_thread.
  if (function == kInitThread && provided <= MPI_THREAD_FUNNELED) function = kInit;
  Tracer& tracer = Tracer::instance();
  tracer.start(settings, before.wall_start, thread_multiple, agreed_names, extra_meta_lines);
  CallTimes times = before;
  times.wall_stop = wall_now();
  if (settings.cpu_times) times.cpu_stop = cpu_now();
  tracer.write_prefix(function, times);
  write_init_arguments(tracer, argc, argv);
  if (function == kInitThread) {
    tracer.out().put8(dumpi_thread_level(required));
    tracer.out().put8(dumpi_thread_level(provided));
  }
  tracer.end_record(function);
}

int record_finalize(bool finalize_library) {
  // Collective, so before PMPI_Finalize and outside Finalize's timing; into no .meta once discarded.
  Tracer& tracer = Tracer::instance();
  if (!report_unrecorded_calls(tracer.unrecorded(), tracer.discarded() ? std::string() : tracer.meta_path()))
    tracer.mark_write_failed();
  int rc = MPI_SUCCESS;
  {
    CallRecord call(kFinalize);  // recorded even while paused: the end of the run
    if (finalize_library) rc = backend::Finalize();
    call.begin();
  }
  tracer.finish();
  return rc;
}

}  // namespace amp::trace

extern "C" {

int amp_dumpi_active(void) { return Tracer::active() ? 1 : 0; }

int amp_dumpi_trace_failed(void) { return Tracer::instance().write_failed() ? 1 : 0; }

void amp_dumpi_trace_into(const char* directory, const char* source) {
  TraceSettings::set_directory(directory != nullptr ? directory : "", source != nullptr ? source : "");
}

const char* amp_dumpi_trace_directory(void) {
  static std::string directory;
  directory = TraceSettings::asked_directory();
  return directory.c_str();
}

void amp_dumpi_discard(void) {
  if (Tracer::active()) Tracer::instance().discard();
}

int MPI_Init(int* argc, char*** argv) {
  TraceSettings settings;
  CallTimes times;
  times.wall_start = wall_now();
  times.cpu_start = cpu_now();
  int rc = backend::Init(argc, argv);
  if (rc != MPI_SUCCESS || !settings_or_exit(settings, true)) return rc;
  start_and_record_init(kInit, settings, times, argc, argv, false, 0, 0);
  return rc;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  TraceSettings settings;
  CallTimes times;
  times.wall_start = wall_now();
  times.cpu_start = cpu_now();
  int rc = backend::Init_thread(argc, argv, required, provided);
  if (rc != MPI_SUCCESS || !settings_or_exit(settings, true)) return rc;
  start_and_record_init(kInitThread, settings, times, argc, argv, *provided == MPI_THREAD_MULTIPLE, required,
                        *provided);
  return rc;
}

int MPI_Finalize(void) {
  if (!Tracer::active()) return backend::Finalize();
  return record_finalize(true);
}

int MPI_Pcontrol(const int level, ...) {
  if (!Tracer::active()) return backend::Pcontrol(level);
  Tracer& tracer = Tracer::instance();
  CallTimes times;
  times.wall_start = wall_now();
  if (tracer.cpu_times()) times.cpu_start = cpu_now();
  int rc = backend::Pcontrol(level);
  times.wall_stop = wall_now();
  if (tracer.cpu_times()) times.cpu_stop = cpu_now();
  if (level == 0) {
    auto lock = tracer.guard();
    if (Tracer::recording()) tracer.record_pcontrol(level, times);
    tracer.pause();
  } else {
    if (level == 1) tracer.resume();
    auto lock = tracer.guard();
    if (Tracer::recording()) tracer.record_pcontrol(level, times);
  }
  return rc;
}

int MPI_Abort(MPI_Comm comm, int errorcode) {
  if (Tracer::active()) {
    Tracer::instance().count_ignored(kAbort);
    Tracer::instance().finish_after_fault();
  }
  return backend::Abort(comm, errorcode);
}

double MPI_Wtime(void) {
  if (Tracer::active()) Tracer::instance().count_ignored(kWtime);
  return backend::Wtime();
}

double MPI_Wtick(void) {
  if (Tracer::active()) Tracer::instance().count_ignored(kWtick);
  return backend::Wtick();
}

int MPI_Initialized(int* flag) {
  if (Tracer::active()) Tracer::instance().count_ignored(kInitialized);
  return backend::Initialized(flag);
}

int MPI_Finalized(int* flag) {
  if (Tracer::active()) Tracer::instance().count_ignored(kFinalized);
  return backend::Finalized(flag);
}

}  // extern "C"
